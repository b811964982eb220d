use toolresult::tool;

struct Db;

#[tool]
impl Db {
    /// Close the database.
    fn close(self) -> String {
        String::new()
    }
}

fn main() {}
