use toolresult::tool;

struct Counter(u32);

#[tool]
impl Counter {
    /// Count one more.
    fn bump(&mut self) -> String {
        self.0 += 1;
        self.0.to_string()
    }
}

fn main() {}
