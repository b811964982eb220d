//! `#[tool]`: a plain function, or the methods of an `impl` block, as
//! tools that are the same, schema for schema and call for call, as the
//! tools written by hand with `tool::function`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use toolresult::provider::{Anthropic, Call, Gemini, Mcp, OpenAiChat, OpenAiResponses, Provider};
use toolresult::tool::{self, Arguments, CallContext, Tool, ToolSafety};
use toolresult::toolbox::{CallOutcome, Toolbox};
use toolresult::{Failure, ToolError, ToolResult, canonical};

#[derive(Debug, Serialize, JsonSchema)]
struct Weather {
    city: String,
    celsius: f32,
    days: u8,
}

/// Current weather for a city.
///
/// Reads the met service's last report.
///
/// # Arguments
/// * `city` - the city to look up, in English
/// * `days` - how many days ahead (0 is today)
#[toolresult::tool(safety = ReadOnly)]
fn get_weather(city: String, days: Option<u8>) -> ToolResult<Weather> {
    match city.as_str() {
        "Oslo" => ToolResult::ok(Weather {
            city,
            celsius: -3.5,
            days: days.unwrap_or(0),
        }),
        _ => ToolResult::fail(ToolError::new(format!("unknown city {city}"))),
    }
}

/// The same tool, by hand.
fn get_weather_by_hand() -> impl Tool {
    #[derive(Deserialize, JsonSchema)]
    struct Args {
        /// the city to look up, in English
        city: String,
        /// how many days ahead (0 is today)
        days: Option<u8>,
    }
    tool::function(
        "get_weather",
        "Current weather for a city.\n\nReads the met service's last report.",
        |a: Args| get_weather(a.city, a.days),
    )
    .unwrap()
    .with_safety(ToolSafety::ReadOnly)
}

fn call(tool: &dyn Tool, args: serde_json::Value) -> String {
    let cx = CallContext::new("call_1", tool.name());
    pollster::block_on(tool.call(&Arguments::Json(args), &cx))
        .result
        .output
}

fn json(schema: &schemars::Schema) -> String {
    serde_json::to_string(schema).unwrap()
}

/// `text` read as JSON, for a literal expectation whose key order is
/// serde_json's to choose.
fn value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// Every schema of `made` is byte for byte the one of `by_hand`, and so are
/// its name, description and safety.
fn assert_same(made: &dyn Tool, by_hand: &dyn Tool) {
    assert_eq!(made.name(), by_hand.name());
    assert_eq!(made.description(), by_hand.description());
    assert_eq!(json(made.input_schema()), json(by_hand.input_schema()));
    assert_eq!(json(made.output_schema()), json(by_hand.output_schema()));
    assert_eq!(
        json(made.model_facing_schema()),
        json(by_hand.model_facing_schema())
    );
    assert_eq!(made.safety(), by_hand.safety());
    assert_eq!(made.blocks(), by_hand.blocks());
}

#[test]
fn a_function_is_the_tool_written_by_hand() {
    let made = get_weather::tool();
    assert_same(&made, &get_weather_by_hand());
    assert_eq!(made.name(), "get_weather");
    assert_eq!(
        made.description(),
        "Current weather for a city.\n\nReads the met service's last report."
    );
    assert_eq!(made.safety(), ToolSafety::ReadOnly);
    assert_eq!(
        value(&json(made.input_schema())),
        value(
            r#"{"type":"object","properties":{"city":{"description":"the city to look up, in English","type":"string"},"days":{"description":"how many days ahead (0 is today)","type":["integer","null"],"format":"uint8","minimum":0,"maximum":255}},"required":["city"]}"#
        )
    );
}

