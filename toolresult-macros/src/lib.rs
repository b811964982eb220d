//! The `#[tool]` attribute of [`toolresult`](https://docs.rs/toolresult):
//! a plain Rust function, or the methods of an `impl` block, as LLM tools.
//!
//! Use it through `toolresult` (`use toolresult::tool;`), whose docs show it
//! at work; this crate is its implementation.

mod block;
mod docs;
mod function;
mod generate;
mod name;
mod options;
mod params;

use proc_macro::TokenStream;
use syn::Item;

use options::Options;

/// Makes a tool of a function, or tools of the methods of an `impl` block.
///
/// See `toolresult::tool` (the attribute) for the whole story.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut options = Options::default();
    let parser = syn::meta::parser(|meta| options.parse(&meta));
    if let Err(err) = syn::parse::Parser::parse(parser, attr) {
        return err.to_compile_error().into();
    }
    let expanded = match syn::parse::<Item>(item) {
        Ok(Item::Fn(item)) => function::expand(options, item),
        Ok(Item::Impl(item)) => block::expand(options, item),
        Ok(other) => Err(syn::Error::new_spanned(
            other,
            "`#[tool]` goes on a function (`fn get_weather(city: String) -> ..`) or on an `impl` block of tool methods",
        )),
        Err(err) => Err(err),
    };
    expanded
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
