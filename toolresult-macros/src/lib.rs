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

/// Makes a tool of a function, or tools of the methods of an `impl` block.
///
/// See `toolresult::tool` (the attribute) for the whole story.
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
