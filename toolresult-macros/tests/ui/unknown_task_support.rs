use toolresult::tool;

/// Runs for ever.
#[tool(task = Sometimes)]
fn forever() -> String {
    String::new()
}

fn main() {}
