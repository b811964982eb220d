//! Tools of different argument, success and error types, held together as
//! `Box<dyn Tool>` and called by name.

mod support;
use support::call as call_tool;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolresult::tool::{self, Arguments, CallContext, Tool};
use toolresult::{Failure, Lowered, ToolError, ToolResult};

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Deserialize, JsonSchema)]
struct CityArgs {
    city: String,
}

#[derive(Serialize, JsonSchema)]
struct Weather {
    city: String,
    celsius: f32,
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", rename_all = "snake_case")]
enum LookupError {
    NotFound { key: String },
}

#[derive(Deserialize, JsonSchema)]
struct NoArgs {}

fn tools(counter: Arc<AtomicU32>) -> Vec<Box<dyn Tool>> {
    vec![
        Box::new(
            tool::function("add", "Add two integers", |a: AddArgs| {
                a.a.checked_add(a.b)
                    .ok_or(ToolError::new("the sum overflows"))
            })
            .unwrap(),
        ),
        Box::new(
            tool::function("weather", "Weather for a city", |a: CityArgs| {
                ToolResult::<_>::ok(Weather {
                    city: a.city,
                    celsius: 21.5,
                })
            })
            .unwrap(),
        ),
        Box::new(
            tool::function("lookup", "Look a key up", |a: CityArgs| async move {
                if a.city == "region" {
                    ToolResult::ok("eu-west-1".to_owned())
                } else {
                    ToolResult::fail(LookupError::NotFound { key: a.city })
                }
            })
            .unwrap(),
        ),
        Box::new(
            tool::function(
                "tick",
                "Count calls",
                move |_: NoArgs| -> Result<u32, Failure> {
                    Ok(counter.fetch_add(1, Ordering::SeqCst) + 1)
                },
            )
            .unwrap(),
        ),
        Box::new(
            tool::function(
                "read",
                "Read a file",
                |a: CityArgs| -> Result<String, Failure> { Ok(std::fs::read_to_string(a.city)?) },
            )
            .unwrap(),
        ),
    ]
}

fn call(tools: &[Box<dyn Tool>], name: &str, args: Value) -> Option<Lowered> {
    let tool = tools.iter().find(|t| t.name() == name)?;
    Some(call_tool(&**tool, args))
}

#[test]
fn a_loop_over_mixed_tools() {
    let counter = Arc::new(AtomicU32::new(0));
    let tools = tools(counter.clone());
    let calls = [
        ("add", json!({"a": 2, "b": 40}), "42", false),
        (
            "add",
            json!({"a": i64::MAX, "b": 1}),
            r#"{"error":{"message":"the sum overflows"}}"#,
            true,
        ),
        (
            "weather",
            json!({"city": "Lima"}),
            r#"{"city":"Lima","celsius":21.5}"#,
            false,
        ),
        ("lookup", json!({"city": "region"}), "eu-west-1", false),
        (
            "lookup",
            json!({"city": "zone"}),
            r#"{"error":{"code":"not_found","key":"zone"}}"#,
            true,
        ),
        ("tick", Value::Null, "1", false),
        ("tick", json!({}), "2", false),
        (
            "read",
            json!({"city": "no/such/file"}),
            r#"{"error":{"message":"the tool failed with an unexpected error (std::io::Error, kind NotFound)"}}"#,
            true,
        ),
    ];
    for (name, args, output, is_error) in calls {
        let lowered = call(&tools, name, args).unwrap();
        assert_eq!(lowered.result.output, output, "{name}");
        assert_eq!(lowered.result.is_error, is_error, "{name}");
        // A lowered result says it failed in `is_error`; a success's
        // diagnostics are empty.
        let d = &lowered.diagnostics;
        if !is_error {
            assert!(d.source().is_none(), "{name}");
            assert_eq!(d.is_transient(), None, "{name}");
            assert_eq!(d.retry_after(), None, "{name}");
        }
        if name == "read" {
            assert_eq!(d.source_type_name(), Some("std::io::Error"));
        }
    }
    assert_eq!(counter.load(Ordering::SeqCst), 2);
    assert!(call(&tools, "nope", json!({})).is_none());

    // Sync tools answer at once, with no future to poll; async ones give one.
    let cx = CallContext::new("c1", "any");
    let args = Arguments::Json(json!({"city": "region", "a": 1, "b": 1}));
    let at_once: Vec<bool> = tools
        .iter()
        .map(|t| t.call(&args, &cx).now().is_ok())
        .collect();
    assert_eq!(at_once, [true, true, false, true, true]);
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["add", "weather", "lookup", "tick", "read"]);
}

#[test]
fn tools_are_send_and_sync_and_their_futures_are_send() {
    fn assert_send<T: Send>(_: &T) {}
    fn assert_send_sync<T: Send + Sync + ?Sized>() {}
    assert_send_sync::<dyn Tool>();
    let tools = tools(Arc::new(AtomicU32::new(0)));
    let args = Arguments::Json(json!({"city": "region"}));
    let future = tools[2].call(&args, &CallContext::new("c1", "lookup"));
    assert_send(&future);
    drop(future);
    let shared: Arc<dyn Tool> = Arc::from(tools.into_iter().next().unwrap());
    let handle =
        std::thread::spawn(move || call_tool(&shared, json!({"a": 1, "b": 2})).result.output);
    assert_eq!(handle.join().unwrap(), "3");
}

#[test]
fn a_hand_written_tool_needs_only_its_name_description_schemas_and_call() {
    /// Writes the required methods and nothing else.
    struct Echo(schemars::Schema);
    impl Tool for Echo {
        fn name(&self) -> &str {
            "echo"
        }
        fn description(&self) -> &str {
            "Echo the arguments"
        }
        fn input_schema(&self) -> &schemars::Schema {
            &self.0
        }
        fn output_schema(&self) -> &schemars::Schema {
            &self.0
        }
        fn call<'a>(&'a self, args: &Arguments, _: &CallContext<'_>) -> tool::Calling<'a> {
            use toolresult::IntoToolResult;
            let text = match args {
                Arguments::Json(value) => value.to_string(),
                _ => "not JSON".to_owned(),
            };
            tool::Calling::ready(text.lower())
        }
    }
    let echo = Echo(schemars::json_schema!({"type": "object"}));
    // The model may read back anything; the tool asks for no timeout or
    // budget of its own.
    assert_eq!(echo.model_facing_schema().as_value(), &json!(true));
    assert_eq!(echo.timeout(), None);
    assert_eq!(echo.budget(), None);
    let boxed: Box<dyn Tool> = Box::new(echo);
    assert_eq!(boxed.model_facing_schema().as_value(), &json!(true));
    assert_eq!(
        call_tool(&*boxed, json!({"a": 1})).result.output,
        r#"{"a":1}"#
    );
}
