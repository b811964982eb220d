//! A catalogue of bad input for the canonical model, each with the exact
//! message it must give. Serde errors carry serde_json's position
//! (` at line 1 column N`); constructor errors name the offending value.

use std::io::{self, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use toolresult::canonical::{Answer, ContentPart, PartError, PartLimit, Request, ToolResult};

const PNG: &str = "tests/fixtures/fixture.png";

/// The error `T` gives for `json`, or a note that it parsed.
fn parse_err<T: serde::de::DeserializeOwned + std::fmt::Debug>(json: &str) -> String {
    match serde_json::from_str::<T>(json) {
        Ok(value) => format!("parsed as {value:?}"),
        Err(err) => err.to_string(),
    }
}

fn result_err(json: &str) -> String {
    parse_err::<ToolResult>(json)
}

fn part_err(json: &str) -> String {
    parse_err::<ContentPart>(json)
}

fn request_err(json: &str) -> String {
    parse_err::<Request>(json)
}

fn answer_err(json: &str) -> String {
    parse_err::<Answer>(json)
}

/// Asserts each `(json, message)` pair: `parse(json)` fails with `message`.
#[track_caller]
fn catalogue(parse: fn(&str) -> String, cases: &[(&str, &str)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(json, expected)| {
            let got = parse(json);
            (got != *expected).then(|| format!("for {json}\n  got:  {got}\n  want: {expected}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---------------------------------------------------------------------------
// malformed JSON
// ---------------------------------------------------------------------------

#[test]
fn truncated_json() {
    catalogue(
        result_err,
        &[
            ("", "EOF while parsing a value at line 1 column 0"),
            ("{", "EOF while parsing an object at line 1 column 1"),
            (
                r#"{"output"#,
                "EOF while parsing a string at line 1 column 8",
            ),
            (
                r#"{"output""#,
                "EOF while parsing an object at line 1 column 9",
            ),
            (
                r#"{"output":"#,
                "EOF while parsing a value at line 1 column 10",
            ),
            (
                r#"{"output":"eu-west"#,
                "EOF while parsing a string at line 1 column 18",
            ),
            (
                r#"{"output":"x","isError":fal"#,
                "EOF while parsing a value at line 1 column 27",
            ),
            (
                r#"{"output":"x","isError":false"#,
                "EOF while parsing an object at line 1 column 29",
            ),
            (
                r#"{"output":"x","parts":[{"type":"text""#,
                "EOF while parsing an object at line 1 column 37",
            ),
            (
                r#"{"output":"x","parts":[{"type":"text"}"#,
                "EOF while parsing a list at line 1 column 38",
            ),
            (
                r#"{"output":"x","isError":false} trailing"#,
                "trailing characters at line 1 column 32",
            ),
        ],
    );
    catalogue(
        part_err,
        &[
            (
                r#"{"type":"image","mimeType":"image/png","data":"AAAA"#,
                "EOF while parsing a string at line 1 column 51",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","data":"AAAA""#,
                "EOF while parsing an object at line 1 column 52",
            ),
        ],
    );
}

// ---------------------------------------------------------------------------
// wrong types, key by key
// ---------------------------------------------------------------------------

#[test]
fn wrong_types_in_a_result() {
    catalogue(
        result_err,
        &[
            (
                "[]",
                "invalid type: sequence, expected a tool result object at line 1 column 0",
            ),
            (
                r#"["done",true]"#,
                "invalid type: sequence, expected a tool result object at line 1 column 0",
            ),
            (
                r#""x""#,
                r#"invalid type: string "x", expected a tool result object at line 1 column 3"#,
            ),
            (
                "null",
                "invalid type: null, expected a tool result object at line 1 column 4",
            ),
            (
                r#"{"output":1}"#,
                "invalid type: integer `1`, expected a string at line 1 column 11",
            ),
            (
                r#"{"output":["x"]}"#,
                "invalid type: sequence, expected a string at line 1 column 10",
            ),
            (
                r#"{"output":"x","isError":"no"}"#,
                r#"invalid type: string "no", expected a boolean at line 1 column 28"#,
            ),
            (
                r#"{"output":"x","isError":1}"#,
                "invalid type: integer `1`, expected a boolean at line 1 column 25",
            ),
            (
                r#"{"output":"x","isError":null}"#,
                "invalid type: null, expected a boolean at line 1 column 28",
            ),
            (
                r#"{"output":"x","parts":{}}"#,
                "invalid type: map, expected a sequence at line 1 column 22",
            ),
            (
                r#"{"output":"x","parts":"none"}"#,
                r#"invalid type: string "none", expected a sequence at line 1 column 28"#,
            ),
            (
                r#"{"output":"x","parts":[1]}"#,
                "invalid type: integer `1`, expected a content part object at line 1 column 24",
            ),
            (
                r#"{"output":"x","metadata":[]}"#,
                "invalid type: sequence, expected a map at line 1 column 25",
            ),
            (
                r#"{"output":"x","metadata":"m"}"#,
                r#"invalid type: string "m", expected a map at line 1 column 28"#,
            ),
        ],
    );
}

#[test]
fn wrong_types_in_a_part() {
    catalogue(
        part_err,
        &[
            (
                "[]",
                "invalid type: sequence, expected a content part object at line 1 column 0",
            ),
            (
                "null",
                "invalid type: null, expected a content part object at line 1 column 4",
            ),
            (
                r#"{"type":1}"#,
                "invalid type: integer `1`, expected a string at line 1 column 9",
            ),
            (
                r#"{"type":null}"#,
                "invalid type: null, expected a string at line 1 column 12",
            ),
            (
                r#"{"type":"text","text":1}"#,
                "invalid type: integer `1`, expected a string at line 1 column 23",
            ),
            (
                r#"{"type":"image","mimeType":true,"data":"AAAA"}"#,
                "invalid type: boolean `true`, expected a string at line 1 column 31",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","data":4}"#,
                "invalid type: integer `4`, expected a standard padded base64 string at line 1 column 47",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","data":[65]}"#,
                "invalid type: sequence, expected a standard padded base64 string at line 1 column 46",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","url":{}}"#,
                "invalid type: map, expected a string at line 1 column 45",
            ),
            (
                r#"{"type":"file","mimeType":"application/pdf","data":"AAAA","name":7}"#,
                "invalid type: integer `7`, expected a string at line 1 column 66",
            ),
            (
                r#"{"text":"hi"}"#,
                "missing field `type` at line 1 column 13",
            ),
        ],
    );
}

#[test]
fn wrong_types_in_a_request() {
    catalogue(
        request_err,
        &[
            (
                "[]",
                "invalid type: sequence, expected a request object at line 1 column 0",
            ),
            (
                r#"["req-1","input","Which environment?"]"#,
                "invalid type: sequence, expected a request object at line 1 column 0",
            ),
            (
                r#"{"id":1}"#,
                "invalid type: integer `1`, expected a string at line 1 column 7",
            ),
            (
                r#"{"kind":false}"#,
                "invalid type: boolean `false`, expected a string at line 1 column 13",
            ),
            (
                r#"{"prompt":{}}"#,
                "invalid type: map, expected a string at line 1 column 10",
            ),
            (
                r#"{"url":2}"#,
                "invalid type: integer `2`, expected a string at line 1 column 8",
            ),
            (
                r#"{"data":"x"}"#,
                r#"invalid type: string "x", expected a map at line 1 column 11"#,
            ),
            (
                r#"{"data":[1]}"#,
                "invalid type: sequence, expected a map at line 1 column 8",
            ),
            (
                r#"{"expiresAt":1700000000}"#,
                "invalid type: integer `1700000000`, expected a string at line 1 column 23",
            ),
        ],
    );
    // A suspension whose request has a wrong type is no suspension.
    let res: ToolResult =
        serde_json::from_str(r#"{"output":"x","isError":true,"metadata":{"pending":{"id":1}}}"#)
            .unwrap();
    assert_eq!(res.pending_request(), None);
}

#[test]
fn wrong_types_in_an_answer() {
    catalogue(
        answer_err,
        &[
            (
                "[]",
                "invalid type: sequence, expected an answer object at line 1 column 0",
            ),
            (
                r#"["req-1",true]"#,
                "invalid type: sequence, expected an answer object at line 1 column 0",
            ),
            (
                r#"{"id":1}"#,
                "invalid type: integer `1`, expected a string at line 1 column 7",
            ),
            (
                r#"{"id":"a","ok":"yes"}"#,
                r#"invalid type: string "yes", expected a boolean at line 1 column 20"#,
            ),
            (
                r#"{"id":"a","ok":null}"#,
                "invalid type: null, expected a boolean at line 1 column 19",
            ),
            (
                r#"{"id":"a","ok":true,"data":[]}"#,
                "invalid type: sequence, expected a map at line 1 column 27",
            ),
            (
                r#"{"id":"a","ok":false,"reason":5}"#,
                "invalid type: integer `5`, expected a string at line 1 column 31",
            ),
        ],
    );
}

#[test]
fn duplicate_keys() {
    catalogue(
        result_err,
        &[
            (
                r#"{"output":"a","output":"b"}"#,
                "duplicate field `output` at line 1 column 22",
            ),
            (
                r#"{"output":"a","isError":true,"isError":false}"#,
                "duplicate field `isError` at line 1 column 38",
            ),
            (
                r#"{"output":"a","parts":[],"parts":[]}"#,
                "duplicate field `parts` at line 1 column 32",
            ),
            (
                r#"{"output":"a","metadata":{},"metadata":{}}"#,
                "duplicate field `metadata` at line 1 column 38",
            ),
        ],
    );
    catalogue(
        part_err,
        &[
            (
                r#"{"type":"text","type":"image"}"#,
                "duplicate field `type` at line 1 column 30",
            ),
            (
                r#"{"type":"text","text":"a","text":"b"}"#,
                "duplicate field `text` at line 1 column 37",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","mimeType":"image/gif","data":"AAAA"}"#,
                "duplicate field `mimeType` at line 1 column 61",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","data":"AAAA","data":"AAAA"}"#,
                "duplicate field `data` at line 1 column 67",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","url":"https://a.example","url":"https://b.example"}"#,
                "duplicate field `url` at line 1 column 91",
            ),
            (
                r#"{"type":"file","mimeType":"application/pdf","data":"AAAA","name":"a","name":"b"}"#,
                "duplicate field `name` at line 1 column 80",
            ),
        ],
    );
    catalogue(
        request_err,
        &[(
            r#"{"id":"a","id":"b"}"#,
            "duplicate field `id` at line 1 column 14",
        )],
    );
    catalogue(
        answer_err,
        &[(
            r#"{"id":"a","ok":true,"ok":false}"#,
            "duplicate field `ok` at line 1 column 24",
        )],
    );
}

// ---------------------------------------------------------------------------
// parts that break the contract, on the wire
// ---------------------------------------------------------------------------

#[test]
fn parts_that_break_the_contract() {
    catalogue(
        part_err,
        &[
            (
                r#"{"type":"image","mimeType":"image/png","data":"AAAA","url":"https://example.com/a.png"}"#,
                "an image part has both `data` and `url`; it must have exactly one at line 1 column 87",
            ),
            (
                r#"{"type":"audio","mimeType":"audio/wav"}"#,
                "an audio part has neither `data` nor `url`; it must have exactly one at line 1 column 39",
            ),
            (
                r#"{"type":"file","mimeType":"application/pdf","data":null,"url":null}"#,
                "a file part has neither `data` nor `url`; it must have exactly one at line 1 column 67",
            ),
            (
                r#"{"type":"image","data":"AAAA"}"#,
                "an image part needs a mime type at line 1 column 30",
            ),
            (
                r#"{"type":"file","mimeType":"","data":"AAAA"}"#,
                "a file part needs a mime type at line 1 column 43",
            ),
            (
                r#"{"type":"image","mimeType":"png","data":"AAAA"}"#,
                "invalid mime type `png`: expected `type/subtype` at line 1 column 47",
            ),
            (
                r#"{"type":"image","mimeType":"image/","data":"AAAA"}"#,
                "invalid mime type `image/`: expected `type/subtype` at line 1 column 50",
            ),
            (
                r#"{"type":"image","mimeType":"image/png; q=1","data":"AAAA"}"#,
                "invalid mime type `image/png; q=1`: expected `type/subtype` at line 1 column 58",
            ),
            (
                r#"{"type":"video","mimeType":"video/mp4","data":"AAAA"}"#,
                "unknown part type `video`: expected one of `text`, `image`, `file`, `audio` at line 1 column 53",
            ),
            (
                r#"{"type":"Image","mimeType":"image/png","data":"AAAA"}"#,
                "unknown part type `Image`: expected one of `text`, `image`, `file`, `audio` at line 1 column 53",
            ),
            (
                r#"{"type":"image","text":"a cat","mimeType":"image/png","data":"AAAA"}"#,
                "an image part cannot carry `text` at line 1 column 68",
            ),
            (
                r#"{"type":"text","text":"hi","mimeType":"text/plain"}"#,
                "a text part cannot carry `mimeType` at line 1 column 51",
            ),
            (
                r#"{"type":"text","data":"AAAA"}"#,
                "a text part cannot carry `data` at line 1 column 29",
            ),
            (
                r#"{"type":"text","url":"https://example.com"}"#,
                "a text part cannot carry `url` at line 1 column 43",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","url":"file:///tmp/a.png"}"#,
                "`file:///tmp/a.png` is not a URL a part may hold: a file: URL is a filesystem path at line 1 column 65",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","url":"/tmp/a.png"}"#,
                "`/tmp/a.png` is not a URL a part may hold: it has no scheme at line 1 column 58",
            ),
            (
                r#"{"type":"image","mimeType":"image/png","url":"C:\\shots\\a.png"}"#,
                r"`C:\shots\a.png` is not a URL a part may hold: it is a Windows drive path at line 1 column 64",
            ),
            (
                r#"{"type":"image","mimeType":"image/gif","url":"data:image/gif;base64,R0lGOA=="}"#,
                "`data:image/gif;base64,R0lGOA==` is not a URL a part may hold: a data: URL is decoded into inline data, not kept as a URL at line 1 column 78",
            ),
        ],
    );
}

#[test]
fn invalid_base64_on_the_wire() {
    catalogue(
        part_err,
        &[
            (
                r#"{"type":"image","mimeType":"image/gif","data":"R0lGOA"}"#,
                "invalid base64 in `data`: missing or misplaced `=` padding (standard base64 is padded to a multiple of 4 characters) at line 1 column 54",
            ),
            (
                r#"{"type":"image","mimeType":"image/gif","data":"R0lG\nOA=="}"#,
                "invalid base64 in `data`: a line break at offset 4 (standard base64 has no line breaks) at line 1 column 58",
            ),
            (
                r#"{"type":"image","mimeType":"image/gif","data":"R0l*OA=="}"#,
                "invalid base64 in `data`: invalid character `*` at offset 3 at line 1 column 56",
            ),
            (
                r#"{"type":"image","mimeType":"image/gif","data":"R0l-OA=="}"#,
                "invalid base64 in `data`: invalid character `-` at offset 3 at line 1 column 56",
            ),
            (
                r#"{"type":"image","mimeType":"image/gif","data":"R0l\u00e9OA=="}"#,
                "invalid base64 in `data`: invalid character 0xc3 at offset 3 at line 1 column 61",
            ),
            (
                r#"{"type":"image","mimeType":"image/gif","data":"R0lGOB=="}"#,
                "invalid base64 in `data`: the last character `B` at offset 5 has bits set past the end of the data at line 1 column 56",
            ),
        ],
    );
}

#[test]
fn invalid_base64_from_data_urls() {
    let err = |url: &str| ContentPart::from_url(url, None).unwrap_err().to_string();
    assert_eq!(
        err("data:image/gif;base64,R0lGOA"),
        "invalid base64 in the data: URL: missing or misplaced `=` padding (standard base64 is padded to a multiple of 4 characters)"
    );
    assert_eq!(
        err("data:image/gif;base64,R0lG\r\nOA=="),
        "invalid base64 in the data: URL: a line break at offset 4 (standard base64 has no line breaks)"
    );
    assert_eq!(
        err("data:image/gif;base64,R0l GOA=="),
        "invalid base64 in the data: URL: invalid character ` ` at offset 3"
    );
}

// ---------------------------------------------------------------------------
// data: URLs and other URLs through the constructor
// ---------------------------------------------------------------------------

#[test]
fn malformed_data_urls() {
    let err = |url: &str| ContentPart::from_url(url, None).unwrap_err().to_string();
    assert_eq!(
        err("data:image/gif,R0lGOA=="),
        "malformed data: URL `data:image/gif,R0lGOA==`: only `;base64` data: URLs are supported"
    );
    assert_eq!(
        err("data:image/gif;base64"),
        "malformed data: URL `data:image/gif;base64`: it has no `,` before the data"
    );
    assert_eq!(
        err("data:;base64,R0lGOA=="),
        "malformed data: URL `data:;base64,R0lGOA==`: it has no mime type"
    );
    assert_eq!(
        err("data:gif;base64,R0lGOA=="),
        "invalid mime type `gif`: expected `type/subtype`"
    );
    // A long URL is cut to 64 characters in the message.
    let long = format!("data:image/gif,{}", "A".repeat(1000));
    assert_eq!(
        err(&long),
        "malformed data: URL `data:image/gif,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…`: only `;base64` data: URLs are supported"
    );
    // An explicit mime type must agree with the data: URL's own.
    assert_eq!(
        ContentPart::from_url("data:image/gif;base64,R0lGOA==", Some("image/png"))
            .unwrap_err()
            .to_string(),
        "mime type `image/png` does not match the data: URL's mime type `image/gif`"
    );
}

#[test]
fn urls_a_part_may_not_hold() {
    let err = |url: &str, mime| ContentPart::from_url(url, mime).unwrap_err().to_string();
    assert_eq!(
        err("file:///etc/passwd", Some("text/plain")),
        "`file:///etc/passwd` is not a URL a part may hold: a file: URL is a filesystem path"
    );
    assert_eq!(
        err("FILE:/etc/passwd", Some("text/plain")),
        "`FILE:/etc/passwd` is not a URL a part may hold: a file: URL is a filesystem path"
    );
    assert_eq!(
        err("example.com/a.png", Some("image/png")),
        "`example.com/a.png` is not a URL a part may hold: it has no scheme"
    );
    assert_eq!(
        err("//example.com/a.png", Some("image/png")),
        "`//example.com/a.png` is not a URL a part may hold: it has no scheme"
    );
    assert_eq!(
        err("C:/shots/a.png", Some("image/png")),
        "`C:/shots/a.png` is not a URL a part may hold: it is a Windows drive path"
    );
    assert_eq!(
        err("https://example.com/a.png", None),
        "the URL `https://example.com/a.png` needs an explicit mime type"
    );
    assert_eq!(
        err("https://example.com/a.png", Some("")),
        "the URL `https://example.com/a.png` needs an explicit mime type"
    );
    assert_eq!(
        err("https://example.com/a.png", Some("png")),
        "invalid mime type `png`: expected `type/subtype`"
    );
}

// ---------------------------------------------------------------------------
// bytes and readers
// ---------------------------------------------------------------------------

#[test]
fn bad_mime_types_for_bytes() {
    let err = |mime| {
        ContentPart::from_bytes(b"x".to_vec(), mime)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(err(""), "a file part needs a mime type");
    assert_eq!(
        err("png"),
        "invalid mime type `png`: expected `type/subtype`"
    );
    assert_eq!(
        err("/png"),
        "invalid mime type `/png`: expected `type/subtype`"
    );
    assert_eq!(
        err("image/png/x"),
        "invalid mime type `image/png/x`: expected `type/subtype`"
    );
    assert_eq!(
        err("image/ png"),
        "invalid mime type `image/ png`: expected `type/subtype`"
    );
    assert_eq!(
        ContentPart::from_reader(&b"x"[..], "", PartLimit::default())
            .unwrap_err()
            .to_string(),
        "a file part needs a mime type"
    );
    assert_eq!(
        ContentPart::from_reader(&b"x"[..], "wav", PartLimit::default())
            .unwrap_err()
            .to_string(),
        "invalid mime type `wav`: expected `type/subtype`"
    );
}

#[test]
fn bytes_over_the_limit() {
    // Bytes and data: URLs take the default limit, 20 MiB.
    let max = 20 * 1024 * 1024;
    assert_eq!(
        ContentPart::from_bytes(vec![0; max + 1], "image/png")
            .unwrap_err()
            .to_string(),
        "the data is 20971521 bytes, over the part size limit of 20971520 bytes"
    );
    assert!(ContentPart::from_bytes(vec![0; max], "image/png").is_ok());
    // Each "AAAA" is 3 zero bytes: 6,990,507 of them are 20 MiB + 1 byte.
    let url = format!("data:image/gif;base64,{}", "AAAA".repeat(6_990_507));
    assert_eq!(
        ContentPart::from_url(&url, None).unwrap_err().to_string(),
        "the data: URL's data is 20971521 bytes, over the part size limit of 20971520 bytes"
    );
}

#[test]
fn a_reader_over_the_limit() {
    let limit = PartLimit::new(10);
    assert_eq!(
        ContentPart::from_reader(&[0u8; 11][..], "audio/wav", limit)
            .unwrap_err()
            .to_string(),
        "the reader's data is 11 bytes, over the part size limit of 10 bytes"
    );
    assert!(ContentPart::from_reader(&[0u8; 10][..], "audio/wav", limit).is_ok());
    // An endless reader stops one byte past the limit.
    assert_eq!(
        ContentPart::from_reader(io::repeat(7), "audio/wav", limit)
            .unwrap_err()
            .to_string(),
        "the reader's data is 11 bytes, over the part size limit of 10 bytes"
    );
}

struct Failing;

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::other("disk on fire"))
    }
}

#[test]
fn a_reader_that_errors() {
    let err = ContentPart::from_reader(Failing, "image/png", PartLimit::default()).unwrap_err();
    assert_eq!(err.to_string(), "cannot read the reader: disk on fire");
    let source = std::error::Error::source(&err).expect("the io error is the source");
    assert_eq!(source.to_string(), "disk on fire");
    // After some good bytes, too.
    let err = ContentPart::from_reader(
        (&b"GIF8"[..]).chain(Failing),
        "image/gif",
        PartLimit::default(),
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "cannot read the reader: disk on fire");
}

// ---------------------------------------------------------------------------
// paths
// ---------------------------------------------------------------------------

#[test]
fn a_path_over_the_limit() {
    assert_eq!(
        ContentPart::from_path(PNG, PartLimit::new(10))
            .unwrap_err()
            .to_string(),
        "`tests/fixtures/fixture.png` is 82 bytes, over the part size limit of 10 bytes"
    );
    assert!(ContentPart::from_path(PNG, PartLimit::new(82)).is_ok());
}

#[test]
fn a_huge_sparse_file_is_refused_from_its_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    let started = Instant::now();
    let err = ContentPart::from_path(&path, PartLimit::new(10)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "`{}` is 1099511627776 bytes, over the part size limit of 10 bytes",
            path.display()
        )
    );
    let err = ContentPart::from_path(&path, PartLimit::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "`{}` is 1099511627776 bytes, over the part size limit of 20971520 bytes",
            path.display()
        )
    );
    // Reading a terabyte would take minutes (or the memory with it).
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(matches!(
        err,
        PartError::TooLarge {
            bytes: 1_099_511_627_776,
            limit: 20_971_520,
            ..
        }
    ));
}

#[test]
fn a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let shots = dir.path().join("shots.png");
    std::fs::create_dir(&shots).unwrap();
    assert_eq!(
        ContentPart::from_path(&shots, PartLimit::default())
            .unwrap_err()
            .to_string(),
        format!("`{}` is not a regular file", shots.display())
    );
    // Without a media extension the extension is what is wrong first.
    assert_eq!(
        ContentPart::from_path("tests/fixtures", PartLimit::default())
            .unwrap_err()
            .to_string(),
        "`tests/fixtures` has no extension, so its media type is unknown: pass the bytes with an explicit mime type instead"
    );
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe.png");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    assert_eq!(
        ContentPart::from_path(&pipe, PartLimit::default())
            .unwrap_err()
            .to_string(),
        format!("`{}` is not a regular file", pipe.display())
    );
}

