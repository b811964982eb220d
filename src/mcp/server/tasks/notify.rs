//! The extension's status notifications (`notifications/tasks`): a task's
//! new status, pushed to the session of the request that moved it.

use rmcp::RoleServer;
use rmcp::model::{DetailedTask, Notification, ServerNotification, TaskStatusNotificationParams};
use rmcp::service::RequestContext;

use super::super::stateless;
use super::takes_tasks;

/// Tells the client of `context` that its task is now `task` (the task as
/// `tasks/get` reads it), when the client declared the extension on a
/// 2025 session. A 2026-07-28 request has no session to push to (its
/// stream ends with its answer; the extension routes these through
/// `subscriptions/listen`, which this server does not serve): its client
/// polls `tasks/get`.
pub(super) async fn status(context: &RequestContext<RoleServer>, task: &DetailedTask) {
    if stateless::is_stateless(context) || !takes_tasks(context) {
        return;
    }
    let params = TaskStatusNotificationParams::new(task.clone());
    let notification = ServerNotification::TaskStatusNotification(Notification::new(params));
    // A client gone cannot be told; `tasks/get` still reads the task.
    let _ = context.peer.send_notification(notification).await;
}
