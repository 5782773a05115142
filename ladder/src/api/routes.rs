//! The routes: one handler per endpoint, each a few lines around one call of the service.

use super::caller::{Caller, MaybeCaller};
use super::wire::{
    Accepted, AccountBody, BuildResultBody, GiveBackBody, GroupQuery, LadderInfo, LeaseBody,
    LeaseExtended, LimitQuery, MatchResultBody, SeenLog, SubmitQuery, TokenBody, WindowQuery,
};
use crate::service::{
    BotView, BuildReport, ChallengeQueued, ChallengeRequest, ChallengesView, ClaimedJob, Ladder,
    MatchReport, MatchView, QueueView, ServiceError, StandingRow, Submitted, VersionStatus,
};
use crate::store::Role;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;

/// The most a worker's report may hold, in bytes as sent (a compressed log in base64 and the
/// seats' stderr).
pub const REPORT_BYTES: usize = 96 << 20;

type Answer<T> = Result<Json<T>, ServiceError>;

/// The API's routes over `ladder`.
pub fn router(ladder: Ladder) -> Router {
    let upload_limit = ladder.config().build.upload_bytes as usize;
    Router::new()
        .route("/api/v1/ladder", get(info))
        .route("/api/v1/standings", get(standings))
        .route("/api/v1/queue", get(queue_view))
        .route(
            "/api/v1/bots/{bot}/versions",
            post(submit).layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route("/api/v1/bots/{bot}/versions/{number}", get(version))
        .route("/api/v1/bots/{bot}", get(bot_view))
        .route("/api/v1/bots/{bot}/matches", get(matches_of))
        .route("/api/v1/matches", get(latest_matches))
        .route("/api/v1/matches/{id}", get(match_view))
        .route("/api/v1/matches/{id}/log", get(match_log))
        .route("/api/v1/matches/{id}/stderr/{seat}", get(match_stderr))
        .route("/api/v1/matches/{id}/bundle", get(match_bundle))
        .route("/api/v1/challenges", get(challenges_of).post(challenge))
        .route("/api/v1/jobs/claim", post(claim))
        .route("/api/v1/jobs/{job}/heartbeat", post(heartbeat))
        .route("/api/v1/jobs/{job}/give-back", post(give_back))
        .route(
            "/api/v1/jobs/{job}/match-result",
            post(match_result).layer(DefaultBodyLimit::max(REPORT_BYTES)),
        )
        .route(
            "/api/v1/jobs/{job}/build-result",
            post(build_result).layer(DefaultBodyLimit::max(REPORT_BYTES)),
        )
        .route("/api/v1/artifacts/{hash}", get(artifact))
        .route("/api/v1/admin/accounts", post(add_account))
        .route("/api/v1/admin/pause", post(pause))
        .route("/api/v1/admin/resume", post(resume))
        .route("/api/v1/admin/export", get(export))
        .route("/api/v1/admin/freeze", post(freeze))
        .route("/api/v1/admin/thaw", post(thaw))
        .route("/api/v1/admin/bots/{bot}/remove", post(remove))
        .merge(super::admin_routes::routes())
        .layer(DefaultBodyLimit::max(64 << 10))
        .with_state(ladder)
}

async fn info(State(ladder): State<Ladder>) -> Answer<LadderInfo> {
    let config = ladder.config();
    Ok(Json(LadderInfo {
        game: config.game.clone(),
        min_players: config.min_players,
        max_players: config.max_players,
        paused: ladder.paused().await?,
        frozen: ladder.frozen().await?,
        upload_bytes: config.build.upload_bytes,
        matches: ladder.store().match_count().await?,
        referee: crate::spec::REFEREE_VERSION.to_owned(),
        deadline_ms: ladder.deadline().await?,
    }))
}

async fn standings(
    State(ladder): State<Ladder>,
    Query(query): Query<GroupQuery>,
) -> Answer<Vec<StandingRow>> {
    Ok(Json(ladder.standings(query.group()).await?))
}

async fn submit(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(bot): Path<String>,
    Query(query): Query<SubmitQuery>,
    body: Bytes,
) -> Result<(StatusCode, Json<Submitted>), ServiceError> {
    let submitted = ladder.submit(&caller, &bot, &query.lang, &body).await?;
    let status = if submitted.new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(submitted)))
}

async fn version(
    State(ladder): State<Ladder>,
    MaybeCaller(caller): MaybeCaller,
    Path((bot, number)): Path<(String, i64)>,
) -> Answer<VersionStatus> {
    Ok(Json(
        ladder.version_status(caller.as_ref(), &bot, number).await?,
    ))
}

