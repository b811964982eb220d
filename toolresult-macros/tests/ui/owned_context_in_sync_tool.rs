use toolresult::tool;
use toolresult::tool::CallContext;

/// Which call.
#[tool]
fn which(cx: CallContext<'static>) -> String {
    cx.call_id().to_owned()
}

fn main() {}
