//! The budget's artifacts as MCP resources: what a result cut to its
//! budget left out, read by the `artifact://` URI of the `resource_link`
//! the cut result carries, whole or a slice at a time, without a tool
//! call.
//!
//! Artifacts are listed as one resource template, not one by one: an
//! artifact's id is what lets a client read it, and a list would hand
//! every client the ids of every other client's results.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::ErrorData;
use rmcp::model::{MetaObject, ReadResourceResult, ResourceContents, ResourceTemplate};
use serde_json::{Value, json};

use crate::budget::{Artifact, ArtifactId, ArtifactStore};
use crate::tool::ArtifactReader;
use crate::tool::slice_bounds;

/// The scheme of an artifact's URI, as the cut result's link gives it.
pub(super) const SCHEME: &str = "artifact://";

/// The template an artifact's URI fits: its id, and for a slice of text
/// the byte `offset` to start at and the `length` to read at most.
pub(super) const TEMPLATE: &str = "artifact://{id}{?offset,length}";

/// The resource templates of the artifacts: [`TEMPLATE`].
pub(super) fn templates() -> Vec<ResourceTemplate> {
    let mut template = ResourceTemplate::new(TEMPLATE, "artifact");
    template.description = Some(
        "The whole of a tool result cut to fit its budget, as the result's resource_link \
         gives it. Without a query, the whole artifact; with `offset` and `length` (bytes), \
         a slice of a text artifact on character boundaries, its `_meta` giving the \
         `offset` it starts at, the `next` offset (null at the end) and the `total` length."
            .to_owned(),
    );
    vec![template]
}

/// `resources/read` of `uri` from `store`; `None` when `uri` is not an
/// artifact's (another resource of the handler's).
///
/// # Errors
/// `invalid_params` for an id or a query that does not read, or a slice of
/// an artifact that is not text; `resource_not_found` (its `data.uri` the
/// URI) for an id the store does not keep; `internal_error` when the store
/// fails (its words stay on the server).
pub(super) fn read(
    store: &dyn ArtifactStore,
    uri: &str,
) -> Option<Result<ReadResourceResult, ErrorData>> {
    let rest = uri.strip_prefix(SCHEME)?;
    Some(read_artifact(store, uri, rest))
}

fn read_artifact(
    store: &dyn ArtifactStore,
    uri: &str,
    rest: &str,
) -> Result<ReadResourceResult, ErrorData> {
    let (id, query) = match rest.split_once('?') {
        Some((id, query)) => (id, Some(query)),
        None => (rest, None),
    };
    let id = ArtifactId::from_url_or_id(id)
        .map_err(|invalid| ErrorData::invalid_params(invalid.to_string(), None))?;
    let artifact = match store.get(&id) {
        Ok(Some(artifact)) => artifact,
        Ok(None) => {
            return Err(ErrorData::resource_not_found(
                format!("no artifact `{id}` is kept"),
                Some(json!({"uri": uri})),
            ));
        }
        Err(_) => {
            return Err(ErrorData::internal_error(
                format!("the artifact store failed reading `{id}`"),
                None,
            ));
        }
    };
    let text = artifact
        .is_text()
        .then(|| std::str::from_utf8(&artifact.bytes).ok())
        .flatten();
    let contents = match (query, text) {
        (None, Some(text)) => ResourceContents::text(text, uri),
        (None, None) => ResourceContents::blob(STANDARD.encode(&artifact.bytes), uri),
        (Some(query), Some(text)) => slice(text, uri, query)?,
        (Some(_), None) => {
            return Err(ErrorData::invalid_params(
                format!(
                    "artifact `{id}` is {} and not text: read it whole, without a query",
                    artifact.mime_type
                ),
                None,
            ));
        }
    };
    Ok(ReadResourceResult::new(vec![with_type(
        contents, &artifact,
    )]))
}

fn with_type(contents: ResourceContents, artifact: &Artifact) -> ResourceContents {
    contents.with_mime_type(artifact.mime_type.clone())
}

