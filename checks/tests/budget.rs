//! Output budgets, golden: the marker line, a 40,000-row list, a 2 MB log,
//! a result with 12 images; and the toolbox applying a budget per tool with
//! the reader handing the whole back in slices.

use std::sync::Mutex;

use serde_json::{Value, json};
use toolresult::budget::{Artifact, ArtifactError, ArtifactId, ArtifactStore, Budget, MemoryStore};
use toolresult::canonical::ContentPart;
use toolresult::provider::{
    Anthropic, Call, CallRef, Gemini, Mcp, OpenAiChat, OpenAiResponses, PartPolicy, Provider,
};
use toolresult::tool::Arguments;
use toolresult::tool::{self, ToolSafety};
use toolresult::toolbox::Toolbox;
use toolresult::{IntoToolResult, ToolResult};

/// A store whose ids count up from `art_1`, so goldens can name them.
#[derive(Debug, Default)]
struct Numbered(Mutex<Vec<Artifact>>);

impl ArtifactStore for Numbered {
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError> {
        let mut kept = self.0.lock().unwrap();
        kept.push(artifact);
        ArtifactId::from_url_or_id(&format!("art_{}", kept.len()))
    }

    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        let n: usize = id.as_str().trim_start_matches("art_").parse().unwrap();
        Ok(self.0.lock().unwrap().get(n - 1).cloned())
    }
}

#[test]
fn the_marker_line_golden() {
    let text = "0123456789\n".repeat(100);
    let store = Numbered::default();
    let cut = Budget::new()
        .output_bytes(512)
        .apply(text.clone().lower(), None, &store);
    // The widest marker (103 bytes, 105 with its line breaks) leaves 407
    // bytes: 203 for the head, cut back to the line that ends at 198, and
    // 204 for the tail, moved on to the line that starts at 902.
    let marker = r#"[… 704 of 1100 bytes left out here; read them with read_artifact {"artifact":"art_1","offset":198}]"#;
    assert_eq!(
        cut.result.output,
        format!("{}{marker}\n{}", &text[..198], &text[902..])
    );
    assert!(cut.result.output.len() <= 512);
    assert_eq!(
        serde_json::to_string(&cut.result.parts).unwrap(),
        r#"[{"type":"file","mimeType":"text/plain","url":"artifact://art_1","name":"output.txt"}]"#
    );
    assert_eq!(
        store
            .get(&ArtifactId::from_url_or_id("art_1").unwrap())
            .unwrap()
            .unwrap()
            .bytes,
        text.as_bytes()
    );
}

