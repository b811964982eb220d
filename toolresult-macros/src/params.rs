//! A tool function's parameters: the arguments the model sends, and the
//! call's context, recognised by its type.

use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, Pat, PatType, Signature, Type, TypeReference};

/// One parameter of a tool function, after the receiver.
pub(crate) enum Param {
    /// An argument: a field of the generated argument type.
    Argument {
        /// The parameter's (and the field's) name.
        ident: Ident,
        /// Its type.
        ty: Box<Type>,
        /// Its `#[serde(..)]` and `#[schemars(..)]` attributes.
        attrs: Vec<Attribute>,
    },
    /// The call's `CallContext`, with its name when it has a plain one.
    Context(Option<Ident>),
}

/// Whether `ty`'s last path segment is `CallContext`.
fn is_context_path(ty: &Type) -> bool {
    match ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "CallContext"),
        Type::Group(group) => is_context_path(&group.elem),
        Type::Paren(paren) => is_context_path(&paren.elem),
        _ => false,
    }
}

/// Reads the typed parameters of `sig` (the receiver, if any, is the
/// caller's to check), taking their `#[serde]` and `#[schemars]`
/// attributes off the signature.
///
/// # Errors
/// A pattern parameter, a context of the wrong shape or twice, an argument
/// type that is a reference or an `impl Trait`.
pub(crate) fn read(sig: &mut Signature) -> syn::Result<Vec<Param>> {
    let asynchronous = sig.asyncness.is_some();
    let mut params = Vec::new();
    let mut context = false;
    for input in &mut sig.inputs {
        let FnArg::Typed(PatType { attrs, pat, ty, .. }) = input else {
            continue;
        };
        let (moved, kept): (Vec<_>, Vec<_>) = std::mem::take(attrs)
            .into_iter()
            .partition(|attr| attr.path().is_ident("serde") || attr.path().is_ident("schemars"));
        *attrs = kept;
        if let Some(found) = context_kind(ty) {
            if context {
                return Err(syn::Error::new(
                    ty.span(),
                    "a tool takes its `CallContext` once: remove this parameter",
                ));
            }
            context = true;
            check_context(found, ty, asynchronous)?;
            if let Some(attr) = moved.first() {
                return Err(syn::Error::new(
                    attr.span(),
                    "the `CallContext` is no argument of the model's: remove this attribute",
                ));
            }
            let name = match &**pat {
                Pat::Ident(pat) => Some(pat.ident.clone()),
                _ => None,
            };
            params.push(Param::Context(name));
            continue;
        }
        let ident = match &**pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => pat.ident.clone(),
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "a tool parameter is a plain name, the name of the argument the model sends: write `name: Type` and destructure it in the body",
                ));
            }
        };
        check_argument_type(ty)?;
        params.push(Param::Argument {
            ident,
            ty: ty.clone(),
            attrs: moved,
        });
    }
    Ok(params)
}

/// How a parameter is a context: borrowed or owned.
#[derive(Clone, Copy)]
enum ContextKind {
    Borrowed,
    Owned,
}

fn context_kind(ty: &Type) -> Option<ContextKind> {
    match ty {
        Type::Reference(TypeReference { elem, .. }) if is_context_path(elem) => {
            Some(ContextKind::Borrowed)
        }
        ty if is_context_path(ty) => Some(ContextKind::Owned),
        _ => None,
    }
}

fn check_context(kind: ContextKind, ty: &Type, asynchronous: bool) -> syn::Result<()> {
    match (kind, asynchronous) {
        (ContextKind::Borrowed, false) | (ContextKind::Owned, true) => Ok(()),
        (ContextKind::Owned, false) => Err(syn::Error::new(
            ty.span(),
            "a synchronous tool borrows its context: write `cx: &CallContext`",
        )),
        (ContextKind::Borrowed, true) => Err(syn::Error::new(
            ty.span(),
            "an asynchronous tool owns its context (its future may outlive the call's borrow): write `cx: CallContext<'static>`",
        )),
    }
}

fn check_argument_type(ty: &Type) -> syn::Result<()> {
    match ty {
        Type::Reference(_) => Err(syn::Error::new(
            ty.span(),
            "a tool argument is decoded from the call's JSON and owned: write `String` for `&str`, `Vec<T>` for `&[T]`, `T` for `&T`",
        )),
        Type::ImplTrait(_) => Err(syn::Error::new(
            ty.span(),
            "a tool argument has one concrete type, its schema: write the type in place of `impl ...`",
        )),
        Type::Infer(_) => Err(syn::Error::new(ty.span(), "write the argument's type")),
        _ => Ok(()),
    }
}