/// The slice of `text` the query `offset=<bytes>&length=<bytes>` asks for
/// (either may be left out: from 0, and [`ArtifactReader::MAX_LENGTH`]
/// bytes), cut as `read_artifact` cuts it.
fn slice(text: &str, uri: &str, query: &str) -> Result<ResourceContents, ErrorData> {
    let mut offset = 0_usize;
    let mut length = ArtifactReader::MAX_LENGTH;
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number = value.parse::<usize>().map_err(|_| {
            ErrorData::invalid_params(
                format!("the artifact query's `{name}` is `{value}`, not a number of bytes"),
                None,
            )
        });
        match name {
            "offset" => offset = number?,
            "length" => length = number?,
            other => {
                return Err(ErrorData::invalid_params(
                    format!("the artifact query has `{other}`; it takes `offset` and `length`"),
                    None,
                ));
            }
        }
    }
    let total = text.len();
    if offset > total {
        return Err(ErrorData::invalid_params(
            format!("offset {offset} is past the end of the artifact ({total} bytes)"),
            None,
        ));
    }
    let (start, end) = slice_bounds(text, offset, length);
    let meta = MetaObject(serde_json::Map::from_iter([
        ("offset".to_owned(), json!(start)),
        (
            "next".to_owned(),
            (end < total)
                .then_some(end)
                .map_or(Value::Null, Value::from),
        ),
        ("total".to_owned(), json!(total)),
    ]));
    Ok(ResourceContents::text(text.get(start..end).unwrap_or_default(), uri).with_meta(meta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::MemoryStore;

    fn text_of(result: &ReadResourceResult) -> (&str, Option<&MetaObject>) {
        match &result.contents[0] {
            ResourceContents::TextResourceContents { text, meta, .. } => (text, meta.as_ref()),
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn an_artifact_reads_whole_or_in_slices() {
        let store = MemoryStore::new();
        let id = store
            .put(Artifact::new("héllo wörld", "text/plain"))
            .unwrap();
        let uri = id.url();
        let whole = read(&store, &uri).unwrap().unwrap();
        assert_eq!(text_of(&whole).0, "héllo wörld");

        let first = read(&store, &format!("{uri}?offset=0&length=6"))
            .unwrap()
            .unwrap();
        let (text, meta) = text_of(&first);
        assert_eq!(text, "héllo");
        assert_eq!(
            Value::Object(meta.unwrap().0.clone()),
            json!({"offset": 0, "next": 6, "total": 13})
        );
        // An offset inside `ö` starts at `ö`; the last slice has no next.
        let last = read(&store, &format!("{uri}?offset=9")).unwrap().unwrap();
        let (text, meta) = text_of(&last);
        assert_eq!(text, "örld");
        assert_eq!(meta.unwrap().0["next"], Value::Null);
    }

    #[test]
    fn what_does_not_read_says_why() {
        let store = MemoryStore::new();
        assert!(read(&store, "test://static-text").is_none(), "not ours");
        let missing = read(&store, "artifact://art_0123").unwrap().unwrap_err();
        assert_eq!(missing.message, "no artifact `art_0123` is kept");
        assert_eq!(missing.data, Some(json!({"uri": "artifact://art_0123"})));
        let id = store
            .put(Artifact::new(vec![0x89, b'P'], "image/png"))
            .unwrap();
        let uri = id.url();
        let blob = read(&store, &uri).unwrap().unwrap();
        assert!(matches!(
            &blob.contents[0],
            ResourceContents::BlobResourceContents { blob, .. } if blob == "iVA="
        ));
        let sliced = read(&store, &format!("{uri}?offset=0"))
            .unwrap()
            .unwrap_err();
        assert_eq!(
            sliced.message,
            format!("artifact `{id}` is image/png and not text: read it whole, without a query")
        );
        let text = store.put(Artifact::new("abc", "text/plain")).unwrap().url();
        let bad = read(&store, &format!("{text}?offset=x"))
            .unwrap()
            .unwrap_err();
        assert_eq!(
            bad.message,
            "the artifact query's `offset` is `x`, not a number of bytes"
        );
        let past = read(&store, &format!("{text}?offset=4"))
            .unwrap()
            .unwrap_err();
        assert_eq!(
            past.message,
            "offset 4 is past the end of the artifact (3 bytes)"
        );
        let path = read(&store, "artifact://../etc/passwd")
            .unwrap()
            .unwrap_err();
        assert!(
            path.message.starts_with("invalid artifact id"),
            "{}",
            path.message
        );
    }
}
