//! The built-in `read_artifact` tool and the artifact stores behind it:
//! slices on character boundaries that rebuild an artifact byte for byte,
//! error results the model can act on, ids that cannot reach outside a
//! file store's directory, and store failures whose text stays with Rust.

#[path = "../../tests/support/mod.rs"]
mod support;
use support::{call, call_text};

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value, json};
use toolresult::Tool;
use toolresult::budget::{
    Artifact, ArtifactError, ArtifactId, ArtifactStore, FileStore, MemoryStore,
};
use toolresult::canonical::PartKind;
use toolresult::tool::ArtifactReader;
use toolresult::tool::ToolSafety;

const fn assert_send_sync<T: Send + Sync>() {}

const _: () = {
    assert_send_sync::<Artifact>();
    assert_send_sync::<ArtifactId>();
    assert_send_sync::<ArtifactError>();
    assert_send_sync::<ArtifactReader>();
    assert_send_sync::<MemoryStore>();
    assert_send_sync::<FileStore>();
    assert_send_sync::<std::sync::Arc<dyn ArtifactStore>>();
};

/// A string of 1-, 2-, 3- and 4-byte characters, each width next to every other.
const MIXED: &str =
    "a\u{e9}\u{65e5}\u{1f389}b\u{1f389}\u{65e5}\u{e9}c\u{65e5}\u{1f389}\u{e9}\u{1f389}";

fn reader_of(store: Arc<dyn ArtifactStore>) -> ArtifactReader {
    ArtifactReader::new(store).unwrap()
}

/// The JSON of a successful read.
fn read_ok(reader: &ArtifactReader, args: Value) -> Value {
    let lowered = call(reader, args);
    assert!(!lowered.result.is_error, "{}", lowered.result.output);
    serde_json::from_str(&lowered.result.output).unwrap()
}

/// Reads `id` from offset 0 in slices of `length`, following `next`;
/// checks each slice on the way and returns the text put back together.
fn read_all(
    reader: &ArtifactReader,
    id: &ArtifactId,
    length: usize,
) -> Result<String, TestCaseError> {
    let mut rebuilt = String::new();
    let mut offset = 0_u64;
    loop {
        let slice = read_ok(
            reader,
            json!({"artifact": id.url(), "offset": offset, "length": length}),
        );
        let text = slice["text"].as_str().unwrap();
        prop_assert_eq!(slice["offset"].as_u64(), Some(offset));
        let first = text.chars().next().map_or(0, char::len_utf8);
        prop_assert!(
            text.len() <= length.max(first),
            "{} bytes for length {}",
            text.len(),
            length
        );
        rebuilt.push_str(text);
        match slice["next"].as_u64() {
            Some(next) => {
                prop_assert!(!text.is_empty());
                prop_assert_eq!(next, offset + text.len() as u64);
                offset = next;
            }
            None => {
                prop_assert!(slice["next"].is_null());
                prop_assert_eq!(slice["total"].as_u64(), Some(rebuilt.len() as u64));
                return Ok(rebuilt);
            }
        }
    }
}

#[test]
fn slices_of_every_length_rebuild_mixed_widths() {
    let store = Arc::new(MemoryStore::new());
    let id = store.put(Artifact::new(MIXED, "text/plain")).unwrap();
    let reader = reader_of(store);
    for length in 1..=8 {
        assert_eq!(
            read_all(&reader, &id, length).unwrap().as_bytes(),
            MIXED.as_bytes()
        );
    }
}

