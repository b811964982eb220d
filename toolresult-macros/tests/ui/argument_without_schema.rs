use toolresult::tool;

struct City {
    name: String,
}

/// Weather in a city.
#[tool]
fn weather(city: City) -> String {
    city.name
}

fn main() {}
