//! `#[tool]` on a free function.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn};

use crate::generate::ToolFn;
use crate::options::Options;

/// The function as written (its arguments' attributes moved to the
/// argument type), and beside it, in the type namespace, a struct of the
/// same name whose `tool()` makes the tool, carrying the attribute's
/// options.
pub(crate) fn expand(options: Options, mut item: ItemFn) -> syn::Result<TokenStream> {
    if let Some(FnArg::Receiver(receiver)) = item.sig.inputs.first() {
        return Err(syn::Error::new(
            receiver.span(),
            "a method is a tool through its `impl` block: put `#[tool]` on the block (`#[tool] impl Type { .. }`), and `#[tool(..)]` options on the method",
        ));
    }
    let tool = ToolFn::read(
        &mut item.sig,
        &item.attrs,
        options,
        format_ident!("__ToolArgs"),
    )?;
    let ident = &item.sig.ident;
    let vis = &item.vis;
    let args_struct = tool.args_struct();
    let checks = tool.checks();
    let build = tool.build(&quote!(#ident), None);
    let name = &tool.name;
    let doc = format!(
        " The tool `{name}`, made of the function [`{ident}`](fn@{ident}) by `#[tool]`: \
         `{ident}::tool()` makes it, with the options the attribute gives \
         (`toolbox.register({ident}::tool())`)."
    );
    Ok(quote! {
        #item

        #[doc = #doc]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #ident {}

        const _: () = {
            #[allow(dead_code)]
            impl #ident {
                fn __toolresult_checks() {
                    #checks
                }
            }

            #args_struct

            #[allow(dead_code)]
            impl #ident {
                /// The tool.
                #[must_use = "a tool does nothing until it is called"]
                #vis fn tool() -> impl ::toolresult::Tool {
                    #build
                }
            }

        };
    })
}