proptest! {
    #[test]
    fn slices_rebuild_any_text(text in any::<String>(), length in prop_oneof![1_usize..=8, 1_usize..=64, Just(ArtifactReader::MAX_LENGTH)]) {
        let store = Arc::new(MemoryStore::new());
        let id = store.put(Artifact::new(text.clone(), "text/plain; charset=utf-8")).unwrap();
        let reader = reader_of(store);
        let rebuilt = read_all(&reader, &id, length)?;
        prop_assert_eq!(rebuilt.as_bytes(), text.as_bytes());
    }

    #[test]
    fn any_offset_starts_at_its_character(text in "[a\u{e9}\u{65e5}\u{1f389}]{0,12}", offset in 0_usize..60, length in 0_usize..10) {
        let store = Arc::new(MemoryStore::new());
        let id = store.put(Artifact::new(text.clone(), "text/plain")).unwrap();
        let reader = reader_of(store);
        let lowered = call(&reader, json!({"artifact": id.as_str(), "offset": offset, "length": length}));
        if offset > text.len() {
            prop_assert!(lowered.result.is_error);
            let expected = format!("({} bytes)", text.len());
            prop_assert!(lowered.result.output.contains(&expected), "{}", lowered.result.output);
        } else {
            let slice: Value = serde_json::from_str(&lowered.result.output).unwrap();
            let start = usize::try_from(slice["offset"].as_u64().unwrap()).unwrap();
            prop_assert!(text.is_char_boundary(start));
            prop_assert!(start <= offset && offset - start < 4);
            // The slice is where it says it is.
            let piece = slice["text"].as_str().unwrap();
            prop_assert_eq!(text.get(start..start + piece.len()), Some(piece));
            prop_assert_eq!(piece.is_empty(), start == text.len());
        }
    }
}

#[test]
fn an_offset_inside_a_character_starts_at_it() {
    let store = Arc::new(MemoryStore::new());
    // "🎉" is bytes 0..4, "日" 4..7, "é" 7..9.
    let id = store.put(Artifact::new("🎉日é", "text/plain")).unwrap();
    let reader = reader_of(store);
    for (offset, start, text) in [
        (1, 0, "🎉"),
        (3, 0, "🎉"),
        (5, 4, "日"),
        (6, 4, "日"),
        (8, 7, "é"),
    ] {
        let slice = read_ok(
            &reader,
            json!({"artifact": id.as_str(), "offset": offset, "length": 3}),
        );
        assert_eq!(slice["offset"], start, "offset {offset}");
        assert_eq!(slice["text"], text, "offset {offset}");
    }
    // A length shorter than the character still reads the whole character.
    let slice = read_ok(&reader, json!({"artifact": id.as_str(), "length": 1}));
    assert_eq!(
        slice,
        json!({"text": "🎉", "offset": 0, "next": 4, "total": 9})
    );
    let slice = read_ok(&reader, json!({"artifact": id.as_str(), "length": 0}));
    assert_eq!(
        slice,
        json!({"text": "🎉", "offset": 0, "next": 4, "total": 9})
    );
    // A slice that would end inside a character ends before it.
    let slice = read_ok(&reader, json!({"artifact": id.as_str(), "length": 6}));
    assert_eq!(
        slice,
        json!({"text": "🎉", "offset": 0, "next": 4, "total": 9})
    );
}

#[test]
fn the_end_reads_empty_and_past_it_is_an_error_naming_the_total() {
    let store = Arc::new(MemoryStore::new());
    let id = store
        .put(Artifact::new("0123456789", "text/plain"))
        .unwrap();
    let empty = store.put(Artifact::new("", "text/plain")).unwrap();
    let reader = reader_of(store);

    let at_end = read_ok(&reader, json!({"artifact": id.as_str(), "offset": 10}));
    assert_eq!(
        at_end,
        json!({"text": "", "offset": 10, "next": null, "total": 10})
    );
    let nothing = read_ok(&reader, json!({"artifact": empty.as_str()}));
    assert_eq!(
        nothing,
        json!({"text": "", "offset": 0, "next": null, "total": 0})
    );

    let past = call(&reader, json!({"artifact": id.as_str(), "offset": 11}));
    assert!(past.result.is_error);
    assert_eq!(
        past.result.output,
        format!(
            r#"{{"error":{{"message":"offset 11 is past the end of artifact `{id}` (10 bytes)","suggestion":"read from an offset below 10"}}}}"#
        )
    );
    assert_eq!(past.diagnostics.is_transient(), Some(false));
    let far = call(
        &reader,
        json!({"artifact": id.as_str(), "offset": u64::MAX}),
    );
    assert!(
        far.result
            .output
            .contains(&format!("offset {} is past the end", u64::MAX))
    );
}

