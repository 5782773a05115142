//! A refusal as HTTP: its status and `{"error": "…"}`. A failure of the server itself says
//! only that (its cause goes to the server's log).

use crate::artifacts::ArtifactError;
use crate::service::ServiceError;
use crate::store::StoreError;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

impl ServiceError {
    /// The HTTP status of this refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            ServiceError::Unauthorized => StatusCode::UNAUTHORIZED,
            ServiceError::Forbidden(_) => StatusCode::FORBIDDEN,
            ServiceError::NotFound(_) => StatusCode::NOT_FOUND,
            ServiceError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServiceError::Conflict(_)
            | ServiceError::LeaseLost(_)
            | ServiceError::Store(StoreError::Taken(_)) => StatusCode::CONFLICT,
            ServiceError::BadResult { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ServiceError::Upload(refusal) if refusal.is_platform() => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ServiceError::Upload(_) => StatusCode::BAD_REQUEST,
            ServiceError::Artifact(ArtifactError::Missing(_) | ArtifactError::BadHash(_)) => {
                StatusCode::NOT_FOUND
            }
            ServiceError::Artifact(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ServiceError::Store(_) | ServiceError::Io(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ServiceError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
            eprintln!("ladder: internal error: {self}");
            "the server failed; its log says why".to_owned()
        } else {
            self.to_string()
        };
        (status, Json(super::wire::ErrorBody { error: message })).into_response()
    }
}
