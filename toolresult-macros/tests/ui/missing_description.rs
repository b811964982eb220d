use toolresult::tool;

#[tool]
fn weather(city: String) -> String {
    city
}

fn main() {}