#[test]
fn length_defaults_to_and_stops_at_the_maximum() {
    let text = "x".repeat(ArtifactReader::MAX_LENGTH * 2 + 5);
    let store = Arc::new(MemoryStore::new());
    let id = store.put(Artifact::new(text, "application/json")).unwrap();
    let reader = reader_of(store);
    let max = ArtifactReader::MAX_LENGTH;
    for args in [
        json!({"artifact": id.as_str()}),
        json!({"artifact": id.as_str(), "length": max}),
        json!({"artifact": id.as_str(), "length": max + 1}),
        json!({"artifact": id.as_str(), "length": u64::MAX}),
    ] {
        let slice = read_ok(&reader, args);
        assert_eq!(slice["text"].as_str().unwrap().len(), max);
        assert_eq!(slice["next"], max);
    }
    let last = read_ok(&reader, json!({"artifact": id.as_str(), "offset": 2 * max}));
    assert_eq!(last["text"], "xxxxx");
    assert_eq!(last["next"], Value::Null);
}

#[test]
fn an_unknown_id_is_an_error_the_model_can_act_on() {
    let reader = reader_of(Arc::new(MemoryStore::new()));
    let lowered = call(&reader, json!({"artifact": "artifact://art_0000"}));
    assert!(lowered.result.is_error);
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"no artifact `art_0000` is kept","suggestion":"pass the artifact's id or artifact:// URL exactly as the result gave it"}}"#
    );
    assert_eq!(lowered.diagnostics.is_transient(), Some(false));
}

#[test]
fn ids_that_are_not_url_safe_are_refused() {
    for (text, problem) in [
        ("../etc/passwd", "it holds `.` at byte 0"),
        ("artifact://../x", "it holds `.` at byte 11"),
        ("art_1/../../x", "it holds `/` at byte 5"),
        ("art%2F..", "it holds `%` at byte 3"),
        ("art_\u{0}", "it holds `\\0` at byte 4"),
        ("C:\\x", "it holds `:` at byte 1"),
        ("artifact://", "it is empty"),
        ("", "it is empty"),
    ] {
        let err = ArtifactId::from_url_or_id(text).unwrap_err();
        assert!(matches!(
            err,
            ArtifactError::IdCharacter { .. }
                | ArtifactError::EmptyId { .. }
                | ArtifactError::IdTooLong { .. }
        ));
        assert!(err.to_string().contains(problem), "{text:?}: {err}");
    }
    let long = "a".repeat(200);
    assert_eq!(
        ArtifactId::from_url_or_id(&long).unwrap_err().to_string(),
        format!(
            "invalid artifact id `{}…`: it is 200 bytes long; an id has at most 128",
            "a".repeat(64)
        )
    );
    assert!(ArtifactId::from_url_or_id(&"a".repeat(128)).is_ok());
    assert!(ArtifactId::from_url_or_id("Az09_-").is_ok());
}

