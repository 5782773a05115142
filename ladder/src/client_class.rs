//! The client's calls of a class's teacher (the admin): the API's `/api/v1/admin/class`,
//! `…/token`, `…/deadline`, a version removed, a spoiled match played again, and the final
//! tournament ([`crate::api::endpoints`]).

use crate::api::wire::{DeadlineBody, JobQueued};
use crate::client::{Client, ClientError};
use crate::service::{
    ClassImport, ClassMember, FinalRequest, FinalStarted, FinalView, Handed, Handout, TokenReset,
};
use reqwest::Method;

impl Client {
    /// Makes an owner account for each of `members`, each handed its token or a link.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn import_class(
        &self,
        members: Vec<ClassMember>,
        handout: Handout,
    ) -> Result<Vec<Handed>, ClientError> {
        let body = ClassImport { members, handout };
        self.json(
            self.request(Method::POST, "/api/v1/admin/class")
                .json(&body),
        )
        .await
    }

    /// Gives owner `name` a new token, or a link to one.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn reset_token(&self, name: &str, handout: Handout) -> Result<Handed, ClientError> {
        let path = format!("/api/v1/admin/accounts/{name}/token");
        self.json(
            self.request(Method::POST, &path)
                .json(&TokenReset { handout }),
        )
        .await
    }

    /// Sets the time submissions close (ms since the epoch), or lifts it.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn set_deadline(&self, at_ms: Option<i64>) -> Result<(), ClientError> {
        let body = DeadlineBody { at_ms };
        self.send(
            self.request(Method::POST, "/api/v1/admin/deadline")
                .json(&body),
        )
        .await
        .map(drop)
    }

    /// Removes version `number` of `bot` from play.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn remove_version(&self, bot: &str, number: i64) -> Result<(), ClientError> {
        let path = format!("/api/v1/admin/bots/{bot}/versions/{number}/remove");
        self.send(self.request(Method::POST, &path)).await.map(drop)
    }

    /// Queues void match `id` again; the new job's id.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn play_again(&self, id: i64) -> Result<i64, ClientError> {
        let path = format!("/api/v1/admin/matches/{id}/again");
        let queued: JobQueued = self.json(self.request(Method::POST, &path)).await?;
        Ok(queued.job)
    }

    /// Queues match job `id`, which failed for good, again; the new job's id.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn retry_job(&self, id: i64) -> Result<i64, ClientError> {
        let path = format!("/api/v1/admin/jobs/{id}/again");
        let queued: JobQueued = self.json(self.request(Method::POST, &path)).await?;
        Ok(queued.job)
    }

    /// Starts a final tournament.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn start_final(&self, request: &FinalRequest) -> Result<FinalStarted, ClientError> {
        self.json(
            self.request(Method::POST, "/api/v1/admin/final")
                .json(request),
        )
        .await
    }

    /// The last final tournament.
    ///
    /// # Errors
    /// [`ClientError`] (status 404 before the first).
    pub async fn final_view(&self) -> Result<FinalView, ClientError> {
        self.json(self.request(Method::GET, "/api/v1/final")).await
    }

    /// The last final as a packed results directory (with each version's check).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn final_export(&self) -> Result<Vec<u8>, ClientError> {
        self.bytes(self.request(Method::GET, "/api/v1/admin/final/export"))
            .await
    }

    /// The last final's grade sheet (CSV).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn final_grades(&self) -> Result<String, ClientError> {
        let bytes = self
            .bytes(self.request(Method::GET, "/api/v1/admin/final/grades.csv"))
            .await?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}
