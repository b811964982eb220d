//! A person approves the dangerous calls before they run.
//!
//! `deploy` and `delete` need approval (declared on the tools with
//! `#[tool(approval = always)]`); `status` does not. The model asks for
//! all three; the toolbox runs `status` and parks the other two before
//! their bodies run, each on an approval request showing the tool, the
//! arguments as the model sent them and why. A person approves `deploy`
//! with an edit (staging, not production) and rejects `delete` with a
//! message the model reads; each call is resumed on its own.
//!
//! To refuse made-up, altered, replayed or another call's answers (an
//! answer that comes back from a browser, a chat, another service), give
//! the toolbox a key: `Toolbox::new().seal_requests(keyring)` (feature
//! `seal`). Without one, any answer whose id matches is taken.
//!
//! ```sh
//! cargo run --example approval
//! ```

use serde_json::{Map, json};
use toolresult::canonical::Answer;
use toolresult::provider::{OpenAiChat, PartPolicy, Provider};
use toolresult::toolbox::{Toolbox, Turn};

/// Deploys a service to an environment.
///
/// # Arguments
/// * `service` - the service to deploy
/// * `env` - `staging` or `production`
#[toolresult::tool(approval = always)]
fn deploy(service: String, env: String) -> String {
    format!("deployed {service} to {env}")
}

/// Deletes a database table.
///
/// # Arguments
/// * `table` - the table to drop
#[toolresult::tool(approval = always)]
fn delete(table: String) -> String {
    format!("dropped {table}")
}

/// The state of a service.
///
/// # Arguments
/// * `service` - the service to look at
#[toolresult::tool(safety = ReadOnly)]
fn status(service: String) -> String {
    format!("{service} is healthy")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut toolbox = Toolbox::new();
    toolbox.register(deploy::tool())?;
    toolbox.register(delete::tool())?;
    toolbox.register(status::tool())?;

    let assistant = json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "status", "arguments": r#"{"service":"api"}"#}},
        {"id": "c2", "type": "function", "function": {"name": "deploy", "arguments": r#"{"service":"api","env":"production"}"#}},
        {"id": "c3", "type": "function", "function": {"name": "delete", "arguments": r#"{"table":"users"}"#}}
    ]});
    let mut outcomes = toolbox
        .run(OpenAiChat::read_calls(&assistant.to_string())?)
        .await;
    assert_eq!(outcomes[0].lowered.result.output, "api is healthy");

    // What the person is shown.
    let deploy_request = outcomes[1]
        .lowered
        .result
        .pending_request()
        .ok_or("deploy ran")?;
    let delete_request = outcomes[2]
        .lowered
        .result
        .pending_request()
        .ok_or("delete ran")?;
    println!("asked: {}", deploy_request.prompt);
    println!(
        "        arguments {}",
        deploy_request
            .data
            .as_ref()
            .map_or(json!(null), |d| d["arguments"].clone())
    );
    println!("asked: {}", delete_request.prompt);

    // Approved, with the environment edited: checked against the tool's
    // input schema before the body runs.
    let staging = Map::from_iter([
        ("service".to_owned(), json!("api")),
        ("env".to_owned(), json!("staging")),
    ]);
    let turn = Turn::default().resume(
        &outcomes[1],
        Answer::approve_edited(&deploy_request, staging),
    )?;
    let mut deployed = toolbox.run(turn).await;
    assert_eq!(deployed[0].lowered.result.output, "deployed api to staging");

    // Rejected, with a message for the model: an error result, never retried.
    let answer = Answer::reject(
        &delete_request,
        "users is the production table; archive it instead",
    );
    let mut deleted = toolbox
        .run(Turn::default().resume(&outcomes[2], answer)?)
        .await;
    assert!(deleted[0].lowered.result.is_error);

    // The model's next message: each call answered under its own id.
    let answered = [outcomes.remove(0), deployed.remove(0), deleted.remove(0)];
    let reply = OpenAiChat::reply(&answered, PartPolicy::Strict)?;
    println!("{}", serde_json::to_string_pretty(&reply)?);
    Ok(())
}