#[test]
fn a_file_store_cannot_be_led_outside_its_directory() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("artifacts");
    let store = Arc::new(FileStore::new(&dir).unwrap());
    // Files a path traversal, or an id of another shape, would reach.
    std::fs::write(root.path().join("x"), "outside").unwrap();
    std::fs::write(root.path().join("x.json"), r#"{"mimeType":"text/plain"}"#).unwrap();
    std::fs::write(dir.join("notes"), "planted").unwrap();
    std::fs::write(dir.join("notes.json"), r#"{"mimeType":"text/plain"}"#).unwrap();
    let reader = reader_of(store.clone());

    for artifact in [
        "../x",
        "artifact://../x",
        "../etc/passwd",
        "artifact://..%2Fx",
    ] {
        let lowered = call(&reader, json!({"artifact": artifact}));
        assert!(lowered.result.is_error);
        assert!(
            lowered.result.output.contains("invalid artifact id"),
            "{}",
            lowered.result.output
        );
        assert!(!lowered.result.output.contains("outside"));
    }
    // A well-formed id the store did not make is unknown, whatever is on disk.
    let planted = ArtifactId::from_url_or_id("notes").unwrap();
    assert!(store.get(&planted).unwrap().is_none());
    let lowered = call(&reader, json!({"artifact": "notes"}));
    assert!(
        lowered
            .result
            .output
            .contains("no artifact `notes` is kept")
    );
}

#[test]
fn a_file_store_round_trips_text_and_binary() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("nested").join("artifacts");
    let store = FileStore::new(&dir).unwrap();

    let text = store
        .put(Artifact::new(MIXED, "text/plain").with_name("mixed.txt"))
        .unwrap();
    let png = store
        .put(Artifact::new(
            vec![0x89, b'P', b'N', b'G', 0, 1],
            "image/png",
        ))
        .unwrap();
    assert_ne!(text, png);

    let back = store.get(&text).unwrap().unwrap();
    assert_eq!(
        back,
        Artifact::new(MIXED, "text/plain").with_name("mixed.txt")
    );
    let back = store.get(&png).unwrap().unwrap();
    assert_eq!(
        back,
        Artifact::new(vec![0x89, b'P', b'N', b'G', 0, 1], "image/png")
    );
    assert!(store.get(&ArtifactId::random()).unwrap().is_none());

    // The data, its sidecar, and no temporary file left behind.
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let mut expected = vec![
        text.to_string(),
        format!("{text}.json"),
        png.to_string(),
        format!("{png}.json"),
    ];
    expected.sort();
    assert_eq!(files, expected);
    assert_eq!(
        std::fs::read_to_string(dir.join(format!("{text}.json"))).unwrap(),
        r#"{"mimeType":"text/plain","name":"mixed.txt"}"#
    );

    // A second store on the same directory reads what the first kept.
    let again = reader_of(Arc::new(FileStore::new(&dir).unwrap()));
    assert_eq!(read_all(&again, &text, 5).unwrap(), MIXED);
}

#[test]
fn a_file_store_with_a_corrupt_sidecar_fails_as_a_store() {
    let root = tempfile::tempdir().unwrap();
    let store = FileStore::new(root.path()).unwrap();
    let id = store.put(Artifact::new("kept", "text/plain")).unwrap();
    std::fs::write(root.path().join(format!("{id}.json")), "not json").unwrap();
    let err = store.get(&id).unwrap_err();
    assert!(matches!(err, ArtifactError::Metadata { .. }));
    assert!(
        err.to_string().starts_with("the artifact metadata `"),
        "{err}"
    );
}

#[test]
fn a_file_store_keeps_and_reads_no_more_than_its_bound() {
    let root = tempfile::tempdir().unwrap();
    let store = Arc::new(FileStore::new(root.path()).unwrap().max_bytes(8));
    // At the bound it is kept; past it, refused before anything is written.
    let id = store.put(Artifact::new("12345678", "text/plain")).unwrap();
    assert_eq!(store.get(&id).unwrap().unwrap().bytes, "12345678");
    let err = store
        .put(Artifact::new("123456789", "text/plain"))
        .unwrap_err();
    assert!(
        matches!(
            err,
            ArtifactError::TooLarge {
                bytes: 9,
                limit: 8,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 2);

    // A file grown past the bound on disk is refused when read back, by
    // the store and by the reader, never to be asked again.
    std::fs::write(root.path().join(id.as_str()), "123456789").unwrap();
    let err = store.get(&id).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the artifact file `{}` is 9 bytes, over the store's limit of 8 bytes",
            root.path().join(id.as_str()).display()
        )
    );
    let lowered = call(&reader_of(store), json!({"artifact": id.as_str()}));
    assert!(lowered.result.is_error);
    assert!(!lowered.result.output.contains("123456789"));
    assert_eq!(lowered.diagnostics.is_transient(), Some(false));
}