async fn claim(State(ladder): State<Ladder>, Caller(caller): Caller) -> Response {
    match ladder.claim(&caller).await {
        Ok(Some(job)) => Json::<ClaimedJob>(job).into_response(),
        Ok(None) => StatusCode::NO_CONTENT.into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

async fn heartbeat(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(job): Path<i64>,
    Json(body): Json<LeaseBody>,
) -> Answer<LeaseExtended> {
    let expires_ms = ladder.heartbeat(&caller, job, &body.lease).await?;
    Ok(Json(LeaseExtended { expires_ms }))
}

async fn give_back(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(job): Path<i64>,
    Json(body): Json<GiveBackBody>,
) -> Result<StatusCode, ServiceError> {
    ladder
        .give_back(&caller, job, &body.lease, &body.error)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

fn base64(job: i64, what: &str, text: &str) -> Result<Vec<u8>, ServiceError> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| ServiceError::BadResult {
            job,
            why: format!("{what} is not base64 ({e})"),
        })
}

async fn match_result(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(job): Path<i64>,
    Json(body): Json<MatchResultBody>,
) -> Answer<Accepted> {
    let record = serde_json::from_value(body.record).map_err(|e| ServiceError::BadResult {
        job,
        why: format!("its record is not a match record ({e})"),
    })?;
    let stderr = body
        .stderr
        .iter()
        .map(|s| s.as_deref().map(|s| base64(job, "a stderr", s)).transpose())
        .collect::<Result<_, _>>()?;
    let report = MatchReport {
        record,
        log_gz: base64(job, "the log", &body.log_gz)?,
        stderr,
    };
    let id = ladder
        .report_match(&caller, job, &body.lease, report)
        .await?;
    Ok(Json(Accepted {
        match_id: Some(id),
        state: None,
    }))
}

async fn build_result(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(job): Path<i64>,
    Json(body): Json<BuildResultBody>,
) -> Answer<Accepted> {
    let built = match (&body.artifact, &body.run_command) {
        (Some(artifact), Some(command)) => {
            Some((base64(job, "the artifact", artifact)?, command.clone()))
        }
        _ => None,
    };
    let report = BuildReport {
        log: body.log,
        built,
        check: body.check,
        passed: body.passed,
    };
    let state = ladder
        .report_build(&caller, job, &body.lease, report)
        .await?;
    Ok(Json(Accepted {
        match_id: None,
        state: Some(state.as_str().to_owned()),
    }))
}

async fn artifact(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(hash): Path<String>,
) -> Result<Vec<u8>, ServiceError> {
    ladder.artifact(&caller, &hash).await
}

async fn add_account(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Json(body): Json<AccountBody>,
) -> Result<(StatusCode, Json<TokenBody>), ServiceError> {
    let role = Role::parse(&body.role).ok_or_else(|| {
        ServiceError::BadRequest(format!(
            "a role is owner, worker or admin; not {:?}",
            body.role.chars().take(40).collect::<String>()
        ))
    })?;
    let token = ladder.add_account(&caller, &body.name, role).await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenBody {
            name: body.name,
            role: role.as_str().to_owned(),
            token,
        }),
    ))
}

async fn pause(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
) -> Result<StatusCode, ServiceError> {
    ladder.set_paused(&caller, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn resume(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
) -> Result<StatusCode, ServiceError> {
    ladder.set_paused(&caller, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn remove(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(bot): Path<String>,
) -> Result<StatusCode, ServiceError> {
    ladder.remove_bot(&caller, &bot).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn queue_view(
    State(ladder): State<Ladder>,
    MaybeCaller(caller): MaybeCaller,
) -> Answer<QueueView> {
    Ok(Json(ladder.queue_view(caller.as_ref()).await?))
}

async fn bot_view(
    State(ladder): State<Ladder>,
    MaybeCaller(caller): MaybeCaller,
    Path(bot): Path<String>,
) -> Answer<BotView> {
    Ok(Json(ladder.bot_view(caller.as_ref(), &bot).await?))
}

async fn matches_of(
    State(ladder): State<Ladder>,
    Path(bot): Path<String>,
    Query(query): Query<LimitQuery>,
) -> Answer<Vec<MatchView>> {
    Ok(Json(
        ladder.matches_of(&bot, query.limit.unwrap_or(50)).await?,
    ))
}

async fn latest_matches(
    State(ladder): State<Ladder>,
    Query(query): Query<LimitQuery>,
) -> Answer<Vec<MatchView>> {
    Ok(Json(
        ladder.latest_matches(query.limit.unwrap_or(50)).await?,
    ))
}

async fn match_view(State(ladder): State<Ladder>, Path(id): Path<i64>) -> Answer<MatchView> {
    Ok(Json(ladder.match_view(id).await?))
}

async fn match_log(
    State(ladder): State<Ladder>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<i64>,
) -> Answer<SeenLog> {
    Ok(Json(SeenLog::of(
        &ladder.match_seen(caller.as_ref(), id).await?,
    )))
}

async fn match_stderr(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path((id, seat)): Path<(i64, usize)>,
) -> Result<Vec<u8>, ServiceError> {
    ladder.match_stderr(&caller, id, seat).await
}

async fn challenges_of(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
) -> Answer<ChallengesView> {
    Ok(Json(ladder.challenges_of(&caller).await?))
}

async fn challenge(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Json(body): Json<ChallengeRequest>,
) -> Result<(StatusCode, Json<ChallengeQueued>), ServiceError> {
    Ok((
        StatusCode::CREATED,
        Json(ladder.challenge(&caller, &body).await?),
    ))
}

async fn match_bundle(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(id): Path<i64>,
) -> Answer<crate::reproduce::Bundle> {
    Ok(Json(ladder.match_bundle(&caller, id).await?))
}

async fn freeze(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
) -> Result<StatusCode, ServiceError> {
    ladder.set_frozen(&caller, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn thaw(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
) -> Result<StatusCode, ServiceError> {
    ladder.set_frozen(&caller, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn export(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Query(window): Query<WindowQuery>,
) -> Result<Vec<u8>, ServiceError> {
    let to = window.to.unwrap_or(i64::MAX);
    ladder
        .export_archive(&caller, window.from.unwrap_or(0), to)
        .await
}
