//! A doc comment, read as a tool's description and, from its rustdoc
//! `# Arguments` section, its arguments' descriptions.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// One argument's entry in the `# Arguments` section.
pub(crate) struct ArgumentDoc {
    /// The parameter it names.
    pub(crate) name: String,
    /// What it says, its lines joined by spaces.
    pub(crate) text: String,
    /// Where it is, for an error.
    pub(crate) span: Span,
}

/// A doc comment split in two.
pub(crate) struct Docs {
    /// All but the `# Arguments` section, trimmed.
    pub(crate) description: String,
    /// The entries of the `# Arguments` section, in order.
    pub(crate) arguments: Vec<ArgumentDoc>,
}

/// The lines of the `#[doc = "..."]` attributes (what `///` and `/** */`
/// comments are), each with the span of its attribute.
fn lines(attrs: &[Attribute]) -> Vec<(String, Span)> {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Meta::NameValue(nv) = &attr.meta
            && nv.path.is_ident("doc")
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &nv.value
        {
            for line in text.value().split('\n') {
                let line = line.strip_suffix('\r').unwrap_or(line);
                // `/// text` is `#[doc = " text"]`: the one space is the
                // comment's, not the text's.
                let line = line.strip_prefix(' ').unwrap_or(line);
                lines.push((line.to_owned(), attr.span()));
            }
        }
    }
    lines
}

/// The heading a line is, if it is one (`# Arguments` is `Arguments`).
fn heading(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    trimmed
        .starts_with('#')
        .then(|| trimmed.trim_start_matches('#').trim())
}

/// An entry's first line, `` * `city` - the city `` (or `-` for `*`, and
/// `:` or a dash for the `-` after the name), as its name and text; `None`
/// when the line is no list item.
fn entry(line: &str) -> Option<Result<(String, String), ()>> {
    let item = line
        .trim_start()
        .strip_prefix("* ")
        .or_else(|| line.trim_start().strip_prefix("- "))?;
    let Some(rest) = item.trim_start().strip_prefix('`') else {
        return Some(Err(()));
    };
    let Some((name, text)) = rest.split_once('`') else {
        return Some(Err(()));
    };
    let text = text.trim_start();
    let text = ["-", ":", "–", "—"]
        .iter()
        .find_map(|sep| text.strip_prefix(sep))
        .unwrap_or(text);
    Some(Ok((name.trim().to_owned(), text.trim().to_owned())))
}

/// Reads the doc comment among `attrs`.
///
/// # Errors
/// A list item of the `# Arguments` section that does not start with a
/// parameter's name in backticks.
pub(crate) fn read(attrs: &[Attribute]) -> syn::Result<Docs> {
    let mut description: Vec<String> = Vec::new();
    let mut arguments: Vec<ArgumentDoc> = Vec::new();
    let mut in_arguments = false;
    for (line, span) in lines(attrs) {
        if let Some(title) = heading(&line) {
            in_arguments = title.eq_ignore_ascii_case("arguments");
            if in_arguments {
                continue;
            }
        }
        if !in_arguments {
            description.push(line);
            continue;
        }
        match entry(&line) {
            Some(Ok((name, text))) => arguments.push(ArgumentDoc { name, text, span }),
            Some(Err(())) => {
                return Err(syn::Error::new(
                    span,
                    "an `# Arguments` entry names its parameter in backticks: write `* `name` - what it is`",
                ));
            }
            None => {
                // A continuation of the entry above, or a blank line.
                let more = line.trim();
                if let Some(last) = arguments.last_mut()
                    && !more.is_empty()
                {
                    if !last.text.is_empty() {
                        last.text.push(' ');
                    }
                    last.text.push_str(more);
                }
            }
        }
    }
    let description = description.join("\n").trim().to_owned();
    Ok(Docs {
        description,
        arguments,
    })
}

#[cfg(test)]
mod tests {
    use super::read;
    use syn::parse_quote;

    #[test]
    fn the_arguments_section_is_split_off() {
        let item: syn::ItemFn = parse_quote! {
            /// Current weather for a city.
            ///
            /// Uses the met service.
            ///
            /// # Arguments
            /// * `city` - the city to look up
            /// * `days`: how many days ahead,
            ///   at most 7
            ///
            /// # Errors
            /// An unknown city.
            fn f() {}
        };
        let docs = read(&item.attrs).unwrap();
        assert_eq!(
            docs.description,
            "Current weather for a city.\n\nUses the met service.\n\n# Errors\nAn unknown city."
        );
        let args: Vec<_> = docs
            .arguments
            .iter()
            .map(|a| (a.name.as_str(), a.text.as_str()))
            .collect();
        assert_eq!(
            args,
            [
                ("city", "the city to look up"),
                ("days", "how many days ahead, at most 7")
            ]
        );
    }

    #[test]
    fn an_entry_without_a_name_is_refused() {
        let item: syn::ItemFn = parse_quote! {
            /// Weather.
            ///
            /// # Arguments
            /// * city - the city
            fn f() {}
        };
        let err = read(&item.attrs).err().unwrap();
        assert!(err.to_string().contains("names its parameter in backticks"));
    }
}
