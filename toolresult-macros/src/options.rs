//! The attribute's options: `#[tool(name = "...", safety = ReadOnly, ...)]`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::{Expr, Ident, LitStr, Path};

use crate::name;

/// What one `#[tool(...)]` says.
#[derive(Default)]
pub(crate) struct Options {
    /// `name = "..."`: the tool's name, in place of the function's.
    pub(crate) name: Option<LitStr>,
    /// `description = "..."`: in place of the doc comment.
    pub(crate) description: Option<LitStr>,
    /// `title = "..."`: a name for people (MCP's `Tool.title`).
    pub(crate) title: Option<LitStr>,
    /// `safety = ReadOnly`: a `ToolSafety` variant.
    pub(crate) safety: Option<Ident>,
    /// `timeout = "30s"` (or `"none"`): the timeout the tool asks for.
    pub(crate) timeout: Option<(Option<u64>, Span)>,
    /// `budget = <expr>`: the output budget the tool asks for.
    pub(crate) budget: Option<Expr>,
    /// `blocking`: the body blocks its thread (synchronous tools only).
    pub(crate) blocking: Option<Span>,
    /// `unexpected = path`: a `fn(&UnexpectedError) -> ToolError`.
    pub(crate) unexpected: Option<Path>,
    /// `approval = always`, `never`, or a path to a
    /// `fn(&Args, &CallContext) -> Option<String>`.
    pub(crate) approval: Option<Path>,
    /// `task = Optional`: a `TaskSupport` variant.
    pub(crate) task: Option<Ident>,
}

/// The `TaskSupport` variants, as the attribute spells them.
const TASK_SUPPORTS: [&str; 3] = ["Forbidden", "Optional", "Required"];

/// The `ToolSafety` variants, as the attribute spells them.
const SAFETIES: [&str; 5] = [
    "ReadOnly",
    "Idempotent",
    "IdempotentDestructive",
    "Additive",
    "Destructive",
];

impl Options {
    /// Reads one option into `self`.
    pub(crate) fn parse(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let Some(key) = meta.path.get_ident() else {
            return Err(meta.error(unknown()));
        };
        match key.to_string().as_str() {
            "name" => {
                let lit: LitStr = meta.value()?.parse()?;
                if let Some(problem) = name::problem(&lit.value()) {
                    return Err(syn::Error::new(lit.span(), problem));
                }
                set(&mut self.name, lit, meta)
            }
            "description" => {
                let lit: LitStr = meta.value()?.parse()?;
                if lit.value().trim().is_empty() {
                    return Err(syn::Error::new(
                        lit.span(),
                        "a tool's description says what it does: write a sentence for the model",
                    ));
                }
                set(&mut self.description, lit, meta)
            }
            "title" => {
                let lit: LitStr = meta.value()?.parse()?;
                if lit.value().trim().is_empty() {
                    return Err(syn::Error::new(
                        lit.span(),
                        "a tool's title is a name for people: write a few words, or leave `title` out",
                    ));
                }
                set(&mut self.title, lit, meta)
            }
            "safety" => {
                let ident: Ident = meta.value()?.parse()?;
                if !SAFETIES.contains(&ident.to_string().as_str()) {
                    return Err(syn::Error::new(
                        ident.span(),
                        format!(
                            "`{ident}` is no `ToolSafety`: write one of {}",
                            SAFETIES.join(", ")
                        ),
                    ));
                }
                set(&mut self.safety, ident, meta)
            }
            "timeout" => {
                let lit: LitStr = meta.value()?.parse()?;
                let millis = duration(&lit)?;
                set(&mut self.timeout, (millis, lit.span()), meta)
            }
            "budget" => {
                let expr: Expr = meta.value()?.parse()?;
                set(&mut self.budget, expr, meta)
            }
            "task" => {
                let ident: Ident = meta.value()?.parse()?;
                if !TASK_SUPPORTS.contains(&ident.to_string().as_str()) {
                    return Err(syn::Error::new(
                        ident.span(),
                        format!(
                            "`{ident}` is no `TaskSupport`: write one of {}",
                            TASK_SUPPORTS.join(", ")
                        ),
                    ));
                }
                set(&mut self.task, ident, meta)
            }
            "blocking" => set(&mut self.blocking, key.span(), meta),
            "unexpected" => {
                let path: Path = meta.value()?.parse()?;
                set(&mut self.unexpected, path, meta)
            }
            "approval" => {
                let path: Path = meta.value()?.parse()?;
                set(&mut self.approval, path, meta)
            }
            _ => Err(meta.error(unknown())),
        }
    }

