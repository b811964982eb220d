//! Property tests of the provider renderings over arbitrary canonical
//! results: every style renders any result without panicking (under
//! `Placeholder` always, under `Strict` or with an error naming the part),
//! and an MCP `CallToolResult` reads back into exactly what the
//! `provider::mcp` module docs say a round trip keeps, a second trip changing
//! nothing; a structured success comes back as its `output`, byte for byte.

mod strategies;

use proptest::prelude::*;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use strategies::{config, json_map, json_value, part, tool_result};
use toolresult::IntoToolResult;
use toolresult::canonical::PartLimit;
use toolresult::canonical::{ContentPart, PartKind, ToolResult};
use toolresult::provider::{
    Answered, Anthropic, CallRef, Gemini, Mcp, OpenAiChat, OpenAiResponses, PartPolicy, Provider,
    RenderError,
};

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// A rendering serialises; under `Placeholder` it never fails, under
/// `Strict` it fails only for a part the style cannot carry, by name.
fn check_rendering<R: serde::Serialize>(
    result: &ToolResult,
    policy: PartPolicy,
    rendering: Result<R, RenderError>,
) -> Result<(), TestCaseError> {
    match rendering {
        Ok(value) => {
            serde_json::to_string(&value).map_err(fail)?;
        }
        Err(error) => {
            prop_assert_eq!(policy, PartPolicy::Strict, "{}", error);
            let RenderError::UnsupportedPart { index, part, .. } = &error else {
                return Err(fail(format!("unexpected error {error}")));
            };
            let described = result.parts.get(*index).map(ContentPart::describe);
            prop_assert_eq!(described.as_ref(), Some(part));
        }
    }
    Ok(())
}

/// The part MCP gives back for `part`, by the module docs: none for a text
/// part (its text reads into `output`); a part by URL becomes a file part
/// (a `resource_link`); an inline image or audio part loses its name (the
/// block has none); an inline file keeps the last `/` segment of its name
/// (written whole, percent-encoded, in the embedded resource's `file:///`
/// uri), and one without a name (or with an empty one) reads back as
/// `attachment`.
fn part_after_mcp(part: &ContentPart) -> Result<Option<ContentPart>, TestCaseError> {
    let Some(mime) = part.mime_type() else {
        return Ok(None);
    };
    let mut fields = Map::new();
    fields.insert("mimeType".into(), mime.into());
    let (kind, name) = match part.url() {
        Some(url) => {
            fields.insert("url".into(), url.into());
            ("file", part.name())
        }
        None => {
            fields.insert("data".into(), part.data_base64().unwrap_or_default().into());
            match part.kind() {
                PartKind::Image => ("image", None),
                PartKind::Audio => ("audio", None),
                _ => (
                    "file",
                    match part.name().filter(|n| !n.is_empty()) {
                        None => Some("attachment"),
                        Some(name) => Some(
                            name.rsplit('/')
                                .next()
                                .filter(|n| !n.is_empty())
                                .unwrap_or("attachment"),
                        ),
                    },
                ),
            }
        }
    };
    fields.insert("type".into(), kind.into());
    if let Some(name) = name {
        fields.insert("name".into(), name.into());
    }
    serde_json::from_value(Value::Object(fields))
        .map(Some)
        .map_err(fail)
}

