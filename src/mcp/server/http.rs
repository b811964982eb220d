//! `HttpSessions`: rmcp's in-memory sessions of streamable HTTP, where a
//! call whose client went away is cancelled.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::Stream;
use rmcp::model::{
    CancelledNotification, CancelledNotificationParam, ClientJsonRpcMessage, ClientNotification,
    GetExtensions as _, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

/// The [`reason`](CancelledNotificationParam::reason) of the cancellation
/// of a call whose client went away.
const GONE: &str = "the client disconnected";

/// The sessions of [`McpServer::streamable_http`](super::McpServer::streamable_http):
/// rmcp's [`LocalSessionManager`], where a `tools/call` whose response
/// stream the client dropped (its connection cut, its process gone) and
/// did not resume (`GET` with `Last-Event-ID`) within the grace period is
/// cancelled, as if the client had sent `notifications/cancelled`: the
/// tool's [`cancelled`](crate::tool::CallContext::cancelled) completes,
/// and no call runs on for nobody.
///
/// MCP asks a server not to read a disconnection as a cancellation,
/// because a client may resume the stream: the grace period is that
/// chance ([`McpServer::disconnect_grace`](super::McpServer::disconnect_grace)).
pub(crate) struct HttpSessions {
    inner: Arc<LocalSessionManager>,
    grace: Duration,
    /// The calls whose streams are watched, by session and rmcp's id of
    /// the HTTP request that carries them (the part after `/` of an event
    /// id), to find the call a resumed stream is about.
    calls: Arc<Mutex<Calls>>,
}

/// The calls watched, by session and rmcp's id of an HTTP request.
type Calls = HashMap<(SessionId, u64), Arc<Watch>>;

/// One call's response, while the client may still want it.
struct Watch {
    session: SessionId,
    request: RequestId,
    /// The response went out, or the call was cancelled.
    settled: AtomicBool,
    /// How many streams of the call are open (the first, and resumed ones).
    streams: AtomicUsize,
    /// rmcp's id of the HTTP request that carries the call, known from the
    /// first event of its stream (the priming event rmcp sends at once).
    http: OnceLock<u64>,
    /// Wakes a [`OwnStream::close`] waiting for [`http`](Self::http).
    known: tokio::sync::Notify,
}

/// A call's hold on its own response stream over a 2025 session, in its
/// request's extensions: the call may close the stream mid-call, and the
/// client resumes it (`GET` with `Last-Event-ID`), SEP-1699's polling.
#[derive(Clone)]
pub(super) struct OwnStream {
    watch: Arc<Watch>,
    sessions: Arc<LocalSessionManager>,
}

/// How long [`OwnStream::close`] waits for the stream's first event.
const FIRST_EVENT: Duration = Duration::from_secs(1);

impl OwnStream {
    /// Closes the stream, telling the client to come back after `retry`;
    /// what the call sends meanwhile is kept for the resumed stream.
    /// Whether it was closed: not when its first event never went out
    /// (rmcp's `sse_retry` off), or the session is gone.
    pub(super) async fn close(&self, retry: Duration) -> bool {
        let http = loop {
            let known = self.watch.known.notified();
            if let Some(http) = self.watch.http.get() {
                break *http;
            }
            if tokio::time::timeout(FIRST_EVENT, known).await.is_err() {
                return false;
            }
        };
        let handle = self
            .sessions
            .sessions
            .read()
            .await
            .get(&self.watch.session)
            .cloned();
        match handle {
            Some(handle) => handle.close_sse_stream(http, Some(retry)).await.is_ok(),
            None => false,
        }
    }
}

impl HttpSessions {
    pub(super) fn new(grace: Duration) -> Self {
        Self {
            inner: Arc::new(LocalSessionManager::default()),
            grace,
            calls: Arc::default(),
        }
    }

    fn watched<S>(&self, stream: S, watch: Arc<Watch>) -> Watched<S> {
        watch.streams.fetch_add(1, Ordering::SeqCst);
        Watched {
            stream: Box::pin(stream),
            watch,
            sessions: Arc::clone(&self.inner),
            calls: Arc::clone(&self.calls),
            grace: self.grace,
            ended: false,
        }
    }
}

impl std::fmt::Debug for HttpSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpSessions")
            .field("grace", &self.grace)
            .finish_non_exhaustive()
    }
}

/// A call's response stream: settles the call when its response passes,
/// and when dropped before that, cancels it unless a stream of the call
/// is open again by the end of the grace period.
struct Watched<S> {
    stream: Pin<Box<S>>,
    watch: Arc<Watch>,
    sessions: Arc<LocalSessionManager>,
    calls: Arc<Mutex<Calls>>,
    grace: Duration,
    /// The server ended the stream itself (a client may poll it again).
    ended: bool,
}