#[test]
fn a_path_that_does_not_exist() {
    let err =
        ContentPart::from_path("tests/fixtures/missing.png", PartLimit::default()).unwrap_err();
    assert!(matches!(&err, PartError::Read { path, .. } if path == "tests/fixtures/missing.png"));
    #[cfg(target_os = "linux")]
    assert_eq!(
        err.to_string(),
        "cannot read `tests/fixtures/missing.png`: No such file or directory (os error 2)"
    );
}

#[cfg(unix)]
#[test]
fn a_non_utf8_file_name() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let path = Path::new("tests/fixtures").join(OsStr::from_bytes(b"shot-\xff.png"));
    // Refused from the name alone: the file need not exist.
    assert_eq!(
        ContentPart::from_path(&path, PartLimit::default())
            .unwrap_err()
            .to_string(),
        "the file name of `tests/fixtures/shot-\u{fffd}.png` is not valid UTF-8"
    );
    let path = Path::new("tests/fixtures").join(OsStr::from_bytes(b"\xc3\x28.pdf"));
    assert_eq!(
        ContentPart::from_path(&path, PartLimit::default())
            .unwrap_err()
            .to_string(),
        "the file name of `tests/fixtures/\u{fffd}(.pdf` is not valid UTF-8"
    );
}

#[test]
fn unknown_and_missing_extensions() {
    let err = |path: &str| {
        ContentPart::from_path(path, PartLimit::default())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err("notes.txt"),
        "unknown media extension `txt` in `notes.txt`: pass the bytes with an explicit mime type instead"
    );
    assert_eq!(
        err("a/b/NOTES.TXT"),
        "unknown media extension `TXT` in `a/b/NOTES.TXT`: pass the bytes with an explicit mime type instead"
    );
    assert_eq!(
        err("backup.tar.gz"),
        "unknown media extension `gz` in `backup.tar.gz`: pass the bytes with an explicit mime type instead"
    );
    assert_eq!(
        err("shot.svg"),
        "unknown media extension `svg` in `shot.svg`: pass the bytes with an explicit mime type instead"
    );
    assert_eq!(
        err("Makefile"),
        "`Makefile` has no extension, so its media type is unknown: pass the bytes with an explicit mime type instead"
    );
    assert_eq!(
        err("shot."),
        "`shot.` has no extension, so its media type is unknown: pass the bytes with an explicit mime type instead"
    );
    // A dotfile is a name, not an extension.
    assert_eq!(
        err("a/.png"),
        "`a/.png` has no extension, so its media type is unknown: pass the bytes with an explicit mime type instead"
    );
    assert_eq!(
        err(""),
        "`` has no extension, so its media type is unknown: pass the bytes with an explicit mime type instead"
    );
}

