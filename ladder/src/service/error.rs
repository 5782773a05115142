//! What the service refuses, and why; the API turns each into a status and a message.

use crate::store::StoreError;

/// A refusal or a failure of the service.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// No token, or one the ladder does not know.
    #[error("no valid token: send 'Authorization: Bearer TOKEN'")]
    Unauthorized,
    /// The caller may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// Nothing of that name or id (or nothing the caller may see).
    #[error("{0}")]
    NotFound(String),
    /// A request the ladder cannot act on.
    #[error("{0}")]
    BadRequest(String),
    /// A name taken, or a state that does not allow it.
    #[error("{0}")]
    Conflict(String),
    /// The lease is not (or no longer) the caller's.
    #[error("the lease of job {0} is not yours (it expired, or the job went to another worker)")]
    LeaseLost(i64),
    /// A worker's result that does not hold (its log does not replay, or says something else).
    #[error("the result of job {job} is refused: {why}")]
    BadResult {
        /// The job.
        job: i64,
        /// Why.
        why: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An artifact: missing, or the store's files failed.
    #[error(transparent)]
    Artifact(#[from] crate::artifacts::ArtifactError),
    /// An upload the ladder does not take (its reason says why).
    #[error("the upload is refused: {0}")]
    Upload(crate::upload::UploadRefusal),
    /// A file of the ladder could not be read or written.
    #[error("the ladder's files: {0}")]
    Io(#[from] std::io::Error),
}
