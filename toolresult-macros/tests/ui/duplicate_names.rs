use toolresult::tool;

struct Db;

#[tool]
impl Db {
    /// Find a user.
    fn find(&self, id: u64) -> String {
        id.to_string()
    }

    /// Find an order.
    #[tool(name = "find")]
    fn find_order(&self, id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
