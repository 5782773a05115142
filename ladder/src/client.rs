//! The API from the other side: what a worker and the command line's client commands call.
//! Each method is one endpoint; a refusal comes back as [`ClientError::Refused`] with the
//! server's status and message.

use crate::api::wire::{
    Accepted, AccountBody, BuildResultBody, ErrorBody, GiveBackBody, LadderInfo, LeaseBody,
    LeaseExtended, MatchResultBody, TokenBody,
};
use crate::service::{
    ChallengeQueued, ChallengeRequest, ClaimedJob, MatchView, StandingRow, Submitted, VersionStatus,
};
use serde::de::DeserializeOwned;

/// A client of one ladder server, with one token.
#[derive(Clone, Debug)]
pub struct Client {
    base: String,
    token: Option<String>,
    http: reqwest::Client,
}

/// Why a call did not get its answer.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server could not be reached, or the connection failed.
    #[error("the server at {server}: {error}")]
    Unreachable {
        /// The server's URL.
        server: String,
        /// What failed.
        error: reqwest::Error,
    },
    /// The server refused, with a status and its message.
    #[error("the server refused ({status}): {message}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The server's message.
        message: String,
    },
    /// The server answered something this client cannot read.
    #[error("the server's answer cannot be read: {0}")]
    BadAnswer(String),
}

impl ClientError {
    /// The HTTP status of a refusal.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Refused { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// `text` percent-encoded for a path segment or a query value (all but letters, digits, `-`,
/// `_` and `.`).
pub(crate) fn escaped(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl Client {
    /// A client of the server at `server` (`http://host:port`), calling with `token`.
    pub fn new(server: &str, token: Option<&str>) -> Client {
        Client {
            base: server.trim_end_matches('/').to_owned(),
            token: token.map(str::to_owned),
            http: reqwest::Client::new(),
        }
    }

    pub(crate) fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let request = self.http.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }

    pub(crate) async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, ClientError> {
        let unreachable = |error| ClientError::Unreachable {
            server: self.base.clone(),
            error,
        };
        let response = request.send().await.map_err(unreachable)?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let text = response.text().await.unwrap_or_default();
        let message = serde_json::from_str::<ErrorBody>(&text)
            .map(|body| body.error)
            .unwrap_or_else(|_| text.chars().take(500).collect());
        Err(ClientError::Refused {
            status: status.as_u16(),
            message,
        })
    }

    pub(crate) async fn bytes(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<Vec<u8>, ClientError> {
        let response = self.send(request).await?;
        let bytes = response
            .bytes()
            .await
            .map_err(|e| ClientError::BadAnswer(e.to_string()))?;
        Ok(bytes.to_vec())
    }

    pub(crate) async fn json<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, ClientError> {
        let bytes = self
            .send(request)
            .await?
            .bytes()
            .await
            .map_err(|e| ClientError::BadAnswer(e.to_string()))?;
        serde_json::from_slice(&bytes).map_err(|e| ClientError::BadAnswer(e.to_string()))
    }

    /// The ladder's game and state.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn info(&self) -> Result<LadderInfo, ClientError> {
        self.json(self.request(reqwest::Method::GET, "/api/v1/ladder"))
            .await
    }

    /// The standings.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn standings(&self) -> Result<Vec<StandingRow>, ClientError> {
        self.standings_in(None).await
    }

