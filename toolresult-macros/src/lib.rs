//! The `#[tool]` attribute of [`toolresult`](https://docs.rs/toolresult):
//! a plain Rust function, or the methods of an `impl` block, as LLM tools.
//!
//! Use it through `toolresult` (`use toolresult::tool;`), whose docs show it
//! at work; this crate is its implementation.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod block;
mod docs;
mod fallback;
mod function;
mod generate;
mod name;
mod options;
mod params;

use proc_macro::TokenStream;
use quote::ToTokens;
use syn::Item;

use options::Options;

/// Makes a tool of a plain function, or tools of the methods of an `impl`
/// block.
///
/// On a function, sync or `async`, the function stays as written, and
/// beside it a struct of the same name gives `name::tool()`, the tool,
/// carrying every option the attribute gives: register it with
/// `toolbox.register(name::tool())`. The tool is the one `tool::function`
/// would make of it by hand, schema for schema
/// and instruction for instruction:
///
/// - its name is the function's, or `name = "..."`, checked at compile time
///   against the rule every tool name follows;
/// - its description is the doc comment, or `description = "..."`, less
///   the rustdoc `# Arguments` section, whose entries
///   (`` * `city` - the city to look up ``) describe the arguments;
/// - its arguments are the parameters, decoded with serde from the call's
///   JSON, their schema made by schemars: an `Option<T>` parameter may be
///   left out, and `#[serde(..)]` and `#[schemars(..)]` on a parameter
///   apply to its argument;
/// - a `&CallContext` parameter (a synchronous function) or a
///   `CallContext<'static>` one (an `async` function) is the call's
///   context, not an argument;
/// - it returns what the crate lowers (a `ToolResult<T, E>`, a
///   `Result<T, E>` or `Result<T, Failure<E>>`, a `String`, a `&str`, a
///   `serde_json::Value`, `()`, a canonical result), its output schema made
///   from the type.
///
/// Options: `title = "..."` (a name for people, MCP's `Tool.title`),
/// `safety = ReadOnly` (any `ToolSafety` variant), `timeout =
/// "30s"` (`ms`, `s`, `m`, `h`, or `"none"`) and `budget = <a Budget
/// expression>` (the tool's `timeout()` and `budget()`, which a `Toolbox`
/// takes as the tool's own when it registers it), `blocking` (a
/// synchronous body that blocks its thread), `unexpected = <a
/// fn(&UnexpectedError) -> ToolError>`, `approval = always` (or `never`,
/// or a `fn(&A, &CallContext) -> Option<String>` saying why a call needs
/// a person's approval, `A` any type the arguments decode into: a struct
/// of the fields it reads, or `serde_json::Value`; see `tool::Approval`),
/// and `task = Optional` (any `TaskSupport` variant: whether calls run as
/// MCP tasks).
///
/// ```
/// use toolresult::tool;
/// use toolresult::toolbox::Toolbox;
/// use toolresult::{ToolError, ToolResult};
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Weather { celsius: f32, days: u8 }
///
/// /// Current weather for a city.
/// ///
/// /// # Arguments
/// /// * `city` - the city to look up, in English
/// /// * `days` - how many days ahead
/// #[tool(title = "Weather", safety = ReadOnly, timeout = "10s")]
/// fn get_weather(city: String, days: Option<u8>) -> ToolResult<Weather> {
///     match city.as_str() {
///         "Oslo" => ToolResult::ok(Weather { celsius: -3.5, days: days.unwrap_or(0) }),
///         _ => ToolResult::fail(ToolError::new(format!("unknown city {city}"))),
///     }
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(get_weather::tool())?;
///
/// use toolresult::Tool;
/// let tool = get_weather::tool();
/// assert_eq!(tool.description(), "Current weather for a city.");
/// assert_eq!(tool.title(), Some("Weather"));
/// assert_eq!(tool.timeout(), Some(Some(std::time::Duration::from_secs(10))));
/// assert_eq!(
///     tool.input_schema().pointer("/properties/city/description"),
///     Some(&serde_json::json!("the city to look up, in English"))
/// );
/// assert_eq!(tool.input_schema().get("required"), Some(&serde_json::json!(["city"])));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// On an `impl` block, every method is a tool taking `&self`, with its
/// options in a `#[tool(..)]` on the method; `Type::tools(&arc)` gives
/// them all, sharing the `Arc<Self>`, each carrying its options:
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use toolresult::tool;
/// use toolresult::tool::CallContext;
/// use toolresult::toolbox::Toolbox;
/// use toolresult::ToolError;
///
/// struct Notes { notes: Mutex<Vec<String>> }
///
/// #[tool]
/// impl Notes {
///     /// Keep a note.
///     ///
///     /// # Arguments
///     /// * `text` - what to keep
///     #[tool(safety = Additive)]
///     fn add_note(&self, text: String) -> String {
///         let mut notes = self.notes.lock().unwrap();
///         notes.push(text);
///         format!("{} notes", notes.len())
///     }
///
///     /// The notes kept, newest first.
///     #[tool(name = "list_notes", safety = ReadOnly)]
///     async fn list(&self, cx: CallContext<'static>) -> Result<Vec<String>, ToolError> {
///         cx.progress(1.0, Some(1.0), None);
///         Ok(self.notes.lock().unwrap().iter().rev().cloned().collect())
///     }
/// }
///
/// let notes = Arc::new(Notes { notes: Mutex::new(Vec::new()) });
/// let mut toolbox = Toolbox::new();
/// for tool in notes.tools() {
///     toolbox.register(tool)?;
/// }
/// assert_eq!(toolbox.names().collect::<Vec<_>>(), ["add_note", "list_notes"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Misuse is a compile error saying what to write instead: a generic
/// function, `self` by value or `&mut self`, a pattern parameter, a
/// borrowed argument, an argument type that does not deserialise or has no
/// schema, two tools of one name in a block, an `# Arguments` entry naming
/// no parameter, a function without a doc comment.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = match syn::parse::<Item>(item) {
        Ok(item) => item,
        Err(err) => return err.into_compile_error().into(),
    };
    let mut options = Options::default();
    let parser = syn::meta::parser(|meta| options.parse(&meta));
    let expanded = syn::parse::Parser::parse(parser, attr).and_then(|()| match &item {
        Item::Fn(function) => function::expand(options, function.clone()),
        Item::Impl(block) => block::expand(options, block.clone()),
        other => Err(syn::Error::new_spanned(
            other,
            "`#[tool]` goes on a function (`fn get_weather(city: String) -> ..`) or on an `impl` block of tool methods",
        )),
    });
    match expanded {
        Ok(tokens) => tokens.into(),
        Err(err) => {
            // The item stays, so the one error is the attribute's, not a
            // cascade of errors where the item is used.
            let mut tokens = err.into_compile_error();
            tokens.extend(fallback::strip(item).into_token_stream());
            tokens.into()
        }
    }
}
