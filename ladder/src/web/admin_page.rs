//! The teacher's page, `/admin` (the admin only): the ladder's state (pause, freeze, the
//! deadline), a class list made into accounts (each student's token or one-time link shown
//! once), a token given anew, a version removed, a spoiled match played again, and the final
//! tournament — started, followed, its grade sheet and results downloaded. Every form carries
//! the session's CSRF token; every action is the service's, as the API's `/api/v1/admin/…`.

use super::Web;
use super::layout;
use super::viewer::Viewer;
use crate::service::{
    ClassImport, FinalRequest, Handed, Handout, ServiceError, TokenReset, read_class_csv,
};
use crate::store::{Account, Role};
use axum::Form;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

/// What an action left to show above the forms.
enum Outcome {
    /// Nothing: the page as it is.
    Nothing,
    /// A line saying what was done.
    Done(String),
    /// What was refused, and why.
    Refused(String),
    /// Accounts handed tokens or links: shown this once.
    Handed(Vec<Handed>),
}

/// The fields every form of the page carries, and those some do.
#[derive(Deserialize)]
pub struct AdminForm {
    csrf: String,
    /// What to do: pause, resume, freeze, thaw, deadline, lift-deadline, class, token,
    /// remove-version, again, retry, final.
    action: String,
    deadline: Option<String>,
    csv: Option<String>,
    handout: Option<String>,
    name: Option<String>,
    bot: Option<String>,
    number: Option<String>,
    id: Option<String>,
    schedule: Option<String>,
    players: Option<String>,
    matches: Option<String>,
    duplicate: Option<String>,
}

/// A number field: none when left empty (a browser sends it as "").
fn number<T: std::str::FromStr>(
    field: Option<&String>,
    what: &str,
) -> Result<Option<T>, ServiceError> {
    match field.map(|f| f.trim()).filter(|f| !f.is_empty()) {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| {
            ServiceError::BadRequest(format!(
                "{what} is a whole number, not {:?}",
                text.chars().take(20).collect::<String>()
            ))
        }),
    }
}

/// The admin signed in on `viewer`, if it is the admin.
fn admin(viewer: &Viewer) -> Option<&Account> {
    viewer
        .session
        .as_ref()
        .map(|s| &s.account)
        .filter(|a| a.role == Role::Admin)
}

/// `GET /admin`.
pub async fn page(State(web): State<Web>, viewer: Viewer) -> Response {
    shown(&web, &viewer, StatusCode::OK, Outcome::Nothing).await
}