#[test]
fn a_binary_artifact_comes_back_whole_as_a_part() {
    let store = Arc::new(MemoryStore::new());
    let png = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/fixture.png"
    ))
    .unwrap();
    let id = store
        .put(Artifact::new(png.clone(), "image/png").with_name("chart.png"))
        .unwrap();
    // Text mime, bytes that are not UTF-8: not sliceable, so a part too.
    let latin1 = store
        .put(Artifact::new(vec![b'c', b'a', b'f', 0xe9], "text/plain"))
        .unwrap();
    let reader = reader_of(store);

    let lowered = call(
        &reader,
        json!({"artifact": id.url(), "offset": 10, "length": 3}),
    );
    assert!(!lowered.result.is_error);
    assert_eq!(lowered.result.output, "image (image/png, 82 bytes)");
    let [part] = lowered.result.parts.as_slice() else {
        panic!("one part")
    };
    assert_eq!(part.kind(), PartKind::Image);
    assert_eq!(part.data(), Some(png.as_slice()));
    assert_eq!(part.name(), Some("chart.png"));
    assert!(lowered.structured_content().is_none());

    let lowered = call(&reader, json!({"artifact": latin1.as_str()}));
    assert_eq!(lowered.result.output, "file (text/plain, 4 bytes)");
    assert_eq!(lowered.result.parts.len(), 1);
}

/// A store whose disk fails, with a secret in the error's text.
#[derive(Debug)]
struct FailingStore;

impl ArtifactStore for FailingStore {
    fn put(&self, _: Artifact) -> Result<ArtifactId, ArtifactError> {
        Ok(ArtifactId::random())
    }

    fn get(&self, _: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        Err(ArtifactError::Io {
            action: "read",
            path: "/srv/secret-tenant/art_1".into(),
            source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, "token=hunter2"),
        })
    }
}

#[test]
fn a_failing_store_is_an_unexpected_error_without_its_text() {
    let reader = reader_of(Arc::new(FailingStore));
    let lowered = call(&reader, json!({"artifact": "art_1"}));
    assert!(lowered.result.is_error);
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"the tool failed with an unexpected error (ArtifactError, kind PermissionDenied)"}}"#
    );
    let source = lowered.diagnostics.source().unwrap();
    let err = source.downcast_ref::<ArtifactError>().unwrap();
    assert!(err.to_string().contains("/srv/secret-tenant/art_1"));
    assert_eq!(lowered.diagnostics.is_transient(), None);
}

#[test]
fn the_tool_is_read_only_with_a_schema_the_model_can_follow() {
    let reader = reader_of(Arc::new(MemoryStore::new()));
    assert_eq!(reader.name(), "read_artifact");
    assert_eq!(reader.safety(), ToolSafety::ReadOnly);
    assert!(reader.description().contains("artifact://"));
    let schema = serde_json::to_value(reader.input_schema()).unwrap();
    assert_eq!(schema["required"], json!(["artifact"]));
    assert_eq!(schema["properties"]["offset"]["minimum"], 0);
    assert_eq!(schema["properties"]["length"]["minimum"], 0);
    assert_eq!(schema["properties"]["offset"]["default"], 0);
    assert_eq!(
        schema["properties"]["length"]["default"],
        ArtifactReader::MAX_LENGTH
    );
    assert_eq!(schema["properties"]["length"]["type"], "integer");
    // Arguments as text, as OpenAI sends them, read the same; bad ones are
    // the usual argument error.
    let store = Arc::new(MemoryStore::new());
    let id = store.put(Artifact::new("abc", "text/plain")).unwrap();
    let reader = reader_of(store);
    let lowered = call_text(&reader, &format!(r#"{{"artifact":"{id}","length":2}}"#));
    assert_eq!(
        lowered.result.output,
        r#"{"text":"ab","offset":0,"next":2,"total":3}"#
    );
    let lowered = call(&reader, json!({"artifact": id.as_str(), "offset": -1}));
    assert!(lowered.result.is_error);
    assert!(
        lowered
            .result
            .output
            .contains("invalid arguments at `offset`"),
        "{}",
        lowered.result.output
    );
}
