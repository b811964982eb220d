use toolresult::tool;

/// Weather in a city.
#[tool]
fn weather(city: &str) -> String {
    city.to_owned()
}

fn main() {}
