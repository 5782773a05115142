//! Every endpoint, once: the table `docs/ladder-api.md` shows (generated from this list and
//! checked by a test) and that a test holds against the router (each path answers).

/// One endpoint.
#[derive(Clone, Copy, Debug)]
pub struct Endpoint {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// Its path, `{name}` for a part of it.
    pub path: &'static str,
    /// Who may call it.
    pub who: &'static str,
    /// Its request's body (a schema's name under `docs/schema/`, or a word).
    pub request: &'static str,
    /// Its answer's body.
    pub answer: &'static str,
    /// What it does.
    pub what: &'static str,
}

const fn e(
    method: &'static str,
    path: &'static str,
    who: &'static str,
    request: &'static str,
    answer: &'static str,
    what: &'static str,
) -> Endpoint {
    Endpoint {
        method,
        path,
        who,
        request,
        answer,
        what,
    }
}

/// Every endpoint of the API, in the order the docs list them.
#[rustfmt::skip]
pub const ENDPOINTS: &[Endpoint] = &[
    e("GET", "/api/v1/ladder", "anyone", "–", "LadderInfo", "the game, the table sizes, whether paused, matches recorded"),
    e("GET", "/api/v1/standings?group=NAME", "anyone", "–", "StandingRow list", "the versions that play, by μ − 3σ; with `group`, only those whose owner is in that class group (ranks stay the whole ladder's)"),
    e("GET", "/api/v1/queue", "anyone; what failed to the admin", "–", "QueueView", "jobs waiting and in hand, each lease, each worker's jobs and matches of the last hour, the platform's troubles"),
    e("POST", "/api/v1/bots/{bot}/versions?lang=L", "owner", "the upload's bytes", "Submitted", "a new version of the caller's bot (made on its first version); 201 when new, 200 for a source submitted before"),
    e("GET", "/api/v1/bots/{bot}", "anyone; build logs, checklists and fault messages to its owner and the admin", "–", "BotView", "a bot's page: its versions, rating history, head to head, recent matches, faults by kind"),
    e("GET", "/api/v1/bots/{bot}/versions/{n}", "anyone; the log and checklist to its owner and the admin", "–", "VersionStatus", "a version's state, rating, build log and checklist"),
    e("GET", "/api/v1/bots/{bot}/matches?limit=N", "anyone", "–", "MatchView list", "the last matches of a bot's versions (or of `BOT.vN`), newest first"),
    e("GET", "/api/v1/matches?limit=N", "anyone", "–", "MatchView list", "the last matches recorded, newest first"),
    e("GET", "/api/v1/matches/{id}", "anyone", "–", "MatchView", "a match's seats, scores, ranks and fault counts (not its seed)"),
    e("GET", "/api/v1/matches/{id}/log", "anyone: the public view; a seat's owner that seat's; the admin the truth", "–", "SeenLog", "a match's log as the caller may see it (no hand, face-down card or seed but its own)"),
    e("GET", "/api/v1/matches/{id}/stderr/{seat}", "the seat's owner, the admin", "–", "bytes", "what that seat wrote to stderr"),
    e("GET", "/api/v1/matches/{id}/bundle", "a seat's owner, the admin", "–", "Bundle", "what the caller may have to reproduce the match (`referee ladder reproduce`): its own seats' artifacts, stand-ins for the others; refused while a match of its deal is still to be played"),
    e("GET", "/api/v1/challenges", "owner, admin", "–", "ChallengesView", "the caller's own challenges: the matches it asked for, played and to be played"),
    e("POST", "/api/v1/challenges", "owner", "ChallengeRequest", "ChallengeQueued", "unranked matches of the caller's version against named bots or versions"),
    e("POST", "/api/v1/jobs/claim", "worker", "–", "ClaimedJob, or 204", "the next job under a new lease"),
    e("POST", "/api/v1/jobs/{id}/heartbeat", "worker", "LeaseBody", "LeaseExtended", "keeps the lease; 409 when it is lost"),
    e("POST", "/api/v1/jobs/{id}/give-back", "worker", "GiveBackBody", "204", "the platform failed: the job is played again, never counted against a bot"),
    e("POST", "/api/v1/jobs/{id}/match-result", "worker", "MatchResultBody", "Accepted", "a match's record, log and stderr; counted once its log replays to the same result (422 otherwise, 409 without the current lease)"),
    e("POST", "/api/v1/jobs/{id}/build-result", "worker", "BuildResultBody", "Accepted", "a build's log, artifact and checklist"),
    e("GET", "/api/v1/artifacts/{hash}", "worker, admin; an owner its own", "–", "bytes", "an artifact by its sha256"),
    e("POST", "/api/v1/admin/accounts", "admin", "AccountBody", "TokenBody", "a new account and its token, shown once"),
    e("POST", "/api/v1/admin/pause", "admin", "–", "204", "no new ranked match is queued"),
    e("POST", "/api/v1/admin/resume", "admin", "–", "204", "ranked matches are queued again"),
    e("GET", "/api/v1/admin/export?from=MS&to=MS", "admin", "–", "a .tar.gz", "the matches recorded in a window of time as a tournament's results directory (`referee ladder export --server`)"),
    e("POST", "/api/v1/admin/freeze", "admin", "–", "204", "the end of an event: no submission is taken and no ranked match queued, so the standings stay"),
    e("POST", "/api/v1/admin/thaw", "admin", "–", "204", "the ladder takes submissions and plays ranked matches again"),
    e("POST", "/api/v1/admin/bots/{bot}/remove", "admin", "–", "204", "the bot stops playing; its history stays"),
    e("POST", "/api/v1/admin/bots/{bot}/versions/{n}/remove", "admin", "–", "204", "the version stops playing (its bot plays its previous ready version); its history stays"),
    e("POST", "/api/v1/admin/class", "admin", "ClassImport", "Handed[]", "an owner account for each student of a class list, with its group, each handed a token or a one-time link"),
    e("POST", "/api/v1/admin/accounts/{name}/token", "admin", "TokenReset", "Handed", "an owner's token given anew (its sessions end), or a one-time link to one"),
    e("POST", "/api/v1/admin/deadline", "admin", "DeadlineBody", "204", "the time owners' submissions close (none lifts it)"),
    e("POST", "/api/v1/admin/matches/{id}/again", "admin", "–", "JobQueued", "a void match (the platform spoiled it) queued again with the same spec"),
    e("POST", "/api/v1/admin/jobs/{job}/again", "admin", "–", "JobQueued", "a match job that failed for good (its workers were lost) queued again with the same spec"),
    e("POST", "/api/v1/admin/final", "admin", "FinalRequest", "FinalStarted", "a final tournament among the versions in play, queued for the workers"),
    e("GET", "/api/v1/final", "anyone", "–", "FinalView", "the last final tournament: its progress, and its standings once played"),
    e("GET", "/api/v1/admin/final/export", "admin", "–", "a .tar.gz", "the final as a tournament results directory, with each version's check (`referee ladder final export --server`)"),
    e("GET", "/api/v1/admin/final/grades.csv", "admin", "–", "CSV", "the final's grade sheet, as `referee leaderboard DIR --format csv --grades` prints it"),
];

/// The endpoints as the Markdown table of `docs/ladder-api.md`.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| Method | Path | Who | Request | Answer | What |\n|---|---|---|---|---|---|\n",
    );
    for e in ENDPOINTS {
        out += &format!(
            "| {} | `{}` | {} | {} | {} | {} |\n",
            e.method, e.path, e.who, e.request, e.answer, e.what
        );
    }
    out
}
