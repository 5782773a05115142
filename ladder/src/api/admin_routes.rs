//! The routes of a class's teacher (the admin): accounts from a class list, tokens given anew,
//! the deadline, versions removed, spoiled matches played again, and the final tournament
//! (and the public view of it). Each a few lines around one call of the service.

use super::caller::Caller;
use super::wire::{DeadlineBody, JobQueued};
use crate::service::{
    ClassImport, FinalRequest, FinalStarted, FinalView, Handed, Ladder, ServiceError, TokenReset,
};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};

/// The teacher's routes (and `GET /api/v1/final`), to merge into the API's.
pub fn routes() -> Router<Ladder> {
    Router::new()
        .route("/api/v1/final", get(final_view))
        .route("/api/v1/admin/class", post(import_class))
        .route("/api/v1/admin/accounts/{name}/token", post(reset_token))
        .route("/api/v1/admin/deadline", post(deadline))
        .route(
            "/api/v1/admin/bots/{bot}/versions/{number}/remove",
            post(remove_version),
        )
        .route("/api/v1/admin/matches/{id}/again", post(play_again))
        .route("/api/v1/admin/jobs/{job}/again", post(retry_job))
        .route("/api/v1/admin/final", post(start_final))
        .route("/api/v1/admin/final/export", get(final_export))
        .route("/api/v1/admin/final/grades.csv", get(final_grades))
}

async fn final_view(State(ladder): State<Ladder>) -> Result<Json<FinalView>, ServiceError> {
    ladder
        .final_view()
        .await?
        .map(Json)
        .ok_or_else(|| ServiceError::NotFound("no final tournament yet".into()))
}

async fn import_class(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Json(body): Json<ClassImport>,
) -> Result<(StatusCode, Json<Vec<Handed>>), ServiceError> {
    let handed = ladder.import_class(&caller, &body).await?;
    Ok((StatusCode::CREATED, Json(handed)))
}

async fn reset_token(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(name): Path<String>,
    Json(body): Json<TokenReset>,
) -> Result<Json<Handed>, ServiceError> {
    Ok(Json(ladder.reset_token(&caller, &name, &body).await?))
}

async fn deadline(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Json(body): Json<DeadlineBody>,
) -> Result<StatusCode, ServiceError> {
    ladder.set_deadline(&caller, body.at_ms).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn remove_version(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path((bot, number)): Path<(String, i64)>,
) -> Result<StatusCode, ServiceError> {
    ladder.remove_version(&caller, &bot, number).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn play_again(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(id): Path<i64>,
) -> Result<(StatusCode, Json<JobQueued>), ServiceError> {
    let job = ladder.play_again(&caller, id).await?;
    Ok((StatusCode::CREATED, Json(JobQueued { job })))
}

async fn retry_job(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Path(id): Path<i64>,
) -> Result<(StatusCode, Json<JobQueued>), ServiceError> {
    let job = ladder.retry_job(&caller, id).await?;
    Ok((StatusCode::CREATED, Json(JobQueued { job })))
}

async fn start_final(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
    Json(body): Json<FinalRequest>,
) -> Result<(StatusCode, Json<FinalStarted>), ServiceError> {
    let started = ladder.start_final(&caller, &body).await?;
    Ok((StatusCode::CREATED, Json(started)))
}

async fn final_export(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
) -> Result<Vec<u8>, ServiceError> {
    ladder.final_archive(&caller).await
}

async fn final_grades(
    State(ladder): State<Ladder>,
    Caller(caller): Caller,
) -> Result<impl IntoResponse, ServiceError> {
    let sheet = ladder.final_grades(&caller).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"grades.csv\"",
            ),
        ],
        sheet,
    ))
}
