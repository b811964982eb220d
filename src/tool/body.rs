//! The bodies a typed tool is made of: a function of its arguments, or of
//! its arguments and its [`CallContext`].
//!
//! The traits are public (they bound [`function`](super::function)) but
//! cannot be named outside the crate: what implements them is said in that
//! function's docs.

use std::future::Future;

use super::{CallContext, ToolReturn};

/// Marks a body that takes the arguments alone.
#[derive(Debug)]
pub struct ArgsOnly;

/// Marks a body that takes the arguments and the call's context.
#[derive(Debug)]
pub struct WithContext;

/// The kind of a [`FunctionTool`](super::FunctionTool) whose body is a
/// synchronous function ([`function`](super::function)).
#[derive(Debug)]
pub struct SyncFn<M>(std::marker::PhantomData<M>);

/// The kind of a [`FunctionTool`](super::FunctionTool) whose body is an
/// asynchronous function (one returning a future).
#[derive(Debug)]
pub struct AsyncFn<M>(std::marker::PhantomData<M>);

/// A synchronous tool body: `Fn(Args) -> R` or
/// `Fn(Args, &CallContext) -> R`.
pub trait SyncBody<Args, Marker>: Send + Sync {
    /// What the body returns.
    type Output: ToolReturn;

    /// Runs the body.
    fn run(&self, args: Args, cx: &CallContext<'_>) -> Self::Output;
}

impl<Args, R, F> SyncBody<Args, (ArgsOnly, Args)> for F
where
    R: ToolReturn,
    F: Fn(Args) -> R + Send + Sync,
{
    type Output = R;

    #[inline]
    fn run(&self, args: Args, _: &CallContext<'_>) -> R {
        self(args)
    }
}

impl<Args, R, F> SyncBody<Args, (WithContext, Args)> for F
where
    R: ToolReturn,
    F: Fn(Args, &CallContext<'_>) -> R + Send + Sync,
{
    type Output = R;

    #[inline]
    fn run(&self, args: Args, cx: &CallContext<'_>) -> R {
        self(args, cx)
    }
}

/// An asynchronous tool body: `Fn(Args) -> Fut` or
/// `Fn(Args, CallContext<'static>) -> Fut`, where `Fut` is a `Send` future
/// of a [`ToolReturn`]. The context is owned: the future may outlive the
/// call that made it.
pub trait AsyncBody<Args, Marker>: Send + Sync {
    /// The body's future.
    type Future: Future<Output: ToolReturn> + Send;

    /// Starts the body. Only a body that takes the context makes it owned
    /// (copying the call's id and tool name).
    fn start(&self, args: Args, cx: &CallContext<'_>) -> Self::Future;
}

impl<Args, Fut, F> AsyncBody<Args, (ArgsOnly, Args)> for F
where
    Fut: Future<Output: ToolReturn> + Send,
    F: Fn(Args) -> Fut + Send + Sync,
{
    type Future = Fut;

    #[inline]
    fn start(&self, args: Args, _: &CallContext<'_>) -> Fut {
        self(args)
    }
}

impl<Args, Fut, F> AsyncBody<Args, (WithContext, Args)> for F
where
    Fut: Future<Output: ToolReturn> + Send,
    F: Fn(Args, CallContext<'static>) -> Fut + Send + Sync,
{
    type Future = Fut;

    #[inline]
    fn start(&self, args: Args, cx: &CallContext<'_>) -> Fut {
        self(args, cx.clone().into_owned())
    }
}

/// A tool body, synchronous ([`SyncBody`]) or asynchronous ([`AsyncBody`]):
/// what [`function`](super::function) takes. The kind is inferred from what
/// the body returns: a future makes an asynchronous tool.
pub trait Body<Args, Kind>: Send + Sync {
    /// What the body returns, or what its future resolves to.
    type Output: ToolReturn;
}

impl<Args, M, F: SyncBody<Args, M>> Body<Args, SyncFn<M>> for F {
    type Output = F::Output;
}

impl<Args, M, F: AsyncBody<Args, M>> Body<Args, AsyncFn<M>> for F {
    type Output = <F::Future as Future>::Output;
}
