//! What one tool function becomes: its argument type, the checks of its
//! types, and the expression that builds its tool.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Ident, ReturnType, Signature, Type};

use crate::docs;
use crate::options::Options;
use crate::params::{self, Param};

/// One tool, read from a function or a method.
pub(crate) struct ToolFn {
    /// The tool's name.
    pub(crate) name: String,
    /// Where the name comes from, for errors.
    pub(crate) name_span: Span,
    description: String,
    params: Vec<Param>,
    /// The argument type's name.
    args: Ident,
    /// Argument descriptions by parameter name.
    docs: Vec<(String, String)>,
    asynchronous: bool,
    output: ReturnType,
    pub(crate) options: Options,
}

impl ToolFn {
    /// Reads the tool of `sig` and its doc comment, taking what belongs to
    /// the argument type off the signature; `args` names its argument type.
    ///
    /// # Errors
    /// Any misuse of the attribute, at its span.
    pub(crate) fn read(
        sig: &mut Signature,
        attrs: &[Attribute],
        options: Options,
        args: Ident,
    ) -> syn::Result<Self> {
        if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
            return Err(syn::Error::new(
                sig.generics.span(),
                "a tool function cannot be generic: its types make the tool's schemas; write concrete types (one tool function per type)",
            ));
        }
        if let syn::Safety::Unsafe(unsafety) = &sig.safety {
            return Err(syn::Error::new(
                unsafety.span(),
                "a tool function is safe to call with any arguments the model sends: remove `unsafe` and check the arguments in the body",
            ));
        }
        if let Some(constness) = &sig.constness {
            return Err(syn::Error::new(
                constness.span(),
                "remove `const`: a tool function is called at run time",
            ));
        }
        if let Some(abi) = &sig.abi {
            return Err(syn::Error::new(
                abi.span(),
                "remove the `extern` ABI: a tool function is a Rust function",
            ));
        }
        let asynchronous = sig.asyncness.is_some();
        if asynchronous && let Some(span) = options.blocking {
            return Err(syn::Error::new(
                span,
                "`blocking` is for synchronous tools: an asynchronous tool awaits instead of blocking; remove it",
            ));
        }
        let docs = docs::read(attrs)?;
        let params = params::read(sig)?;
        let known = |name: &str| {
            params.iter().any(|param| match param {
                Param::Argument { ident, .. } => ident == name,
                Param::Context(Some(ident)) => ident == name,
                Param::Context(None) => false,
            })
        };
        for doc in &docs.arguments {
            if !known(&doc.name) {
                let names: Vec<String> = params
                    .iter()
                    .filter_map(|param| match param {
                        Param::Argument { ident, .. } => Some(format!("`{ident}`")),
                        Param::Context(_) => None,
                    })
                    .collect();
                let names = if names.is_empty() {
                    "it has none".to_owned()
                } else {
                    format!("its parameters are {}", names.join(", "))
                };
                return Err(syn::Error::new(
                    doc.span,
                    format!(
                        "the `# Arguments` entry `{}` names no parameter of this function ({names}): name a parameter, or remove the entry",
                        doc.name
                    ),
                ));
            }
        }
        let (name, name_span) = match &options.name {
            Some(lit) => (lit.value(), lit.span()),
            None => {
                let ident = sig.ident.to_string();
                let ident = ident.strip_prefix("r#").unwrap_or(&ident).to_owned();
                if let Some(problem) = crate::name::problem(&ident) {
                    return Err(syn::Error::new(
                        sig.ident.span(),
                        format!(
                            "{problem}: rename the function, or write `#[tool(name = \"...\")]`"
                        ),
                    ));
                }
                (ident, sig.ident.span())
            }
        };
        let description = match &options.description {
            Some(lit) => lit.value(),
            None if docs.description.is_empty() => {
                return Err(syn::Error::new(
                    sig.ident.span(),
                    "a tool's description is its doc comment: write `/// What it does.` above the function, or `#[tool(description = \"...\")]`",
                ));
            }
            None => docs.description,
        };
        Ok(Self {
            name,
            name_span,
            description,
            params,
            args,
            docs: docs
                .arguments
                .into_iter()
                .map(|doc| (doc.name, doc.text))
                .collect(),
            asynchronous,
            output: sig.output.clone(),
            options,
        })
    }

    /// The argument type: a struct deriving `Deserialize` and `JsonSchema`
    /// through the crate's re-exports, a field per argument, its doc from
    /// the `# Arguments` section.
    pub(crate) fn args_struct(&self) -> TokenStream {
        let args = &self.args;
        let fields = self.params.iter().filter_map(|param| {
            let Param::Argument { ident, ty, attrs } = param else {
                return None;
            };
            let doc = self
                .docs
                .iter()
                .find(|(name, _)| ident == name)
                .map(|(_, text)| {
                    let text = format!(" {text}");
                    quote!(#[doc = #text])
                });
            Some(quote!(#doc #(#attrs)* #ident: #ty,))
        });
        quote! {
            #[derive(::toolresult::__private::serde::Deserialize, ::toolresult::__private::schemars::JsonSchema)]
            #[serde(crate = "::toolresult::__private::serde")]
            #[schemars(crate = "::toolresult::__private::schemars")]
            #[allow(non_camel_case_types)]
            struct #args { #(#fields)* }
        }
    }

    /// Statements that hold each argument and the return type to what a
    /// tool takes, each failing at the type's own span.
    pub(crate) fn checks(&self) -> TokenStream {
        let mut checks = TokenStream::new();
        for param in &self.params {
            if let Param::Argument { ty, .. } = param {
                checks.extend(quote_spanned! {ty.span()=>
                    ::toolresult::__private::argument::<#ty>();
                });
            }
        }
        if let ReturnType::Type(_, ty) = &self.output
            && !matches!(**ty, Type::ImplTrait(_))
        {
            checks.extend(quote_spanned! {ty.span()=>
                ::toolresult::__private::returns::<#ty>();
            });
        }
        checks
    }

    /// The expression that builds the tool. `callee` is the function to
    /// call (`get_weather`, `Self::user`); `this` is the shared receiver,
    /// an `Arc<Self>` the method is called on, for a method.
    pub(crate) fn build(&self, callee: &TokenStream, this: Option<&Ident>) -> TokenStream {
        let args = &self.args;
        let name = &self.name;
        let description = &self.description;
        let fields = self.params.iter().filter_map(|param| match param {
            Param::Argument { ident, .. } => Some(ident),
            Param::Context(_) => None,
        });
        let cx = format_ident!("__toolresult_cx");
        let passed = self.params.iter().map(|param| match param {
            Param::Argument { ident, .. } => quote!(#ident),
            Param::Context(_) => quote!(#cx),
        });
        let receiver = this.map(|this| quote!(&#this,));
        let has_context = self.params.iter().any(|p| matches!(p, Param::Context(_)));
        let builders = self.options.builders();
        let timeout = self.options.timeout_tokens();
        let budget = self.options.budget_tokens();
        let call = quote!(__toolresult_fn(#receiver #(#passed),*));
        // The function is named before the arguments are unpacked: an
        // argument named like the function must not shadow it.
        let unpack =
            quote!(let __toolresult_fn = #callee; let #args { #(#fields),* } = __toolresult_args;);
        if self.asynchronous {
            let context =
                has_context.then(|| quote!(, #cx: ::toolresult::tool::CallContext<'static>));
            let body = match this {
                // The future owns its share of the receiver.
                Some(this) => quote! {
                    let #this = ::std::sync::Arc::clone(&#this);
                    #unpack
                    async move { #call.await }
                },
                None => quote!(#unpack #call),
            };
            let clone = this.map(|this| quote!(let #this = ::std::sync::Arc::clone(self);));
            quote! {{
                #clone
                ::toolresult::__private::async_function(
                    #name,
                    #description,
                    #timeout,
                    #budget,
                    move |__toolresult_args: #args #context| { #body },
                ) #builders
            }}
        } else {
            let context = has_context.then(|| quote!(, #cx: &::toolresult::tool::CallContext<'_>));
            let clone = this.map(|this| quote!(let #this = ::std::sync::Arc::clone(self);));
            quote! {{
                #clone
                ::toolresult::__private::function(
                    #name,
                    #description,
                    #timeout,
                    #budget,
                    move |__toolresult_args: #args #context| { #unpack #call },
                ) #builders
            }}
        }
    }
}
