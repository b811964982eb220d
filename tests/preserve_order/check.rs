//! With serde_json's `preserve_order` on, the MCP answer of a structured
//! success is still `output` byte for byte, and reads back to it.

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use toolresult::provider::{CallRef, Mcp, PartPolicy, Provider};
    use toolresult::{IntoToolResult, ToolResult};

    #[derive(Serialize)]
    struct Report {
        zone: &'static str,
        city: &'static str,
        celsius: f64,
    }

    const OUTPUT: &str = r#"{"zone":"Europe/Oslo","city":"Tromsø & Bodø <north>","celsius":-3.5}"#;

    #[test]
    fn preserve_order_is_on() {
        // Without the feature a map's keys come out sorted.
        let map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"b":1,"a":2}"#).unwrap();
        assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"b":1,"a":2}"#);
    }

    #[test]
    fn mcp_text_block_and_round_trip_keep_output() {
        let lowered = ToolResult::<_>::ok(Report {
            zone: "Europe/Oslo",
            city: "Tromsø & Bodø <north>",
            celsius: -3.5,
        })
        .lower();
        assert_eq!(lowered.result.output, OUTPUT);
        let call = (CallRef::new("call_1", "report"), &lowered);
        let answer = Mcp::render(&call, PartPolicy::Strict).unwrap();
        let text = serde_json::to_string(&answer).unwrap();
        let expected = format!(
            r#"{{"content":[{{"type":"text","text":{}}}],"structuredContent":{OUTPUT},"isError":false}}"#,
            serde_json::to_string(OUTPUT).unwrap()
        );
        assert_eq!(text, expected);
        let back = Mcp::read_result(&text, toolresult::canonical::PartLimit::default()).unwrap();
        assert_eq!(back.output, OUTPUT);
    }
}
