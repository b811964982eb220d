use toolresult::tool;

/// Weather in a city.
///
/// # Arguments
/// * `city` - the city
/// * `country` - the country
#[tool]
fn weather(city: String) -> String {
    city
}

fn main() {}