/// The page, with `outcome` above the forms.
async fn shown(web: &Web, viewer: &Viewer, status: StatusCode, outcome: Outcome) -> Response {
    let (Some(_), Some(session)) = (admin(viewer), &viewer.session) else {
        let content = html! {
            h1 { "The admin's page" }
            p { "This page is the ladder's admin's. " a href="/signin" { "Sign in" } " with the admin's token." }
        };
        let mut answer = layout::respond(layout::page("Admin", viewer, content));
        *answer.status_mut() = StatusCode::FORBIDDEN;
        return answer;
    };
    let ladder = &web.ladder;
    let state = async {
        Ok::<_, ServiceError>((
            ladder.paused().await?,
            ladder.frozen().await?,
            ladder.deadline().await?,
            ladder.final_view().await?,
            ladder.store().accounts().await?,
        ))
    }
    .await;
    let (paused, frozen, deadline, final_view, accounts) = match state {
        Ok(state) => state,
        Err(error) => return layout::refusal(viewer, error),
    };
    let csrf = session.csrf.as_str();
    let hidden = |action: &str| {
        html! {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="action" value=(action);
        }
    };
    let owners: Vec<&Account> = accounts.iter().filter(|a| a.role == Role::Owner).collect();
    let content = html! {
        h1 { "The admin's page" }
        (outcome_shown(&outcome, viewer))
        section #state {
            h2 { "The ladder" }
            p.counts {
                "Ranked matches: " strong { @if paused { "paused" } @else if frozen { "frozen" } @else { "being played" } } ". "
                "Submissions: " strong { @if frozen { "closed (frozen)" }
                    @else if let Some(at) = deadline { @if crate::service::now_ms() >= at { "closed at " (crate::utc::show(at)) } @else { "open until " (crate::utc::show(at)) } }
                    @else { "open" } } "."
            }
            div.actions {
                form method="post" action="/admin" { (hidden(if paused { "resume" } else { "pause" })) button type="submit" { @if paused { "Resume" } @else { "Pause" } } }
                form method="post" action="/admin" { (hidden(if frozen { "thaw" } else { "freeze" })) button type="submit" { @if frozen { "Thaw" } @else { "Freeze" } } }
            }
            form.submit method="post" action="/admin" {
                (hidden("deadline"))
                label for="deadline" { "Submissions close at (UTC)" }
                input #deadline type="text" name="deadline" placeholder="2026-12-18T18:00" required spellcheck="false";
                button type="submit" { "Set the deadline" }
            }
            @if deadline.is_some() {
                form method="post" action="/admin" { (hidden("lift-deadline")) button type="submit" { "Lift the deadline" } }
            }
        }
        section #class {
            h2 { "Accounts from a class list" }
            p { "One row per student: " code { "name,contact,group" } " (the contact, an email or a student id, and the group are optional; a first row " code { "name,…" } " is a header). Each student gets a token, or a one-time link that gives the token once in the student's own browser (good for 14 days). What is handed out is shown once, here." }
            form.submit method="post" action="/admin" {
                (hidden("class"))
                label for="csv" { "Class list (CSV)" }
                textarea #csv name="csv" rows="6" required spellcheck="false" placeholder="name,contact,group\nada,ada@example.org,A\nalan,s1234,B" {}
                label for="handout" { "Hand out" }
                select #handout name="handout" {
                    option value="link" { "one-time links" }
                    option value="token" { "tokens" }
                }
                button type="submit" { "Make the accounts" }
            }
            @if !owners.is_empty() {
                h3 { "Owners" }
                div.scroll { table.board #owners {
                    thead { tr { th { "Account" } th { "Group" } th { "" } } }
                    tbody { @for a in &owners { tr {
                        td.name { (a.name) @if a.disabled { " (disabled)" } }
                        td.name { (a.group.as_deref().unwrap_or("–")) }
                        td {
                            form.inline method="post" action="/admin" {
                                (hidden("token"))
                                input type="hidden" name="name" value=(a.name);
                                input type="hidden" name="handout" value="link";
                                button type="submit" { "New link" }
                            }
                            form.inline method="post" action="/admin" {
                                (hidden("token"))
                                input type="hidden" name="name" value=(a.name);
                                input type="hidden" name="handout" value="token";
                                button type="submit" { "New token" }
                            }
                        }
                    } } }
                } }
            }
        }
        section #final {
            h2 { "The final tournament" }
            p { "Among the versions in play (the newest ready version of every bot not removed), played by the ladder's workers as unranked matches before the ranked ones. Freeze the ladder first for standings that no longer move. Its results are a tournament's: the grade sheet is " code { "referee leaderboard DIR --format csv --grades" } "'s." }
            @if let Some(f) = &final_view {
                p.counts #final-progress {
                    "Final " (f.id) ": " strong { (f.played) } " of " (f.matches) " matches played"
                    @if f.failed > 0 { ", " (f.failed) " failed (the platform's)" }
                    @if f.done { " — done." } @else { "." }
                }
                @if f.played > 0 {
                    p { a #grades href="/admin/final/grades.csv" download="grades.csv" { "Download the grade sheet (grades.csv)" }
                        " · " a href="/admin/final/results.tar.gz" download="final-results.tar.gz" { "the results directory (.tar.gz)" } }
                }
            }
            form.submit method="post" action="/admin" {
                (hidden("final"))
                label for="schedule" { "Schedule" }
                select #schedule name="schedule" {
                    option value="round-robin" { "round robin (every table in turn)" }
                    option value="sampled" { "sampled (balanced random tables)" }
                }
                label for="players" { "Players per match" }
                input #players type="number" name="players" min="2" max="16" placeholder=(ladder.config().max_players);
                label for="matches" { "Matches" }
                input #matches type="number" name="matches" min="1" max=(crate::service::FINAL_MATCHES) placeholder="one whole cycle";
                label for="duplicate" { "Duplicate deals" }
                input #duplicate type="checkbox" name="duplicate" value="1" checked[ladder.config().matchmaking.duplicate];
                button type="submit" { "Start the final" }
            }
        }
        section #repairs {
            h2 { "Repairs" }
            form.submit method="post" action="/admin" {
                (hidden("remove-version"))
                label for="rm-bot" { "Bot" }
                input #rm-bot type="text" name="bot" required maxlength="48" spellcheck="false";
                label for="rm-number" { "Version" }
                input #rm-number type="number" name="number" min="1" required;
                button type="submit" { "Remove the version from play" }
            }
            form.submit method="post" action="/admin" {
                (hidden("again"))
                label for="again-id" { "Void match" }
                input #again-id type="number" name="id" min="1" required;
                button type="submit" { "Play it again" }
            }
            form.submit method="post" action="/admin" {
                (hidden("retry"))
                label for="retry-id" { "Failed job" }
                input #retry-id type="number" name="id" min="1" required;
                button type="submit" { "Queue it again" }
            }
            p { "A failed job (its workers were lost " (ladder.config().lease.attempts) " times) is listed on the " a href="/queue" { "queue's page" } "." }
        }
    };
    let mut answer = layout::respond(layout::page("Admin", viewer, content));
    *answer.status_mut() = status;
    answer
}