/// The canonical result MCP gives back for `result` rendered without a
/// structured value, by the rules in the `provider::mcp` module docs.
fn result_after_mcp(result: &ToolResult) -> Result<ToolResult, TestCaseError> {
    let mut parts = Vec::new();
    for part in &result.parts {
        parts.extend(part_after_mcp(part)?);
    }
    let lead =
        (!result.output.is_empty() || result.parts.is_empty()).then_some(result.output.as_str());
    let texts: Vec<&str> = lead
        .into_iter()
        .chain(result.parts.iter().filter_map(ContentPart::as_text))
        .collect();
    let describe = || {
        parts
            .iter()
            .map(ContentPart::describe)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let output = if result.is_error {
        let shown: Vec<&str> = texts
            .iter()
            .copied()
            .filter(|t| !t.trim().is_empty())
            .collect();
        if !shown.is_empty() {
            shown.join("\n\n")
        } else if !parts.is_empty() {
            describe()
        } else {
            "MCP tool returned an error".to_owned()
        }
    } else {
        let joined = texts.join("\n");
        if joined.is_empty() && !parts.is_empty() {
            describe()
        } else {
            joined
        }
    };
    Ok(ToolResult {
        output,
        is_error: result.is_error,
        parts,
        metadata: None,
    })
}

/// Renders to MCP JSON and reads it back.
fn mcp_trip(
    result: &ToolResult,
    structured: Option<&RawValue>,
) -> Result<ToolResult, TestCaseError> {
    let json = serde_json::to_value(
        Mcp::render(&WithStructured(result, structured), PartPolicy::Strict).unwrap(),
    )
    .map_err(fail)?;
    Mcp::read_result(json.to_string(), PartLimit::default())
        .map_err(|e| fail(format!("{e} reading {json}")))
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_style_renders_any_result(result in tool_result()) {
        let call = CallRef::new("call_1", "lookup");
        // One call's messages: its tool message, then any user message.
        let one_call = [(call, &result)];
        let messages = OpenAiChat::reply(&one_call, PartPolicy::Placeholder).map_err(fail)?;
        let messages = serde_json::to_value(&messages).map_err(fail)?;
        let count = messages.as_array().map(Vec::len);
        prop_assert!(count == Some(1) || count == Some(2), "{messages}");
        for policy in [PartPolicy::Placeholder, PartPolicy::Strict] {
            let turn = [(call, &result), (CallRef::new("call_2", "again"), &result)];
            check_rendering(&result, policy, OpenAiChat::reply(&turn, policy))?;
            check_rendering(&result, policy, OpenAiResponses::render(&(call, &result), policy))?;
            check_rendering(&result, policy, Anthropic::render(&(call, &result), policy))?;
            check_rendering(&result, policy, Gemini::render(&(call, &result), policy))?;
        }
    }

    #[test]
    fn mcp_keeps_what_its_docs_say(result in tool_result()) {
        let back = mcp_trip(&result, None)?;
        prop_assert_eq!(&back, &result_after_mcp(&result)?);
        let again = mcp_trip(&back, None)?;
        prop_assert_eq!(&again, &back, "a second trip through MCP changed the result");
    }

    /// Any structured value beside any result: a success reads back as a
    /// text block holding the same JSON, or failing that the JSON of
    /// `structuredContent`. (A `null` structured value is no structured
    /// value: MCP reads a `"structuredContent": null` as absent.)
    #[test]
    fn mcp_with_a_structured_value_reads_its_json(
        result in tool_result(),
        value in json_value().prop_filter("null is no structuredContent", |v| !v.is_null()),
    ) {
        let raw = RawValue::from_string(value.to_string()).map_err(fail)?;
        let back = mcp_trip(&result, Some(&raw))?;
        prop_assert_eq!(back.is_error, result.is_error);
        prop_assert_eq!(back.parts, result_after_mcp(&result)?.parts);
        if !result.is_error {
            let read: Value = serde_json::from_str(&back.output).map_err(fail)?;
            prop_assert_eq!(read, value);
        }
    }

    /// A typed success that is a JSON object, lowered and rendered with its
    /// `structuredContent`: reading the MCP answer back gives `output` byte
    /// for byte (its key order, nothing escaped again), the parts as
    /// without a structured value, and a second trip changes nothing.
    #[test]
    fn mcp_round_trip_of_a_structured_success_keeps_output_byte_for_byte(
        object in json_map(),
        parts in prop::collection::vec(part(), 0..3),
    ) {
        let lowered = toolresult::ToolResult::<_>::ok(object)
            .with_parts(parts)
            .lower();
        let structured = lowered.structured_content();
        prop_assert!(structured.is_some(), "an object success has structuredContent");
        let output = &lowered.result.output;
        prop_assert_eq!(structured.map(RawValue::get), Some(output.as_str()));
        let back = mcp_trip(&lowered.result, structured)?;
        prop_assert_eq!(&back.output, output);
        prop_assert!(!back.is_error);
        prop_assert_eq!(&back.parts, &result_after_mcp(&lowered.result)?.parts);
        prop_assert_eq!(&back.metadata, &None);
        let again = mcp_trip(&back, structured)?;
        prop_assert_eq!(&again, &back, "a second trip through MCP changed the result");
    }
}

/// An image or audio part's name is what MCP has nowhere to keep; an
/// inline file's name rides in its `file:///` uri, percent-encoded, and
/// reads back as its last `/` segment (never a path); a missing one reads
/// back as `attachment`.
#[test]
fn mcp_drops_the_names_it_has_no_field_for() {
    let png = ContentPart::from_path(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/fixture.png"),
        PartLimit::default(),
    )
    .unwrap()
    .with_name("shot.png");
    let pdf = ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf")
        .unwrap()
        .with_name("reports/q3.pdf");
    let unnamed = ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf").unwrap();
    let result = ToolResult::ok("three").with_parts([png, pdf, unnamed]);
    let json = serde_json::to_value(
        Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    assert_eq!(
        json["content"][2]["resource"]["uri"],
        json!("file:///reports%2Fq3.pdf")
    );
    assert_eq!(
        json["content"][3]["resource"]["uri"],
        json!("file:///attachment")
    );
    let back = Mcp::read_result(json.to_string(), PartLimit::default()).unwrap();
    assert_eq!(back.parts[0].name(), None);
    assert_eq!(back.parts[1].name(), Some("q3.pdf"));
    assert_eq!(back.parts[2].name(), Some("attachment"));
}

/// A result with the structured content the test chooses, as MCP renders it.
struct WithStructured<'a>(&'a ToolResult, Option<&'a RawValue>);

impl Answered for WithStructured<'_> {
    fn call(&self) -> CallRef<'_> {
        CallRef::new("1", "tool")
    }

    fn result(&self) -> &ToolResult {
        self.0
    }

    fn structured_content(&self) -> Option<&RawValue> {
        self.1
    }
}