// ---------------------------------------------------------------------------
// lenient reading that the contract asks for
// ---------------------------------------------------------------------------

#[test]
fn a_null_or_missing_output_reads_as_empty() {
    let res: ToolResult = serde_json::from_str(r#"{"output":null,"isError":false}"#).unwrap();
    assert_eq!(res.output, "");
    assert!(!res.is_error);
    assert_eq!(
        serde_json::to_string(&res).unwrap(),
        r#"{"output":"","isError":false}"#
    );
    let res: ToolResult = serde_json::from_str(r#"{"isError":true}"#).unwrap();
    assert_eq!(res, ToolResult::error(""));
    let res: ToolResult = serde_json::from_str("{}").unwrap();
    assert_eq!(res, ToolResult::ok(""));
}

#[test]
fn null_parts_read_as_none() {
    let res: ToolResult =
        serde_json::from_str(r#"{"output":"x","isError":false,"parts":null}"#).unwrap();
    assert!(res.parts.is_empty());
    assert_eq!(
        serde_json::to_string(&res).unwrap(),
        r#"{"output":"x","isError":false}"#
    );
    let res: ToolResult =
        serde_json::from_str(r#"{"output":"x","isError":false,"parts":[],"metadata":null}"#)
            .unwrap();
    assert_eq!(res, ToolResult::ok("x"));
}

#[test]
fn a_bad_part_inside_a_result_fails_the_result() {
    assert_eq!(
        result_err(
            r#"{"output":"x","isError":false,"parts":[{"type":"text"},{"type":"image","url":"https://example.com"}]}"#
        ),
        "an image part needs a mime type at line 1 column 99"
    );
}
