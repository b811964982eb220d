//! `#[tool]` on an `impl` block: every method a tool, sharing `&self`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{FnArg, ImplItem, ItemImpl, Receiver, ReceiverKind, Type};

use crate::generate::ToolFn;
use crate::options::Options;

/// The block as written (its `#[tool(..)]` method attributes read and
/// taken off), and a second block on the same type with `tools()`.
pub(crate) fn expand(options: Options, mut item: ItemImpl) -> syn::Result<TokenStream> {
    if let Some(span) = options_given(&options) {
        return Err(syn::Error::new(
            span,
            "options go on each method of a tool block: write `#[tool(..)]` on the method",
        ));
    }
    if let Some((path, _)) = &item.trait_ {
        return Err(syn::Error::new(
            path.span(),
            "the tools of a type are its inherent methods: put them in an `impl Type { .. }` block of their own",
        ));
    }
    if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
        return Err(syn::Error::new(
            item.generics.span(),
            "a tool block cannot be generic: its types make the tools' schemas; write it for a concrete type",
        ));
    }
    let mut tools: Vec<(ToolFn, TokenStream)> = Vec::new();
    for (index, member) in item.items.iter_mut().enumerate() {
        let ImplItem::Fn(method) = member else {
            continue;
        };
        let mut options = Options::default();
        let mut kept = Vec::new();
        for attr in std::mem::take(&mut method.attrs) {
            if attr.path().is_ident("tool") {
                if !matches!(attr.meta, syn::Meta::Path(_)) {
                    attr.parse_nested_meta(|meta| options.parse(&meta))?;
                }
            } else {
                kept.push(attr);
            }
        }
        method.attrs = kept;
        check_receiver(method.sig.inputs.first(), &method.sig)?;
        let tool = ToolFn::read(
            &mut method.sig,
            &method.attrs,
            options,
            format_ident!("__ToolArgs{index}"),
        )?;
        if let Some((first, _)) = tools.iter().find(|(other, _)| other.name == tool.name) {
            return Err(syn::Error::new(
                tool.name_span,
                format!(
                    "two tools of this block are named `{}`: name one of them apart with `#[tool(name = \"...\")]`",
                    first.name
                ),
            ));
        }
        let method = &method.sig.ident;
        tools.push((tool, quote!(Self::#method)));
    }
    if tools.is_empty() {
        return Err(syn::Error::new(
            item.self_ty.span(),
            "this tool block has no methods: write its tools as `fn name(&self, ..)` methods",
        ));
    }
    let self_ty: &Type = &item.self_ty;
    let this = format_ident!("__toolresult_this");
    let structs = tools.iter().map(|(tool, _)| tool.args_struct());
    let checks = tools.iter().map(|(tool, _)| tool.checks());
    let built: Vec<TokenStream> = tools
        .iter()
        .map(|(tool, callee)| tool.build(callee, Some(&this)))
        .collect();
    let names: Vec<&str> = tools.iter().map(|(tool, _)| tool.name.as_str()).collect();
    let list = names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let tools_doc = format!(
        " The tools of this type's `#[tool]` block ({list}), in the block's order, sharing `self`, each with the options its attribute gives."
    );
    Ok(quote! {
        #item

        const _: () = {
            #[allow(dead_code)]
            impl #self_ty {
                fn __toolresult_checks() {
                    #(#checks)*
                }
            }

            #(#structs)*

            #[allow(dead_code)]
            impl #self_ty {
                #[doc = #tools_doc]
                #[must_use = "tools do nothing until they are called"]
                pub fn tools(
                    self: &::std::sync::Arc<Self>,
                ) -> ::std::vec::Vec<::std::boxed::Box<dyn ::toolresult::Tool>> {
                    ::std::vec![#(::std::boxed::Box::new(#built)),*]
                }
            }

        };
    })
}

/// The span of an option given on the block itself, where none belongs.
fn options_given(options: &Options) -> Option<proc_macro2::Span> {
    if let Some(name) = &options.name {
        return Some(name.span());
    }
    if let Some(description) = &options.description {
        return Some(description.span());
    }
    if let Some(title) = &options.title {
        return Some(title.span());
    }
    if let Some(safety) = &options.safety {
        return Some(safety.span());
    }
    if let Some((_, span)) = options.timeout {
        return Some(span);
    }
    if let Some(budget) = &options.budget {
        return Some(budget.span());
    }
    if let Some(span) = options.blocking {
        return Some(span);
    }
    options.unexpected.as_ref().map(Spanned::span)
}

/// A tool method takes `&self`.
fn check_receiver(first: Option<&FnArg>, sig: &syn::Signature) -> syn::Result<()> {
    match first {
        Some(FnArg::Receiver(Receiver {
            kind: ReceiverKind::Reference(_, _, None),
            mutability: None,
            ..
        })) => Ok(()),
        Some(FnArg::Receiver(
            receiver @ Receiver {
                kind: ReceiverKind::Reference(_, _, Some(_)),
                ..
            },
        )) => Err(syn::Error::new(
            receiver.span(),
            "a tool method takes `&self`: calls of a turn run at once; write `&self` and keep mutable state behind a `Mutex`",
        )),
        Some(FnArg::Receiver(receiver)) => Err(syn::Error::new(
            receiver.span(),
            "a tool method takes `&self`: its tools share the value through an `Arc`, so none can take it by value; write `&self`",
        )),
        _ => Err(syn::Error::new(
            sig.ident.span(),
            "a method of a tool block takes `&self`: put associated functions (a constructor) in an `impl` block of their own",
        )),
    }
}
