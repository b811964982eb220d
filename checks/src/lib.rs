//! The checks of `toolresult` that need heavy crates, kept out of the
//! root package so that `cargo run --example quickstart` builds only what
//! the example needs (every dev-dependency of a package is built for its
//! examples).
//!
//! - `tests/`: property tests (proptest), schemas checked by a JSON Schema
//!   validator (jsonschema), the MCP server and client over streamable
//!   HTTP (rmcp's client, hyper).
//! - `src/bin/mcp_server.rs`: the MCP server the conformance suite calls
//!   (`.ci/conformance.sh`), made of the crate's tools.
//! - `benches/`: every criterion bench, side by side with the floor and
//!   the peers; `benches/README.md` is the performance page.
//!
//! `cargo test --workspace --all-features` runs these with the rest;
//! `cargo test -p toolresult-checks` runs these alone. The package is not
//! a default member of the workspace: cargo unifies features over the
//! default members, so its dev-dependencies would reach the quickstart.