#[test]
fn a_40000_row_list_keeps_its_first_rows_and_says_how_many_are_left_out() {
    // Every row is the same width, so how many fit is arithmetic.
    #[derive(serde::Serialize)]
    struct Row {
        id: String,
        name: String,
    }
    let rows: Vec<Row> = (0..40_000)
        .map(|n| Row {
            id: format!("r{n:05}"),
            name: format!("name {n:05}"),
        })
        .collect();
    let row_len = r#"{"id":"r00000","name":"name 00000"}"#.len();
    let max = 4096;
    // `[`, rows and commas, `]` within the budget.
    let kept = (max - 1) / (row_len + 1);
    let store = Numbered::default();
    let cut =
        Budget::new()
            .output_bytes(max)
            .apply(ToolResult::<_>::ok(rows).lower(), None, &store);
    let expected: Vec<String> = (0..kept)
        .map(|n| format!(r#"{{"id":"r{n:05}","name":"name {n:05}"}}"#))
        .collect();
    assert_eq!(cut.result.output, format!("[{}]", expected.join(",")));
    assert_eq!(
        cut.result.parts.last().unwrap().as_text().unwrap(),
        format!(
            r#"[… output elided to fit the budget: {} array items left out; read the whole with read_artifact {{"artifact":"art_1","offset":0}}]"#,
            40_000 - kept
        )
    );
    assert_eq!(cut.result.parts[0].url(), Some("artifact://art_1"));
    assert_eq!(cut.result.parts[0].mime_type(), Some("application/json"));
}

#[test]
fn a_2mb_log_keeps_whole_lines_at_its_head_and_tail() {
    let log: String = (0..100_000)
        .map(|n| format!("line {n:07} status ok\n"))
        .collect();
    assert_eq!(log.len(), 2_300_000);
    let store = Numbered::default();
    let cut = Budget::new()
        .output_bytes(8192)
        .apply(log.clone().lower(), None, &store);
    let output = &cut.result.output;
    assert!(output.len() <= 8192);
    let (head, rest) = output.split_once("[… ").unwrap();
    let (marker, tail) = rest.split_once('\n').unwrap();
    // The widest marker (112 bytes, 114 with its line breaks) leaves 8078
    // bytes: 4039 for the head, cut back to the line that ends at 4025 (175
    // lines of 23 bytes), and as many for the tail, moved on to the line
    // that starts at 2,295,975.
    assert_eq!(
        head,
        (0..175)
            .map(|n| format!("line {n:07} status ok\n"))
            .collect::<String>()
    );
    assert_eq!(
        tail,
        (99_825..100_000)
            .map(|n| format!("line {n:07} status ok\n"))
            .collect::<String>()
    );
    assert_eq!(
        marker,
        r#"2291950 of 2300000 bytes left out here; read them with read_artifact {"artifact":"art_1","offset":4025}]"#
    );
}

#[test]
fn twelve_images_keep_four_and_name_the_rest() {
    let image = |n: u8| ContentPart::from_bytes(vec![n; 100_000], "image/png").unwrap();
    let result =
        toolresult::canonical::ToolResult::ok("12 screenshots").with_parts((1..=12).map(image));
    let store = Numbered::default();
    let cut = Budget::new()
        .parts(4)
        .part_bytes(1 << 20)
        .apply(result.lower(), None, &store);
    assert_eq!(cut.result.output, "12 screenshots");
    assert_eq!(cut.result.parts.len(), 5);
    for (n, part) in (1u8..).zip(&cut.result.parts[..4]) {
        assert_eq!(part.data(), Some(&vec![n; 100_000][..]));
    }
    let lines: Vec<String> = (1..=8)
        .map(|n| format!(r#"[image (image/png, 100000 bytes) left out to fit the budget; read it with read_artifact {{"artifact":"art_{n}"}}]"#))
        .collect();
    assert_eq!(
        cut.result.parts[4].as_text(),
        Some(lines.join("\n").as_str())
    );
    for n in 1..=8u8 {
        let kept = store
            .get(&ArtifactId::from_url_or_id(&format!("art_{n}")).unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(kept.bytes, vec![n + 4; 100_000]);
        assert_eq!(kept.mime_type, "image/png");
    }
    // Anthropic: the output and the lines for the rest (its text blocks
    // first), then the four images.
    let answer = (CallRef::new("toolu_1", "screens"), &cut.result);
    let block = Anthropic::render(&answer, PartPolicy::Strict).unwrap();
    let block = serde_json::to_value(block).unwrap();
    let kinds: Vec<&str> = block["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "text", "image", "image", "image", "image"]);
}

#[test]
fn structured_content_is_sent_only_when_the_cut_value_keeps_the_schema() {
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Page {
        #[schemars(length(min = 30))]
        rows: Vec<u64>,
        cursor: String,
    }
    let schema = toolresult::tool::function("page", "A page", |_: Empty| {
        ToolResult::<Page>::ok(Page {
            rows: vec![],
            cursor: String::new(),
        })
    })
    .map(|tool| {
        use toolresult::tool::Tool;
        tool.output_schema().as_value().clone()
    })
    .unwrap();
    let page = |rows: u64| Page {
        rows: (0..rows).collect(),
        cursor: "c".repeat(40),
    };
    let store = MemoryStore::new();
    // 30 rows must stay: they fit 600 bytes, so the cut keeps the schema.
    let kept = Budget::new().output_bytes(600).apply(
        ToolResult::<_>::ok(page(5000)).lower(),
        Some(&schema),
        &store,
    );
    let structured: Value = serde_json::from_str(kept.structured_content().unwrap().get()).unwrap();
    assert!(
        jsonschema::draft202012::new(&schema)
            .unwrap()
            .is_valid(&structured)
    );
    assert!(structured["rows"].as_array().unwrap().len() >= 30);
    // Rows of 20 digits: 30 of them cannot fit 512 bytes, so the value is
    // cut past the schema, structuredContent is withheld and the notice
    // says why.
    let wide = Page {
        rows: (10_000_000_000_000_000_000..10_000_000_000_000_005_000).collect(),
        cursor: "c".repeat(40),
    };
    let withheld = Budget::new().output_bytes(512).apply(
        ToolResult::<_>::ok(wide).lower(),
        Some(&schema),
        &store,
    );
    assert!(withheld.structured_content().is_none());
    assert!(serde_json::from_str::<Value>(&withheld.result.output).is_ok());
    let notice = withheld.result.parts.last().unwrap().as_text().unwrap();
    assert!(notice.ends_with(" structuredContent is withheld: the value cut to fit no longer matches the output schema."), "{notice}");
    let answer = serde_json::to_value(
        Mcp::render(&(CallRef::new("1", "tool"), &withheld), PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    assert!(answer.get("structuredContent").is_none());
    assert_eq!(answer["content"][1]["type"], "resource_link");
}

#[test]
fn a_map_cut_to_fit_keeps_its_schema_and_its_structured_content() {
    // A map requires none of its entries: fewer still match the schema
    // schemars writes for it, so MCP gets a `structuredContent` (which it
    // must, for a tool that declares an `outputSchema`).
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Inventory {
        counts: std::collections::BTreeMap<String, u32>,
    }
    let inventory = |entries: u32| Inventory {
        counts: (0..entries).map(|i| (format!("item-{i:04}"), i)).collect(),
    };
    let tool = toolresult::tool::function("inventory", "Counts by item", move |_: Empty| {
        ToolResult::<Inventory>::ok(inventory(500))
    })
    .unwrap();
    let schema = {
        use toolresult::tool::Tool;
        tool.output_schema().as_value().clone()
    };
    let store = MemoryStore::new();
    let cut = Budget::new().output_bytes(1024).apply(
        ToolResult::<_>::ok(inventory(500)).lower(),
        Some(&schema),
        &store,
    );
    assert!(cut.result.output.len() <= 1024);
    let structured: Value = serde_json::from_str(cut.structured_content().unwrap().get()).unwrap();
    assert!(
        jsonschema::draft202012::new(&schema)
            .unwrap()
            .is_valid(&structured)
    );
    let kept = structured["counts"].as_object().unwrap();
    assert!(kept.len() > 30 && kept.len() < 500, "{}", kept.len());
    let notice = cut.result.parts.last().unwrap().as_text().unwrap();
    assert!(!notice.contains("withheld"), "{notice}");
    assert!(
        notice.contains(&format!("{} object members", 500 - kept.len())),
        "{notice}"
    );
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Empty {}

#[test]
fn the_toolbox_budgets_each_tool_and_the_reader_hands_the_whole_back() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    runtime.block_on(async {
        let log: String = (0..5_000).map(|n| format!("event {n} ✓\n")).collect();
        let mut toolbox = Toolbox::new().budget(Budget::new().output_bytes(2048));
        let whole = log.clone();
        toolbox
            .register(
                tool::function("log", "The log", move |_: Empty| whole.clone())
                    .unwrap()
                    .with_safety(ToolSafety::ReadOnly),
            )
            .unwrap();
        toolbox
            .register(tool::function("small", "A small log", |_: Empty| "x".repeat(3000)).unwrap())
            .unwrap()
            .budget(Budget::new().output_bytes(4096));
        toolbox.register_reader().unwrap();

        let outcomes = toolbox
            .run([
                Call::new("c1", "log", Arguments::Json(json!({}))),
                Call::new("c2", "small", Arguments::Json(json!({}))),
            ])
            .await;
        assert!(outcomes[0].lowered.result.output.len() <= 2048);
        assert_eq!(
            outcomes[1].lowered.result.output,
            "x".repeat(3000),
            "its own budget holds it"
        );
        let id = outcomes[0].lowered.result.parts[0]
            .url()
            .unwrap()
            .to_owned();

        // The model reads the whole back, a slice at a time.
        let mut read = Vec::new();
        let mut offset = Some(0u64);
        let mut turns = 0;
        while let Some(at) = offset {
            turns += 1;
            let slice = toolbox
                .run([Call::new(
                    format!("r{turns}"),
                    "read_artifact",
                    Arguments::Json(json!({"artifact": id, "offset": at, "length": 7000})),
                )])
                .await;
            let slice: Value = serde_json::from_str(&slice[0].lowered.result.output).unwrap();
            read.extend_from_slice(slice["text"].as_str().unwrap().as_bytes());
            offset = slice["next"].as_u64();
        }
        assert_eq!(String::from_utf8(read).unwrap(), log);
        assert!(turns > 1);
    });
}

#[test]
fn a_token_budget_holds_by_o200k_base() {
    use toolresult::budget::Tokenizer;
    // Short words and symbols: more tokens per byte than the estimate
    // assumes, so the cut must count.
    let text: String = (0..20_000).map(|n| format!("{n}: a, b; c! ")).collect();
    let budget = Budget::new()
        .output_tokens(300)
        .tokenizer(Tokenizer::O200kBase);
    let cut = budget.apply(text.clone().lower(), None, &MemoryStore::new());
    let tokens = Tokenizer::O200kBase.count(&cut.result.output);
    assert!(tokens <= 300, "{tokens} tokens");
    assert!(
        tokens > 150,
        "the cut keeps most of what fits: {tokens} tokens"
    );
    assert!(cut.result.output.starts_with("0: a, b; c! 1: a"));
}

#[test]
fn every_provider_but_mcp_names_the_artifact_link_in_a_line() {
    let log = "a log line\n".repeat(1000);
    let store = Numbered::default();
    let cut = Budget::new()
        .output_bytes(512)
        .apply(log.lower(), None, &store);
    let call = toolresult::provider::CallRef::new("c1", "log");
    let line = "[output.txt: artifact://art_1]";
    let anthropic =
        serde_json::to_value(Anthropic::render(&(call, &cut.result), PartPolicy::Strict).unwrap())
            .unwrap();
    assert_eq!(
        anthropic["content"][1],
        json!({"type": "text", "text": line})
    );
    let responses = serde_json::to_value(
        OpenAiResponses::render(&(call, &cut.result), PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    assert_eq!(
        responses["output"][1],
        json!({"type": "input_text", "text": line})
    );
    let gemini =
        serde_json::to_value(Gemini::render(&(call, &cut.result), PartPolicy::Strict).unwrap())
            .unwrap();
    assert_eq!(gemini[1], json!({"text": line}));
    let chat = serde_json::to_value(
        OpenAiChat::reply(&[(call, &cut.result)], PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    assert_eq!(chat[1]["content"][1], json!({"type": "text", "text": line}));
    let mcp = serde_json::to_value(
        Mcp::render(
            &(CallRef::new("1", "tool"), &cut.result),
            PartPolicy::Strict,
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        mcp["content"][1],
        json!({"type": "resource_link", "uri": "artifact://art_1", "name": "output.txt", "mimeType": "text/plain"})
    );
}

#[test]
fn an_error_is_cut_as_an_error_not_under_the_success_schema() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false});
    let failed = ToolResult::<u8>::fail(toolresult::ToolError::new("x".repeat(3000))).lower();
    let cut = Budget::new()
        .output_bytes(512)
        .apply(failed, Some(&schema), &MemoryStore::new());
    let error: Value = serde_json::from_str(&cut.result.output).unwrap();
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.len() > 300 && message.ends_with('…'), "{message}");
    let notice = cut.result.parts.last().unwrap().as_text().unwrap();
    assert!(!notice.contains("withheld"), "{notice}");
}

#[test]
fn the_reader_reads_the_store_set_after_it_was_registered() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut toolbox = Toolbox::new().budget(Budget::new().output_bytes(512));
        toolbox.register_reader().unwrap();
        toolbox
            .register(tool::function("log", "The log", |_: Empty| "line\n".repeat(1000)).unwrap())
            .unwrap();
        // A shared store: the toolbox keeps one handle, the caller the other.
        let store = std::sync::Arc::new(Numbered::default());
        let toolbox = toolbox.artifacts(std::sync::Arc::clone(&store));
        let cut = toolbox
            .run([Call::new("c1", "log", Arguments::Json(json!({})))])
            .await;
        assert_eq!(
            cut[0].lowered.result.parts[0].url(),
            Some("artifact://art_1")
        );
        assert_eq!(store.0.lock().unwrap().len(), 1);
        let read = toolbox
            .run([Call::new(
                "c2",
                "read_artifact",
                Arguments::Json(json!({"artifact": "art_1", "length": 10})),
            )])
            .await;
        assert_eq!(
            read[0].lowered.result.output,
            r#"{"text":"line\nline\n","offset":0,"next":10,"total":5000}"#
        );
    });
}

/// A store that keeps nothing: every `put` fails.
#[derive(Debug)]
struct Full;

impl ArtifactStore for Full {
    fn put(&self, _: Artifact) -> Result<ArtifactId, ArtifactError> {
        Err(ArtifactId::from_url_or_id("../full").unwrap_err())
    }

    fn get(&self, _: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        Ok(None)
    }
}

#[test]
fn a_store_that_fails_still_gives_a_result_within_budget_that_says_so() {
    let text = "0123456789\n".repeat(100);
    let cut = Budget::new()
        .output_bytes(512)
        .apply(text.clone().lower(), None, &Full);
    assert!(cut.result.output.len() <= 512);
    let output = &cut.result.output;
    let (head, rest) = output.split_once("[… ").unwrap();
    let (marker, tail) = rest.split_once('\n').unwrap();
    assert!(text.starts_with(head) && text.ends_with(tail));
    assert_eq!(
        marker,
        format!(
            "{} of 1100 bytes left out here; the whole output could not be kept]",
            1100 - head.len() - tail.len()
        )
    );
    assert!(
        cut.result.parts.is_empty(),
        "no link to a whole that was not kept"
    );
    let image = ContentPart::from_bytes(vec![1u8; 100], "image/png").unwrap();
    let result = toolresult::canonical::ToolResult::ok("shot").with_parts([image]);
    let cut = Budget::new().parts(0).apply(result.lower(), None, &Full);
    assert_eq!(
        cut.result.parts[0].as_text(),
        Some("[image (image/png, 100 bytes) left out to fit the budget; it could not be kept]")
    );
}
