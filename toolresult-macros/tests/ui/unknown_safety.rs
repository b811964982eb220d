use toolresult::tool;

/// Weather in a city.
#[tool(safety = Harmless)]
fn weather(city: String) -> String {
    city
}

fn main() {}
