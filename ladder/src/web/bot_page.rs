//! A bot, `/bots/{bot}`: its versions (the build log and checklist to its owner and the
//! admin), its rating over time, how it fared against every bot it met, its recent matches and
//! its faults by kind. Its data as JSON: `GET /api/v1/bots/{bot}`.

use super::Web;
use super::layout;
use super::rating_chart;
use super::viewer::Viewer;
use crate::service::{BotView, MatchView, VersionStatus};
use crate::spec::bot_of_seat;
use axum::extract::{Path, State};
use axum::response::Response;
use maud::{Markup, html};

/// `GET /bots/{bot}`.
pub async fn page(State(web): State<Web>, viewer: Viewer, Path(bot): Path<String>) -> Response {
    let account = viewer.session.as_ref().map(|s| &s.account);
    let view = match web.ladder.bot_view(account, &bot).await {
        Ok(view) => view,
        Err(error) => return layout::refusal(&viewer, error),
    };
    let content = html! {
        h1.name { (view.bot) }
        p.match-facts {
            "by " (view.owner) " · " (view.lang)
            @if view.removed { " · removed by the admin: it no longer plays" }
        }
        h2 { "Rating over time" }
        @if view.history.is_empty() {
            p.empty { "No ranked match with its rating recorded yet." }
        } @else {
            (rating_chart::chart(&view.history))
        }
        h2 { "Versions" }
        (versions(&view))
        h2 { "Head to head" }
        (meetings(&view))
        h2 { "Faults by kind" }
        (faults(&view))
        h2 { "Recent matches" }
        (match_list(&view.recent, Some(&view.bot)))
    };
    layout::respond(layout::page(&format!("{bot} — ladder"), &viewer, content))
}

fn versions(view: &BotView) -> Markup {
    html! {
        table.board.versions {
            thead { tr { th { "version" } th { "state" } th { "μ" } th { "σ" } th { "matches" } th { "wins" } th { "faults" } } }
            tbody {
                @for v in &view.versions {
                    tr {
                        td.name { a href={ "/bots/" (view.bot) "/versions/" (version_number(&v.name)) } { (v.name) } }
                        td { (v.state) }
                        td.num { (format!("{:.2}", v.mu)) }
                        td.num { (format!("{:.2}", v.sigma)) }
                        td.num { (v.matches) }
                        td.num { (v.wins) }
                        td.num { (v.faults) }
                    }
                }
            }
        }
        @for v in &view.versions {
            @if v.build_log.is_some() || v.check.is_some() {
                details.build {
                    summary { (v.name) ": its build log and checklist (yours: no one else sees them)" }
                    (build_details(v))
                }
            }
        }
    }
}

/// `N` of seat name `BOT.vN`.
fn version_number(name: &str) -> i64 {
    crate::spec::parse_seat_name(name)
        .and_then(|(_, n)| n)
        .unwrap_or(0)
}

/// A version's build log and checklist, when the viewer may see them (its owner, the admin).
pub(super) fn build_details(v: &VersionStatus) -> Markup {
    html! {
        @if let Some(log) = &v.build_log { h3 { "Build log" } pre.build-log { (log) } }
        @if let Some(check) = &v.check {
            h3 { "Checklist" }
            @if let Some(summary) = check.get("summary").and_then(|s| s.as_str()) { p { (summary) } }
            @if let Some(items) = check.get("items").and_then(|i| i.as_array()) {
                ul.checklist {
                    @for item in items {
                        li {
                            strong { (item.get("verdict").and_then(|v| v.as_str()).unwrap_or("?")) } " "
                            (item.get("title").and_then(|t| t.as_str()).unwrap_or(""))
                            @if let Some(detail) = item.get("detail").and_then(|d| d.as_str()) { ": " (detail) }
                        }
                    }
                }
            }
        }
    }
}

fn meetings(view: &BotView) -> Markup {
    html! {
        @if view.meetings.is_empty() {
            p.empty { "It has met no bot yet." }
        } @else {
            table.board.meetings {
                thead { tr { th { "against" } th { "owner" } th { "matches" } th { "ahead" } th { "behind" } } }
                tbody {
                    @for m in &view.meetings {
                        tr {
                            td.name { a href={ "/bots/" (m.opponent) } { (m.opponent) } }
                            td.name { (m.owner) }
                            td.num { (m.matches) }
                            td.num { (m.ahead) }
                            td.num { (m.behind) }
                        }
                    }
                }
            }
            p.note { "Ahead and behind count the matches it finished above and below that bot (ties in neither)." }
        }
    }
}

fn faults(view: &BotView) -> Markup {
    html! {
        @if view.faults.is_empty() {
            p.empty { "No fault in its recent matches." }
        } @else {
            table.board.faults {
                thead { tr { th { "kind" } th { "count" } th { "first" } th { "what happened first" } } }
                tbody {
                    @for f in &view.faults {
                        tr {
                            td { (f.kind) }
                            td.num { (f.count) }
                            td { a href={ "/matches/" (f.first_match) } { "match " (f.first_match) } }
                            td.name {
                                @match &f.first_message {
                                    Some(message) => { (message) },
                                    None => { "(its owner's)" },
                                }
                            }
                        }
                    }
                }
            }
            p.note { "Over its recent matches (below); docs/protocol.md#faults says what each kind means." }
        }
    }
}

/// `matches`, each a link to its page: with bot `bot`'s place in it when a bot is named, else
/// with its seats, the winner in bold.
pub(super) fn match_list(matches: &[MatchView], bot: Option<&str>) -> Markup {
    html! {
        @if matches.is_empty() {
            p.empty { "No match yet." }
        } @else {
            ul.latest {
                @for m in matches {
                    li {
                        a href={ "/matches/" (m.id) } { "Match " (m.id) }
                        @match bot.and_then(|bot| m.seats.iter().find(|s| bot_of_seat(&s.name) == Some(bot))) {
                            Some(seat) => {
                                " · " (seat.name) " ranked " (seat.rank) " of " (m.seats.len())
                                @if seat.faults > 0 { " · " (seat.faults) " fault" @if seat.faults > 1 { "s" } }
                            },
                            None => {
                                " · "
                                @for (n, seat) in m.seats.iter().enumerate() {
                                    @if n > 0 { ", " }
                                    @if seat.rank == 1 { strong { (seat.name) } } @else { (seat.name) }
                                }
                            },
                        }
                        @if m.final_id.is_some() { " · final" }
                        @else if !m.ranked { " · unranked" }
                    }
                }
            }
        }
    }
}
