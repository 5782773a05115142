//! A build job on a worker: the version's source fetched (by its hash) and copied into a
//! directory of its own, built by its language's recipe in the sandbox and checked
//! ([`build_and_check`](crate::build::build_and_check)). One build at a time per worker: builds
//! run as the worker's user, so two at once could read each other's sources.

use super::cache::{copy_tree, ensure};
use super::dirs::Dirs;
use crate::api::wire::BuildResultBody;
use crate::build::{BuildSandbox, build_and_check};
use crate::client::Client;
use crate::service::ClaimedJob;
use crate::spec::BuildSpec;
use base64::Engine;

/// One build at a time, across the worker's slots.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Builds and checks version `spec` of claimed job `job`; an error is the platform's.
pub(super) async fn build(
    client: &Client,
    dirs: &Dirs,
    job: &ClaimedJob,
    spec: &BuildSpec,
) -> Result<BuildResultBody, String> {
    let source = ensure(client, &dirs.cache, &spec.source, &job.build).await?;
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = dirs
        .builds
        .join(format!("{}-{}", job.id, crate::auth::new_lease()));
    let outcome = async {
        copy_tree(&source, &dir).map_err(|e| format!("cannot copy the source: {e}"))?;
        let hidden = [&dirs.cache, &dirs.jobs, &dirs.seats]
            .into_iter()
            .chain(&dirs.outside)
            .cloned()
            .collect();
        let (sandbox, warning) =
            BuildSandbox::resolve(spec.sandbox, hidden).map_err(|e| e.to_string())?;
        // A build runs as the worker's user: as root, only where bubblewrap takes every
        // capability away and hides what it must not read.
        if crate::bot_users::root() && !sandbox.sandbox.is_bwrap() {
            return Err(
                "a worker run as root builds only in bubblewrap, which is missing or does not work here"
                    .to_owned(),
            );
        }
        let outcome = build_and_check(spec, &dir, &job.build, &sandbox)
            .await
            .map_err(|e| e.to_string())?;
        Ok::<_, String>((outcome, warning))
    }
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    let (outcome, warning) = outcome?;
    let mut log = outcome.log;
    if let Some(warning) = warning {
        log = format!("{warning}\n{log}");
    }
    Ok(BuildResultBody {
        lease: job.lease.clone(),
        log,
        artifact: outcome
            .artifact
            .map(|bytes| base64::engine::general_purpose::STANDARD.encode(bytes)),
        run_command: outcome.ok.then_some(outcome.run_command),
        check: outcome.check.map(|c| c.report),
        passed: outcome.passed,
    })
}