    /// The `title`, `ToolSafety`, `blocking`, `unexpected` and `approval`
    /// calls on a built tool.
    pub(crate) fn builders(&self) -> TokenStream {
        let mut calls = TokenStream::new();
        if let Some(title) = &self.title {
            calls.extend(quote!(.with_title(#title)));
        }
        if let Some(safety) = &self.safety {
            calls.extend(quote!(.with_safety(::toolresult::tool::ToolSafety::#safety)));
        }
        if let Some(task) = &self.task {
            calls.extend(quote!(.with_task_support(::toolresult::tool::TaskSupport::#task)));
        }
        if self.blocking.is_some() {
            calls.extend(quote!(.blocking()));
        }
        if let Some(path) = &self.unexpected {
            calls.extend(quote!(.with_unexpected_message(#path)));
        }
        if let Some(path) = &self.approval {
            let approval = quote!(::toolresult::tool::Approval);
            calls.extend(if path.is_ident("always") {
                quote!(.with_approval(#approval::always()))
            } else if path.is_ident("never") {
                quote!(.with_approval(#approval::never()))
            } else {
                quote!(.with_approval(#approval::when(#path)))
            });
        }
        calls
    }

    /// The tool's timeout, `Option<Option<Duration>>`.
    pub(crate) fn timeout_tokens(&self) -> TokenStream {
        match self.timeout {
            None => quote!(::core::option::Option::None),
            Some((None, _)) => quote!(::core::option::Option::Some(::core::option::Option::None)),
            Some((Some(millis), _)) => quote!(::core::option::Option::Some(
                ::core::option::Option::Some(::core::time::Duration::from_millis(#millis))
            )),
        }
    }

    /// The tool's budget, `Option<Budget>`.
    pub(crate) fn budget_tokens(&self) -> TokenStream {
        match &self.budget {
            None => quote!(::core::option::Option::None),
            Some(expr) => quote!(::core::option::Option::Some(#expr)),
        }
    }
}

fn unknown() -> &'static str {
    "unknown `#[tool]` option: write `name = \"...\"`, `description = \"...\"`, `title = \"...\"`, `safety = ReadOnly`, `timeout = \"30s\"`, `budget = <Budget>`, `blocking`, `unexpected = <fn>`, `task = Optional` or `approval = always | never | <fn>`"
}

fn set<T>(slot: &mut Option<T>, value: T, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error("this `#[tool]` option is given twice: keep one"));
    }
    *slot = Some(value);
    Ok(())
}

/// `"30s"`, `"1500ms"`, `"2m"`, `"1h"` in milliseconds; `"none"` is no
/// timeout.
fn duration(lit: &LitStr) -> syn::Result<Option<u64>> {
    let text = lit.value();
    let text = text.trim();
    if text == "none" {
        return Ok(None);
    }
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let per = match unit.trim() {
        "ms" => Some(1),
        "s" => Some(1_000),
        "m" | "min" => Some(60_000),
        "h" => Some(3_600_000),
        _ => None,
    };
    match (number.parse::<u64>(), per) {
        (Ok(n), Some(per)) => n.checked_mul(per).map(Some).ok_or_else(|| {
            syn::Error::new(
                lit.span(),
                "this timeout is too long to be a `Duration` in milliseconds",
            )
        }),
        _ => Err(syn::Error::new(
            lit.span(),
            format!(
                "`{text}` is no timeout: write a whole number and a unit (`1500ms`, `30s`, `2m`, `1h`) or `none`"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::duration;
    use syn::LitStr;

    #[test]
    fn timeouts_read_with_their_unit() {
        let read = |s: &str| duration(&LitStr::new(s, proc_macro2::Span::call_site())).ok();
        assert_eq!(read("1500ms"), Some(Some(1500)));
        assert_eq!(read("30s"), Some(Some(30_000)));
        assert_eq!(read("2m"), Some(Some(120_000)));
        assert_eq!(read("1h"), Some(Some(3_600_000)));
        assert_eq!(read("none"), Some(None));
        assert_eq!(read("30"), None);
        assert_eq!(read("s"), None);
    }
}
