//! The item as the compiler may read it when the attribute refused it: its
//! parameters' `#[serde]`/`#[schemars]` and its methods' `#[tool]`
//! attributes taken off.

use syn::{FnArg, ImplItem, Item, Signature};

fn strip_params(sig: &mut Signature) {
    for input in &mut sig.inputs {
        if let FnArg::Typed(param) = input {
            param.attrs.retain(|attr| {
                !(attr.path().is_ident("serde") || attr.path().is_ident("schemars"))
            });
        }
    }
}

/// `item`, with the attributes only `#[tool]` reads taken off.
pub(crate) fn strip(mut item: Item) -> Item {
    match &mut item {
        Item::Fn(function) => strip_params(&mut function.sig),
        Item::Impl(block) => {
            for member in &mut block.items {
                if let ImplItem::Fn(method) = member {
                    method.attrs.retain(|attr| !attr.path().is_ident("tool"));
                    strip_params(&mut method.sig);
                }
            }
        }
        _ => {}
    }
    item
}