    /// The standings of class group `group` (each keeping its place on the whole ladder), or
    /// all of them.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn standings_in(&self, group: Option<&str>) -> Result<Vec<StandingRow>, ClientError> {
        let path = match group {
            Some(group) => format!("/api/v1/standings?group={}", escaped(group)),
            None => "/api/v1/standings".to_owned(),
        };
        self.json(self.request(reqwest::Method::GET, &path)).await
    }

    /// Submits `upload` as a new version of bot `bot` in `lang`.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn submit(
        &self,
        bot: &str,
        lang: &str,
        upload: Vec<u8>,
    ) -> Result<Submitted, ClientError> {
        let request = self
            .request(
                reqwest::Method::POST,
                &format!(
                    "/api/v1/bots/{}/versions?lang={}",
                    escaped(bot),
                    escaped(lang)
                ),
            )
            .body(upload);
        self.json(request).await
    }

    /// Version `number` of bot `bot`.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn version(&self, bot: &str, number: i64) -> Result<VersionStatus, ClientError> {
        let path = format!("/api/v1/bots/{}/versions/{number}", escaped(bot));
        self.json(self.request(reqwest::Method::GET, &path)).await
    }

    /// Claims a job, or `None` when there is none.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn claim(&self) -> Result<Option<ClaimedJob>, ClientError> {
        let response = self
            .send(self.request(reqwest::Method::POST, "/api/v1/jobs/claim"))
            .await?;
        if response.status() == reqwest::StatusCode::NO_CONTENT {
            return Ok(None);
        }
        let bytes = response
            .bytes()
            .await
            .map_err(|e| ClientError::BadAnswer(e.to_string()))?;
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| ClientError::BadAnswer(e.to_string()))
    }

    /// Extends the lease `lease` of job `job`.
    ///
    /// # Errors
    /// [`ClientError`] (409 when the lease is lost).
    pub async fn heartbeat(&self, job: i64, lease: &str) -> Result<LeaseExtended, ClientError> {
        let path = format!("/api/v1/jobs/{job}/heartbeat");
        let body = LeaseBody {
            lease: lease.to_owned(),
        };
        self.json(self.request(reqwest::Method::POST, &path).json(&body))
            .await
    }

    /// Gives job `job` back: the platform failed.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn give_back(&self, job: i64, lease: &str, error: &str) -> Result<(), ClientError> {
        let path = format!("/api/v1/jobs/{job}/give-back");
        let body = GiveBackBody {
            lease: lease.to_owned(),
            error: error.to_owned(),
        };
        self.send(self.request(reqwest::Method::POST, &path).json(&body))
            .await
            .map(drop)
    }

    /// Reports match job `job`.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn match_result(
        &self,
        job: i64,
        body: &MatchResultBody,
    ) -> Result<Accepted, ClientError> {
        let path = format!("/api/v1/jobs/{job}/match-result");
        self.json(self.request(reqwest::Method::POST, &path).json(body))
            .await
    }

    /// Reports build job `job`.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn build_result(
        &self,
        job: i64,
        body: &BuildResultBody,
    ) -> Result<Accepted, ClientError> {
        let path = format!("/api/v1/jobs/{job}/build-result");
        self.json(self.request(reqwest::Method::POST, &path).json(body))
            .await
    }

    /// The artifact `hash`.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn artifact(&self, hash: &str) -> Result<Vec<u8>, ClientError> {
        let path = format!("/api/v1/artifacts/{hash}");
        self.bytes(self.request(reqwest::Method::GET, &path)).await
    }

    /// Makes an account (the admin); returns its token.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn add_account(&self, name: &str, role: &str) -> Result<TokenBody, ClientError> {
        let body = AccountBody {
            name: name.to_owned(),
            role: role.to_owned(),
        };
        self.json(
            self.request(reqwest::Method::POST, "/api/v1/admin/accounts")
                .json(&body),
        )
        .await
    }

    /// Pauses (`true`) or resumes the matchmaker (the admin).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn set_paused(&self, paused: bool) -> Result<(), ClientError> {
        let path = if paused {
            "/api/v1/admin/pause"
        } else {
            "/api/v1/admin/resume"
        };
        self.send(self.request(reqwest::Method::POST, path))
            .await
            .map(drop)
    }

    /// Removes bot `bot` from play (the admin).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn remove(&self, bot: &str) -> Result<(), ClientError> {
        let path = format!("/api/v1/admin/bots/{}/remove", escaped(bot));
        self.send(self.request(reqwest::Method::POST, &path))
            .await
            .map(drop)
    }

    /// Match `id` as anyone sees it.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn match_view(&self, id: i64) -> Result<MatchView, ClientError> {
        let path = format!("/api/v1/matches/{id}");
        self.json(self.request(reqwest::Method::GET, &path)).await
    }

    /// The caller's own challenges (`GET /api/v1/challenges`).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn challenges(&self) -> Result<crate::service::ChallengesView, ClientError> {
        self.json(self.request(reqwest::Method::GET, "/api/v1/challenges"))
            .await
    }

    /// The queue and the workers (`GET /api/v1/queue`).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn queue_view(&self) -> Result<crate::service::QueueView, ClientError> {
        self.json(self.request(reqwest::Method::GET, "/api/v1/queue"))
            .await
    }

    /// Match `id`'s log as the caller may see it (`GET /api/v1/matches/{id}/log`).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn match_log(&self, id: i64) -> Result<crate::api::wire::SeenLog, ClientError> {
        let path = format!("/api/v1/matches/{id}/log");
        self.json(self.request(reqwest::Method::GET, &path)).await
    }

    /// The last `limit` matches of bot (or version) `name`, newest first.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn matches_of(&self, name: &str, limit: i64) -> Result<Vec<MatchView>, ClientError> {
        let path = format!("/api/v1/bots/{}/matches?limit={limit}", escaped(name));
        self.json(self.request(reqwest::Method::GET, &path)).await
    }

    /// Seat `seat`'s stderr of match `id` (its owner, the admin).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn match_stderr(&self, id: i64, seat: usize) -> Result<Vec<u8>, ClientError> {
        let path = format!("/api/v1/matches/{id}/stderr/{seat}");
        self.bytes(self.request(reqwest::Method::GET, &path)).await
    }

    /// Asks for a challenge's unranked matches.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn challenge(
        &self,
        request: &ChallengeRequest,
    ) -> Result<ChallengeQueued, ClientError> {
        self.json(
            self.request(reqwest::Method::POST, "/api/v1/challenges")
                .json(request),
        )
        .await
    }

    /// What the caller may have to reproduce match `id`.
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn match_bundle(&self, id: i64) -> Result<crate::reproduce::Bundle, ClientError> {
        let path = format!("/api/v1/matches/{id}/bundle");
        self.json(self.request(reqwest::Method::GET, &path)).await
    }

    /// Freezes (`true`) or thaws the ladder (the admin).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn set_frozen(&self, frozen: bool) -> Result<(), ClientError> {
        let path = if frozen {
            "/api/v1/admin/freeze"
        } else {
            "/api/v1/admin/thaw"
        };
        self.send(self.request(reqwest::Method::POST, path))
            .await
            .map(drop)
    }

    /// The matches recorded from `from` to `to` (ms) as a packed results directory (the admin).
    ///
    /// # Errors
    /// [`ClientError`].
    pub async fn export(&self, from: i64, to: i64) -> Result<Vec<u8>, ClientError> {
        let path = format!("/api/v1/admin/export?from={from}&to={to}");
        self.bytes(self.request(reqwest::Method::GET, &path)).await
    }
}