#[test]
fn a_function_stays_callable_as_written() {
    let direct = get_weather("Oslo".to_owned(), Some(2)).lower_output();
    assert_eq!(direct, r#"{"city":"Oslo","celsius":-3.5,"days":2}"#);
}

/// Echoes its text back.
#[toolresult::tool]
fn echo(echo: String) -> String {
    echo
}

/// Echoes its text back, later.
#[toolresult::tool]
async fn echo_later(echo_later: String) -> String {
    echo_later
}

#[test]
fn an_argument_may_be_named_like_its_function() {
    // The generated call names the function before the arguments are
    // unpacked into locals of their names.
    assert_eq!(call(&echo::tool(), serde_json::json!({"echo": "hi"})), "hi");
    assert_eq!(
        call(
            &echo_later::tool(),
            serde_json::json!({"echo_later": "later"})
        ),
        "later"
    );
}

trait LowerOutput {
    fn lower_output(self) -> String;
}

impl<R: toolresult::IntoToolResult> LowerOutput for R {
    fn lower_output(self) -> String {
        self.lower().result.output
    }
}

#[test]
fn optional_arguments_may_be_left_out() {
    let made = get_weather::tool();
    assert_eq!(
        call(&made, json!({"city": "Oslo"})),
        r#"{"city":"Oslo","celsius":-3.5,"days":0}"#
    );
    assert_eq!(
        call(&made, json!({"city": "Oslo", "days": 3})),
        r#"{"city":"Oslo","celsius":-3.5,"days":3}"#
    );
    assert_eq!(
        call(&made, json!({"days": 3})),
        r#"{"error":{"message":"invalid arguments: missing field `city`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#
    );
    assert_eq!(
        call(&made, json!({"city": "Bergen"})),
        r#"{"error":{"message":"unknown city Bergen"}}"#
    );
}

/// Search the catalogue.
///
/// # Arguments
/// * `query` - what to look for
/// * `max` - at most this many hits
#[toolresult::tool(name = "search-catalogue")]
fn search(
    #[serde(rename = "q")] query: String,
    #[serde(default = "ten")]
    #[schemars(range(min = 1, max = 50))]
    max: u32,
) -> Result<Vec<String>, ToolError> {
    Ok((0..max.min(2)).map(|i| format!("{query} {i}")).collect())
}

fn ten() -> u32 {
    10
}

#[test]
fn renamed_arguments_and_their_attributes_pass_through() {
    #[derive(Deserialize, JsonSchema)]
    struct Args {
        /// what to look for
        #[serde(rename = "q")]
        query: String,
        /// at most this many hits
        #[serde(default = "ten")]
        #[schemars(range(min = 1, max = 50))]
        max: u32,
    }
    let by_hand = tool::function("search-catalogue", "Search the catalogue.", |a: Args| {
        search(a.query, a.max)
    })
    .unwrap();
    let made = search::tool();
    assert_same(&made, &by_hand);
    assert_eq!(
        value(&json(made.input_schema())),
        value(
            r#"{"type":"object","properties":{"q":{"description":"what to look for","type":"string"},"max":{"description":"at most this many hits","type":"integer","format":"uint32","minimum":1,"maximum":50,"default":10}},"required":["q"]}"#
        )
    );
    assert_eq!(call(&made, json!({"q": "lamp"})), r#"["lamp 0","lamp 1"]"#);
}

/// Which call this is.
#[toolresult::tool]
fn which_call(label: String, cx: &CallContext) -> String {
    format!("{label} {} attempt {}", cx.call_id(), cx.attempt())
}

/// Which call this is, later.
///
/// # Arguments
/// * `label` - a word to echo
#[toolresult::tool]
async fn which_call_later(cx: CallContext<'static>, label: String) -> String {
    format!("{label} {}", cx.call_id())
}

#[test]
fn the_context_is_no_argument() {
    #[derive(Deserialize, JsonSchema)]
    struct Args {
        label: String,
    }
    let by_hand = tool::function(
        "which_call",
        "Which call this is.",
        |a: Args, cx: &CallContext| which_call(a.label, cx),
    )
    .unwrap();
    let made = which_call::tool();
    assert_same(&made, &by_hand);
    assert_eq!(
        json(made.input_schema()),
        r#"{"type":"object","properties":{"label":{"type":"string"}},"required":["label"]}"#
    );
    assert_eq!(call(&made, json!({"label": "hi"})), "hi call_1 attempt 1");

    let later = which_call_later::tool();
    assert_eq!(
        json(later.input_schema()),
        r#"{"type":"object","properties":{"label":{"description":"a word to echo","type":"string"}},"required":["label"]}"#
    );
    assert_eq!(call(&later, json!({"label": "hi"})), "hi call_1");
}

/// Add two integers.
#[toolresult::tool]
async fn add(a: i64, b: i64) -> Result<i64, Failure> {
    a.checked_add(b)
        .ok_or_else(|| Failure::new(ToolError::new("the sum overflows")))
}

#[test]
fn an_async_function_is_the_tool_written_by_hand() {
    #[derive(Deserialize, JsonSchema)]
    struct Args {
        a: i64,
        b: i64,
    }
    let by_hand = tool::function("add", "Add two integers.", |x: Args| add(x.a, x.b)).unwrap();
    let made = add::tool();
    assert_same(&made, &by_hand);
    assert_eq!(call(&made, json!({"a": 2, "b": 40})), "42");
    assert_eq!(
        call(&made, json!({"a": i64::MAX, "b": 1})),
        r#"{"error":{"message":"the sum overflows"}}"#
    );
}

// Every return shape the crate lowers.

/// Plain text.
#[toolresult::tool]
fn returns_text() -> String {
    "text".to_owned()
}

/// Borrowed text.
#[toolresult::tool]
fn returns_str() -> &'static str {
    "static"
}

/// Nothing.
#[toolresult::tool]
fn returns_unit() {}

/// Nothing, said so.
#[toolresult::tool]
#[allow(clippy::unused_unit)] // the explicit `()` is what is tested
fn returns_unit_explicitly() -> () {}

/// JSON.
#[toolresult::tool]
fn returns_json() -> serde_json::Value {
    json!({"k": [1, 2]})
}

/// A typed value or a typed error.
#[toolresult::tool]
fn returns_result(fail: bool) -> Result<Weather, ToolError> {
    if fail {
        Err(ToolError::new("no weather"))
    } else {
        Ok(Weather {
            city: "Oslo".into(),
            celsius: 1.0,
            days: 0,
        })
    }
}

/// A value or a failure.
#[toolresult::tool]
fn returns_failure(fail: bool) -> Result<u8, Failure> {
    if fail {
        Err(Failure::new(ToolError::new("no")).transient())
    } else {
        Ok(7)
    }
}

/// The canonical result itself.
#[toolresult::tool]
fn returns_canonical() -> canonical::ToolResult {
    canonical::ToolResult::ok("as is")
}

#[test]
fn every_return_shape_has_its_schemas() {
    #[derive(Deserialize, JsonSchema)]
    struct NoArgs {}
    #[derive(Deserialize, JsonSchema)]
    struct Fail {
        fail: bool,
    }
    let pairs: Vec<(Box<dyn Tool>, Box<dyn Tool>)> = vec![
        (
            Box::new(returns_text::tool()),
            Box::new(
                tool::function("returns_text", "Plain text.", |_: NoArgs| returns_text()).unwrap(),
            ),
        ),
        (
            Box::new(returns_str::tool()),
            Box::new(
                tool::function("returns_str", "Borrowed text.", |_: NoArgs| returns_str()).unwrap(),
            ),
        ),
        (
            Box::new(returns_unit::tool()),
            Box::new(
                tool::function("returns_unit", "Nothing.", |_: NoArgs| returns_unit()).unwrap(),
            ),
        ),
        (
            Box::new(returns_unit_explicitly::tool()),
            Box::new(
                tool::function(
                    "returns_unit_explicitly",
                    "Nothing, said so.",
                    |_: NoArgs| returns_unit_explicitly(),
                )
                .unwrap(),
            ),
        ),
        (
            Box::new(returns_json::tool()),
            Box::new(tool::function("returns_json", "JSON.", |_: NoArgs| returns_json()).unwrap()),
        ),
        (
            Box::new(returns_result::tool()),
            Box::new(
                tool::function(
                    "returns_result",
                    "A typed value or a typed error.",
                    |a: Fail| returns_result(a.fail),
                )
                .unwrap(),
            ),
        ),
        (
            Box::new(returns_failure::tool()),
            Box::new(
                tool::function("returns_failure", "A value or a failure.", |a: Fail| {
                    returns_failure(a.fail)
                })
                .unwrap(),
            ),
        ),
        (
            Box::new(returns_canonical::tool()),
            Box::new(
                tool::function(
                    "returns_canonical",
                    "The canonical result itself.",
                    |_: NoArgs| returns_canonical(),
                )
                .unwrap(),
            ),
        ),
    ];
    for (made, by_hand) in &pairs {
        assert_same(made.as_ref(), by_hand.as_ref());
    }
    let outputs: Vec<String> = pairs
        .iter()
        .map(|(made, _)| call(made.as_ref(), json!({"fail": true})))
        .collect();
    assert_eq!(
        outputs,
        [
            "text",
            "static",
            "null",
            "null",
            r#"{"k":[1,2]}"#,
            r#"{"error":{"message":"no weather"}}"#,
            r#"{"error":{"message":"no"}}"#,
            "as is",
        ]
    );
    assert_eq!(
        value(&json(returns_result::tool().output_schema())),
        value(
            r#"{"type":"object","properties":{"city":{"type":"string"},"celsius":{"type":"number","format":"float"},"days":{"type":"integer","format":"uint8","minimum":0,"maximum":255}},"required":["city","celsius","days"]}"#
        )
    );
    assert_eq!(
        json(returns_text::tool().output_schema()),
        r#"{"type":"string"}"#
    );
}

/// Slow on purpose.
#[toolresult::tool(safety = Idempotent, timeout = "20ms", budget = toolresult::budget::Budget::new().output_bytes(512))]
async fn slow(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    "x".repeat(2000)
}

/// The one call of the running toolbox: the toolbox API in one place.
async fn run_one(toolbox: &Toolbox, name: &str, args: serde_json::Value) -> CallOutcome {
    let mut outcomes = toolbox
        .run([Call::new("c1", name, Arguments::Json(args))])
        .await;
    outcomes.pop().unwrap()
}

/// A toolbox that tries each call once, so a timeout is answered at once.
fn one_attempt() -> Toolbox {
    Toolbox::new().retry(toolresult::retry::RetryPolicy::new().max_attempts(1))
}

/// The tool `name` in `toolbox`, which sleeps `millis` then answers 2,000
/// bytes, runs under a 20 ms timeout and a 512-byte budget.
async fn assert_timeout_and_budget(toolbox: &Toolbox, name: &str) {
    let timed_out = run_one(toolbox, name, json!({"millis": 1000})).await;
    assert!(timed_out.lowered.result.is_error, "{name}");
    assert_eq!(
        timed_out.lowered.result.output,
        r#"{"error":{"message":"the tool did not finish within 20ms","suggestion":"try again, or ask for less at once"}}"#,
        "{name}"
    );

    let cut = run_one(toolbox, name, json!({"millis": 1})).await;
    assert!(!cut.lowered.result.is_error, "{name}");
    assert!(
        cut.lowered.result.output.len() <= 512,
        "{name}: {} bytes",
        cut.lowered.result.output.len()
    );
    assert!(
        cut.lowered.result.output.contains("read_artifact"),
        "{name}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_registered_tool_keeps_the_timeout_and_budget_of_its_attribute() {
    let tool = slow::tool();
    assert_eq!(tool.timeout(), Some(Some(Duration::from_millis(20))));
    assert_eq!(
        tool.budget(),
        Some(toolresult::budget::Budget::new().output_bytes(512))
    );

    let mut toolbox = one_attempt();
    toolbox.register(slow::tool()).unwrap();
    assert_eq!(toolbox.names().collect::<Vec<_>>(), ["slow"]);
    assert_eq!(
        toolbox.get("slow").unwrap().safety(),
        ToolSafety::Idempotent
    );
    assert_timeout_and_budget(&toolbox, "slow").await;

    // A second registration of the same name is refused, as by hand.
    assert_eq!(
        toolbox.register(slow::tool()).unwrap_err().to_string(),
        "a tool named `slow` is already registered"
    );
}

#[tokio::test(start_paused = true)]
async fn a_boxed_or_shared_tool_keeps_the_timeout_and_budget_of_its_attribute() {
    let tools: Vec<Box<dyn Tool>> = vec![Box::new(slow::tool())];
    let mut toolbox = one_attempt();
    for tool in tools {
        toolbox.register(tool).unwrap();
    }
    assert_timeout_and_budget(&toolbox, "slow").await;

    let shared: Arc<dyn Tool> = Arc::new(slow::tool());
    let mut toolbox = one_attempt();
    toolbox.register(shared).unwrap();
    assert_timeout_and_budget(&toolbox, "slow").await;
}

/// Tools of a block, slow on purpose.
struct Sleeper;

#[toolresult::tool]
impl Sleeper {
    /// Sleep, then answer at length.
    #[tool(timeout = "20ms", budget = toolresult::budget::Budget::new().output_bytes(512))]
    async fn nap(&self, millis: u64) -> String {
        tokio::time::sleep(Duration::from_millis(millis)).await;
        "z".repeat(2000)
    }
}

#[tokio::test(start_paused = true)]
async fn the_tools_of_a_block_keep_the_timeout_and_budget_of_their_attributes() {
    let mut toolbox = one_attempt();
    for tool in Arc::new(Sleeper).tools() {
        toolbox.register(tool).unwrap();
    }
    assert_timeout_and_budget(&toolbox, "nap").await;
}

#[tokio::test(start_paused = true)]
async fn the_options_of_a_registration_come_over_those_of_the_attribute() {
    let mut toolbox = one_attempt();
    toolbox
        .register(slow::tool())
        .unwrap()
        .timeout(None)
        .budget(toolresult::budget::Budget::new());
    let whole = run_one(&toolbox, "slow", json!({"millis": 1000})).await;
    assert!(!whole.lowered.result.is_error);
    assert_eq!(whole.lowered.result.output, "x".repeat(2000));
}

/// A store of counters, its tools sharing it.
struct Counters {
    hits: AtomicU32,
    prefix: String,
}

#[toolresult::tool]
impl Counters {
    /// Count one more hit.
    ///
    /// # Arguments
    /// * `by` - how many hits to add
    #[tool(safety = Additive)]
    fn hit(&self, by: Option<u32>) -> Result<u32, ToolError> {
        Ok(self.hits.fetch_add(by.unwrap_or(1), Ordering::SeqCst) + by.unwrap_or(1))
    }

    /// Read the count.
    #[tool(name = "read_count", safety = ReadOnly, timeout = "5s")]
    async fn read(&self, cx: CallContext<'static>, label: String) -> String {
        format!(
            "{}{label}={} ({})",
            self.prefix,
            self.hits.load(Ordering::SeqCst),
            cx.call_id()
        )
    }
}

#[test]
fn the_methods_of_a_block_are_its_tools() {
    let counters = Arc::new(Counters {
        hits: AtomicU32::new(0),
        prefix: "n:".into(),
    });
    let tools = counters.tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["hit", "read_count"]);
    assert_eq!(tools[0].safety(), ToolSafety::Additive);
    assert_eq!(tools[1].safety(), ToolSafety::ReadOnly);
    assert_eq!(call(tools[0].as_ref(), json!({})), "1");
    assert_eq!(call(tools[0].as_ref(), json!({"by": 4})), "5");
    assert_eq!(
        call(tools[1].as_ref(), json!({"label": "hits"})),
        "n:hits=5 (call_1)"
    );
    // The methods stay callable as written.
    assert_eq!(counters.hit(Some(1)), Ok(6));

    #[derive(Deserialize, JsonSchema)]
    struct HitArgs {
        /// how many hits to add
        by: Option<u32>,
    }
    #[derive(Deserialize, JsonSchema)]
    struct ReadArgs {
        label: String,
    }
    let shared = Arc::clone(&counters);
    let hit_by_hand = tool::function("hit", "Count one more hit.", move |a: HitArgs| {
        shared.hit(a.by)
    })
    .unwrap()
    .with_safety(ToolSafety::Additive);
    let shared = Arc::clone(&counters);
    let read_by_hand = tool::function(
        "read_count",
        "Read the count.",
        move |a: ReadArgs, cx: CallContext<'static>| {
            let shared = Arc::clone(&shared);
            async move { shared.read(cx, a.label).await }
        },
    )
    .unwrap()
    .with_safety(ToolSafety::ReadOnly);
    assert_same(tools[0].as_ref(), &hit_by_hand);
    assert_same(tools[1].as_ref(), &read_by_hand);
}

