//! `Tap`: the client's transport, seen from inside: progress and logs are
//! routed as they arrive, in order, before the answer that follows them.
#![allow(deprecated)] // MCP's logging utility (SEP-2577) is still the 2025 revisions'.

use std::borrow::Cow;

use rmcp::ErrorData;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, JsonRpcError, JsonRpcVersion2_0, RequestId,
    ServerJsonRpcMessage, ServerNotification, ServerResult,
};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use super::routes::Routes;

/// A transport that routes each progress report and log message to its
/// call the moment it is read, then passes every message on.
///
/// rmcp hands each notification to a task of its own, which may run
/// after the answer that followed it has reached its call: routed in the
/// read loop instead, a report the server sent before its answer is with
/// its call before the answer is.
///
/// It also reads a server's answer to `server/discover` that is not a
/// discovery (a 2025 server answering every method it does not know with
/// an empty result) as the refusal it means, `method not found`: the
/// client then falls back to `initialize` rather than giving up.
pub(super) struct Tap<T> {
    pub(super) inner: T,
    pub(super) routes: Routes,
    pub(super) discover: Option<RequestId>,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Tap<T> {
    type Error = T::Error;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let ClientJsonRpcMessage::Request(request) = &item
            && matches!(request.request, ClientRequest::DiscoverRequest(_))
        {
            self.discover = Some(request.id.clone());
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        if let ServerJsonRpcMessage::Response(response) = &message
            && self.discover.as_ref() == Some(&response.id)
        {
            self.discover = None;
            if !matches!(response.result, ServerResult::DiscoverResult(_)) {
                return Some(ServerJsonRpcMessage::Error(JsonRpcError {
                    jsonrpc: JsonRpcVersion2_0,
                    id: Some(response.id.clone()),
                    error: ErrorData::method_not_found::<rmcp::model::DiscoverRequestMethod>(),
                }));
            }
        }
        if let ServerJsonRpcMessage::Notification(notification) = &message {
            match &notification.notification {
                ServerNotification::ProgressNotification(progress) => {
                    self.routes.progress(progress.params.clone());
                }
                ServerNotification::LoggingMessageNotification(log) => {
                    self.routes.log(&log.params);
                }
                _ => {}
            }
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use serde_json::{Value, json};

    use super::*;

    /// A transport whose server says what the test has it say.
    struct Scripted(VecDeque<ServerJsonRpcMessage>);

    impl Transport<RoleClient> for Scripted {
        type Error = std::io::Error;

        fn send(
            &mut self,
            _: TxJsonRpcMessage<RoleClient>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            std::future::ready(Ok(()))
        }

        async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
            self.0.pop_front()
        }

        async fn close(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    fn tap(said: &[Value]) -> Tap<Scripted> {
        let said = said
            .iter()
            .map(|message| serde_json::from_value(message.clone()).unwrap())
            .collect();
        Tap {
            inner: Scripted(said),
            routes: Routes::default(),
            discover: None,
        }
    }

    async fn exchange(tap: &mut Tap<Scripted>) -> Value {
        let discover: ClientJsonRpcMessage = serde_json::from_value(
            json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}),
        )
        .unwrap();
        tap.send(discover).await.unwrap();
        serde_json::to_value(tap.receive().await.unwrap()).unwrap()
    }

    #[tokio::test]
    async fn an_answer_to_discover_that_is_no_discovery_is_method_not_found() {
        let mut empty = tap(&[json!({"jsonrpc": "2.0", "id": 1, "result": {}})]);
        let read = exchange(&mut empty).await;
        assert_eq!(read["error"]["code"], -32601, "{read}");
        assert_eq!(read["id"], 1, "{read}");

        let discovery = json!({"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {},
            "ttlMs": 0, "cacheScope": "private"}});
        let mut modern = tap(&[discovery]);
        let read = exchange(&mut modern).await;
        assert_eq!(
            read["result"]["supportedVersions"],
            json!(["2026-07-28"]),
            "{read}"
        );

        // Another request's empty answer is left alone.
        let mut other = tap(&[json!({"jsonrpc": "2.0", "id": 2, "result": {}})]);
        let read = exchange(&mut other).await;
        assert_eq!(read["result"], json!({}), "{read}");
    }
}