/// What an action left, above the forms.
fn outcome_shown(outcome: &Outcome, viewer: &Viewer) -> Markup {
    match outcome {
        Outcome::Nothing => html! {},
        Outcome::Done(line) => html! { p.done role="status" { (line) } },
        Outcome::Refused(why) => html! { p.error role="alert" { (why) } },
        Outcome::Handed(handed) => {
            let base = viewer.base_url();
            html! {
                section #handed {
                    h2 { "Handed out — shown this once" }
                    p { "Give each student their line (a token is a password: keep this page private, and close it when done). A link works once, for 14 days; opening it and pressing its button gives the student a token and signs them in." }
                    div.scroll { table.board {
                        thead { tr { th { "Account" } th { "Group" } th { "Contact" } th { "Token or link" } } }
                        tbody { @for h in handed { tr {
                            td.name { (h.name) }
                            td.name { (h.group.as_deref().unwrap_or("–")) }
                            td.name { (h.contact.as_deref().unwrap_or("–")) }
                            td.secret { code {
                                @if let Some(token) = &h.token { (token) }
                                @if let Some(code) = &h.link_code { (base) "/welcome/" (code) }
                            } }
                        } } }
                    } }
                }
            }
        }
    }
}

fn handout(name: Option<&str>) -> Handout {
    if name == Some("token") {
        Handout::Token
    } else {
        Handout::Link
    }
}