#[tokio::test]
async fn the_tools_of_a_block_register_one_by_one() {
    let counters = Arc::new(Counters {
        hits: AtomicU32::new(0),
        prefix: String::new(),
    });
    let mut toolbox = Toolbox::new();
    for tool in counters.tools() {
        toolbox.register(tool).unwrap();
    }
    assert_eq!(toolbox.names().collect::<Vec<_>>(), ["hit", "read_count"]);
    assert_eq!(
        run_one(&toolbox, "hit", json!({"by": 2}))
            .await
            .lowered
            .result
            .output,
        "2"
    );
    assert_eq!(
        run_one(&toolbox, "read_count", json!({"label": "x"}))
            .await
            .lowered
            .result
            .output,
        "x=2 (c1)"
    );
}

#[test]
fn the_attribute_and_the_module_share_one_import() {
    // `use toolresult::tool;` brings both the module (`tool::function`)
    // and the attribute (`#[tool]`).
    mod user {
        use toolresult::tool;

        /// Echo.
        #[tool]
        pub fn echo(text: String) -> String {
            text
        }

        pub fn both() -> (impl tool::Tool, impl tool::Tool) {
            #[derive(serde::Deserialize, schemars::JsonSchema)]
            struct Args {
                text: String,
            }
            (
                echo::tool(),
                tool::function("echo", "Echo.", |a: Args| echo(a.text)).unwrap(),
            )
        }
    }
    let (made, by_hand) = user::both();
    assert_same(&made, &by_hand);
}