impl<S: Stream<Item = ServerSseMessage>> Stream for Watched<S> {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let polled = self.stream.as_mut().poll_next(cx);
        match &polled {
            Poll::Ready(Some(event)) => {
                if let Some(http) = event.event_id.as_deref().and_then(http_request_of) {
                    if self.watch.http.set(http).is_ok() {
                        self.watch.known.notify_waiters();
                    }
                    let key = (self.watch.session.clone(), http);
                    let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
                    if !self.watch.settled.load(Ordering::SeqCst) {
                        calls.entry(key).or_insert_with(|| Arc::clone(&self.watch));
                    }
                }
                if event
                    .message
                    .as_deref()
                    .is_some_and(|message| answers(message, &self.watch.request))
                {
                    self.watch.settle(&self.calls);
                }
            }
            Poll::Ready(None) => self.ended = true,
            Poll::Pending => {}
        }
        polled
    }
}

impl<S> Drop for Watched<S> {
    fn drop(&mut self) {
        let open = self.watch.streams.fetch_sub(1, Ordering::SeqCst) - 1;
        if self.ended || open > 0 || self.watch.settled.load(Ordering::SeqCst) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let watch = Arc::clone(&self.watch);
        let sessions = Arc::clone(&self.sessions);
        let calls = Arc::clone(&self.calls);
        let grace = self.grace;
        runtime.spawn(async move {
            tokio::time::sleep(grace).await;
            if watch.streams.load(Ordering::SeqCst) > 0 || !watch.settle(&calls) {
                return;
            }
            let params =
                CancelledNotificationParam::new(Some(watch.request.clone()), Some(GONE.to_owned()));
            let cancelled = ClientJsonRpcMessage::notification(
                ClientNotification::CancelledNotification(CancelledNotification::new(params)),
            );
            // A session already closed has cancelled its calls itself.
            let _ = sessions.accept_message(&watch.session, cancelled).await;
        });
    }
}

impl Watch {
    fn new(session: SessionId, request: RequestId, settled: bool) -> Self {
        Self {
            session,
            request,
            settled: AtomicBool::new(settled),
            streams: AtomicUsize::new(0),
            http: OnceLock::new(),
            known: tokio::sync::Notify::new(),
        }
    }

    /// Marks the call settled and forgets it; whether it was not already.
    fn settle(&self, calls: &Mutex<Calls>) -> bool {
        if self.settled.swap(true, Ordering::SeqCst) {
            return false;
        }
        let mut calls = calls.lock().unwrap_or_else(PoisonError::into_inner);
        calls.retain(|_, watch| !std::ptr::eq(Arc::as_ptr(watch), self));
        true
    }
}

/// rmcp's id of the HTTP request in an event id (`<index>/<request>`).
fn http_request_of(event_id: &str) -> Option<u64> {
    event_id.split_once('/')?.1.parse().ok()
}

/// Whether `message` is the response to `request`.
fn answers(message: &ServerJsonRpcMessage, request: &RequestId) -> bool {
    match message {
        ServerJsonRpcMessage::Response(response) => response.id == *request,
        ServerJsonRpcMessage::Error(error) => error.id.as_ref() == Some(request),
        ServerJsonRpcMessage::Request(_) | ServerJsonRpcMessage::Notification(_) => false,
    }
}

type Inner = LocalSessionManager;
type InnerError = <Inner as SessionManager>::Error;

impl SessionManager for HttpSessions {
    type Error = InnerError;
    type Transport = <Inner as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.inner.create_session().await
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        {
            let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
            calls.retain(|(session, _), _| session != id);
        }
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let mut message = message;
        let request = match &message {
            ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
            _ => None,
        };
        let watch = Arc::new(Watch::new(
            id.clone(),
            // Only a request has a response to wait for.
            request.clone().unwrap_or(RequestId::Number(0)),
            request.is_none(),
        ));
        if let ClientJsonRpcMessage::Request(request) = &mut message {
            request.request.extensions_mut().insert(OwnStream {
                watch: Arc::clone(&watch),
                sessions: Arc::clone(&self.inner),
            });
        }
        let stream = self.inner.create_stream(id, message).await?;
        Ok(self.watched(stream, watch))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let watch = http_request_of(&last_event_id).and_then(|http| {
            let calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
            calls.get(&(id.clone(), http)).cloned()
        });
        let stream = self.inner.resume(id, last_event_id).await?;
        // A stream of no call still watched (the standalone stream, or a
        // call settled) is passed on as it is.
        let watch =
            watch.unwrap_or_else(|| Arc::new(Watch::new(id.clone(), RequestId::Number(0), true)));
        Ok(self.watched(stream, watch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_http_request_of_an_event_id_is_after_its_slash() {
        assert_eq!(http_request_of("3/17"), Some(17));
        assert_eq!(http_request_of("3"), None);
        assert_eq!(http_request_of("3/x"), None);
    }
}
