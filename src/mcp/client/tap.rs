//! `Tap`: the client's transport, seen from inside: progress and logs are
//! routed as they arrive, in order, before the answer that follows them.
#![allow(deprecated)] // MCP's logging utility (SEP-2577) is still the 2025 revisions'.

use std::borrow::Cow;

use rmcp::model::{ServerJsonRpcMessage, ServerNotification};
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
pub(super) struct Tap<T> {
    pub(super) inner: T,
    pub(super) routes: Routes,
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
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
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