/// What each provider declares of `tool`, as JSON text: the provider API in
/// one place.
fn declarations(tool: &dyn Tool) -> [String; 5] {
    [
        serde_json::to_string(&OpenAiChat::declare(tool)).unwrap(),
        serde_json::to_string(&OpenAiResponses::declare(tool)).unwrap(),
        serde_json::to_string(&Anthropic::declare(tool)).unwrap(),
        serde_json::to_string(&Gemini::declare(tool)).unwrap(),
        serde_json::to_string(&Mcp::declare(tool)).unwrap(),
    ]
}

// provider declarations
#[test]
fn every_provider_declares_the_attribute_made_tool_as_the_hand_written_one() {
    let made = get_weather::tool();
    let by_hand = get_weather_by_hand();
    assert_eq!(declarations(&made), declarations(&by_hand));
    assert_eq!(
        value(&declarations(&made)[4]),
        value(
            r#"{"name":"get_weather","description":"Current weather for a city.\n\nReads the met service's last report.","inputSchema":{"type":"object","properties":{"city":{"description":"the city to look up, in English","type":"string"},"days":{"description":"how many days ahead (0 is today)","type":["integer","null"],"format":"uint8","minimum":0,"maximum":255}},"required":["city"]},"outputSchema":{"type":"object","properties":{"city":{"type":"string"},"celsius":{"type":"number","format":"float"},"days":{"type":"integer","format":"uint8","minimum":0,"maximum":255}},"required":["city","celsius","days"]},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true}}"#
        )
    );
    let counters = Arc::new(Counters {
        hits: AtomicU32::new(0),
        prefix: String::new(),
    });
    let add_by_hand = {
        #[derive(Deserialize, JsonSchema)]
        struct Args {
            a: i64,
            b: i64,
        }
        tool::function("add", "Add two integers.", |x: Args| add(x.a, x.b)).unwrap()
    };
    assert_eq!(declarations(&add::tool()), declarations(&add_by_hand));
    assert_eq!(
        value(&declarations(counters.tools()[0].as_ref())[2]),
        value(
            r#"{"name":"hit","description":"Count one more hit.","input_schema":{"type":"object","properties":{"by":{"description":"how many hits to add","type":["integer","null"],"format":"uint32","minimum":0}}}}"#
        )
    );
}

/// Builds a report, for minutes: a call runs as an MCP task.
#[toolresult::tool(task = Required)]
fn build_report(title: String) -> String {
    title
}

#[test]
fn task_support_is_declared_by_the_attribute_and_forbidden_by_default() {
    use toolresult::tool::TaskSupport;
    assert_eq!(build_report::tool().task_support(), TaskSupport::Required);
    assert_eq!(slow::tool().task_support(), TaskSupport::Forbidden);
    // Shared and boxed tools say what the tool says.
    let shared: Arc<dyn Tool> = Arc::new(build_report::tool());
    assert_eq!(shared.task_support(), TaskSupport::Required);
}