/// What `form` asks of the ladder, done by `caller`: what to show above the forms.
async fn perform(
    ladder: &crate::service::Ladder,
    caller: &Account,
    form: &AdminForm,
) -> Result<Outcome, ServiceError> {
    let done = |line: &str| Outcome::Done(line.to_owned());
    Ok(match form.action.as_str() {
        "pause" => {
            ladder.set_paused(caller, true).await?;
            done("Ranked matches are paused.")
        }
        "resume" => {
            ladder.set_paused(caller, false).await?;
            done("Ranked matches are played again.")
        }
        "freeze" => {
            ladder.set_frozen(caller, true).await?;
            done("The ladder is frozen: no submission, no ranked match.")
        }
        "thaw" => {
            ladder.set_frozen(caller, false).await?;
            done("The ladder is thawed.")
        }
        "deadline" => {
            let at = crate::utc::parse(form.deadline.as_deref().unwrap_or_default())
                .map_err(|e| ServiceError::BadRequest(e.to_string()))?;
            ladder.set_deadline(caller, Some(at)).await?;
            Outcome::Done(format!("Submissions close at {}.", crate::utc::show(at)))
        }
        "lift-deadline" => {
            ladder.set_deadline(caller, None).await?;
            done("The deadline is lifted.")
        }
        "class" => {
            let members = read_class_csv(form.csv.as_deref().unwrap_or_default())?;
            let handout = handout(form.handout.as_deref());
            let import = ClassImport { members, handout };
            Outcome::Handed(ladder.import_class(caller, &import).await?)
        }
        "token" => {
            let name = form.name.as_deref().unwrap_or_default();
            let reset = TokenReset {
                handout: handout(form.handout.as_deref()),
            };
            Outcome::Handed(vec![ladder.reset_token(caller, name, &reset).await?])
        }
        "remove-version" => {
            let bot = form.bot.as_deref().unwrap_or_default().trim();
            let n = number::<i64>(form.number.as_ref(), "a version")?.unwrap_or(0);
            ladder.remove_version(caller, bot, n).await?;
            Outcome::Done(format!("{bot}.v{n} plays no more."))
        }
        "again" => {
            let id = number::<i64>(form.id.as_ref(), "a match")?.unwrap_or(0);
            let job = ladder.play_again(caller, id).await?;
            Outcome::Done(format!("Match {id} is queued again (job {job})."))
        }
        "retry" => {
            let id = number::<i64>(form.id.as_ref(), "a job")?.unwrap_or(0);
            let job = ladder.retry_job(caller, id).await?;
            Outcome::Done(format!("Job {id} is queued again (job {job})."))
        }
        "final" => {
            let request = FinalRequest {
                schedule: form.schedule.clone(),
                players: number(form.players.as_ref(), "players")?,
                matches: number(form.matches.as_ref(), "matches")?,
                duplicate: Some(form.duplicate.is_some()),
            };
            let started = ladder.start_final(caller, &request).await?;
            Outcome::Done(format!(
                "Final {} started: {} matches among {} versions.",
                started.id,
                started.matches,
                started.field.len()
            ))
        }
        other => {
            return Err(ServiceError::BadRequest(format!(
                "no action {:?}",
                other.chars().take(40).collect::<String>()
            )));
        }
    })
}

/// `POST /admin`.
pub async fn act(State(web): State<Web>, viewer: Viewer, Form(form): Form<AdminForm>) -> Response {
    let Some(caller) = admin(&viewer) else {
        return Redirect::to("/signin").into_response();
    };
    if viewer.session.as_ref().map(|s| s.csrf.as_str()) != Some(form.csrf.as_str()) {
        let refused =
            "This form was not one of your pages' (or had expired): do it again from this page.";
        return shown(
            &web,
            &viewer,
            StatusCode::FORBIDDEN,
            Outcome::Refused(refused.into()),
        )
        .await;
    }
    let outcome = perform(&web.ladder, caller, &form).await;
    match outcome {
        Ok(outcome) => shown(&web, &viewer, StatusCode::OK, outcome).await,
        Err(error) if error.status() == StatusCode::INTERNAL_SERVER_ERROR => error.into_response(),
        Err(error) => {
            shown(
                &web,
                &viewer,
                error.status(),
                Outcome::Refused(error.to_string()),
            )
            .await
        }
    }
}

/// `GET /admin/final/grades.csv`: the final's grade sheet, to the admin's browser.
pub async fn grades(State(web): State<Web>, viewer: Viewer) -> Response {
    let Some(caller) = admin(&viewer) else {
        return StatusCode::FORBIDDEN.into_response();
    };
    match web.ladder.final_grades(caller).await {
        Ok(sheet) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"grades.csv\"",
                ),
                (header::CACHE_CONTROL, "no-store"),
            ],
            sheet,
        )
            .into_response(),
        Err(error) => layout::refusal(&viewer, error),
    }
}

/// `GET /admin/final/results.tar.gz`: the final as a results directory, packed.
pub async fn results(State(web): State<Web>, viewer: Viewer) -> Response {
    let Some(caller) = admin(&viewer) else {
        return StatusCode::FORBIDDEN.into_response();
    };
    match web.ladder.final_archive(caller).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "application/gzip"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"final-results.tar.gz\"",
                ),
                (header::CACHE_CONTROL, "no-store"),
            ],
            bytes,
        )
            .into_response(),
        Err(error) => layout::refusal(&viewer, error),
    }
}
