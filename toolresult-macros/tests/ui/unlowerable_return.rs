use toolresult::tool;

struct Report;

/// Make a report.
#[tool]
fn report(title: String) -> Report {
    let _ = title;
    Report
}

fn main() {}
