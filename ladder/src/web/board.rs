//! The board, `/`: every playing version ranked by μ − 3σ, its interval drawn, and a legend in
//! plain words; the table is fetched again every few seconds (`/board/rows`, the same markup)
//! and put in place without a reload. `?group=NAME` shows one class group's versions only (the
//! server filters; each keeps its rank on the whole ladder), and the table fetched again keeps
//! the filter. Its data as JSON: `GET /api/v1/standings`.

use super::layout;
use super::viewer::Viewer;
use crate::api::wire::GroupQuery;
use crate::client::escaped;
use crate::service::{Ladder, MatchView, StandingRow};
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use referee::tournament::legend;

/// How often the page fetches the table again, in seconds.
pub const REFRESH_S: u32 = 5;

/// The columns: title, and what it means.
const COLUMNS: [(&str, &str); 11] = [
    (
        "#",
        "The version's place, best first: ordered by μ − 3σ (equal ratings by name).",
    ),
    ("bot", "The bot's name, as its owner submitted it."),
    ("owner", "Who submitted it."),
    (
        "version",
        "Which of the bot's versions plays: its newest that built and passed the check.",
    ),
    ("μ − 3σ", legend::CONSERVATIVE),
    (
        "interval",
        "μ − 3σ to μ + 3σ drawn on one scale for the whole board, the mark at μ: where the version's strength likely is. A short bar is a rating the ladder is sure of.",
    ),
    ("matches", "Ranked matches this version played."),
    (
        "win rate",
        "The share of its ranked matches it finished first (a first place shared counts).",
    ),
    (
        "faults",
        "Faults it committed in its ranked matches: a late or illegal reply, a crash, a protocol error (each match's record names them).",
    ),
    ("p99 ms", legend::P99_MS),
    (
        "last played",
        "How long ago its last ranked match was recorded.",
    ),
];

/// `GET /`: the board (`?group=NAME`: one class group's versions).
pub async fn page(
    State(ladder): State<Ladder>,
    viewer: Viewer,
    Query(query): Query<GroupQuery>,
) -> Response {
    let latest = match ladder.latest_matches(LATEST).await {
        Ok(latest) => latest,
        Err(error) => return error.into_response(),
    };
    let event = match super::event::notes(&ladder).await {
        Ok(event) => event,
        Err(error) => return error.into_response(),
    };
    match ladder.all_standings().await {
        Ok(all) => {
            let group = query.group();
            let groups: Vec<String> = crate::service::groups(&all)
                .into_iter()
                .map(str::to_owned)
                .collect();
            let rows = crate::service::in_group(all, group);
            let content = html! {
                h1 { "Standings" }
                div #event data-live="/board/event" data-every=(REFRESH_S) { (event) }
                @if !groups.is_empty() { (group_links(&groups, group)) }
                p.live { "Updated every " (REFRESH_S) " seconds, without a reload. "
                    span #updated {} }
                section #board data-live=(rows_url(group)) data-every=(REFRESH_S) data-updated="updated" { (table(&rows, group)) }
                (latest_list(&latest))
                h2 { "What the columns mean" }
                dl.legend {
                    @for (title, meaning) in COLUMNS {
                        dt { (title) }
                        dd { (meaning) }
                    }
                    dt { "μ ± σ" }
                    dd { (legend::MU_SIGMA) }
                }
            };
            layout::respond(layout::page("Ladder standings", &viewer, content))
        }
        Err(error) => error.into_response(),
    }
}

/// The latest matches the board links to.
const LATEST: i64 = 10;

/// The latest matches, each a link to its page, its winner first.
fn latest_list(latest: &[MatchView]) -> Markup {
    html! {
        h2 { "Latest matches" }
        (super::bot_page::match_list(latest, None))
    }
}

/// `GET /board/rows`: the table alone, for the page to put in place (`?group=NAME` as the
/// page's).
pub async fn rows(State(ladder): State<Ladder>, Query(query): Query<GroupQuery>) -> Response {
    match ladder.standings(query.group()).await {
        Ok(rows) => layout::respond(table(&rows, query.group())),
        Err(error) => error.into_response(),
    }
}

/// `?group=NAME` for `group`, percent-encoded; nothing for the whole ladder.
fn group_query(group: Option<&str>) -> String {
    group.map_or_else(String::new, |g| format!("?group={}", escaped(g)))
}

/// Where the page fetches its table again: the same filter as the page's.
fn rows_url(group: Option<&str>) -> String {
    format!("/board/rows{}", group_query(group))
}

/// The class groups' filter: the whole ladder, or one group's versions; the one shown marked.
fn group_links(groups: &[String], shown: Option<&str>) -> Markup {
    let current = |here: bool| here.then_some("page");
    html! {
        nav.groups aria-label="Class groups" {
            span { "Show:" }
            a href="/" aria-current=[current(shown.is_none())] { "All" }
            @for group in groups {
                a href={ "/" (group_query(Some(group))) }
                    aria-current=[current(shown == Some(group.as_str()))] { (group) }
            }
        }
        @if shown.is_some() {
            p.note { "One class group's versions; each keeps its place (#) on the whole ladder." }
        }
    }
}

/// The scale every interval is drawn on: the lowest μ − 3σ and the highest μ + 3σ.
fn scale(rows: &[StandingRow]) -> (f64, f64) {
    let low = rows
        .iter()
        .map(|r| r.conservative)
        .fold(f64::INFINITY, f64::min);
    let high = rows
        .iter()
        .map(|r| r.high)
        .fold(f64::NEG_INFINITY, f64::max);
    if low.is_finite() && high > low {
        (low, high)
    } else {
        (0.0, 50.0)
    }
}

/// The table of `rows` (those of class group `group`, when one is given).
fn table(rows: &[StandingRow], group: Option<&str>) -> Markup {
    let now = crate::service::now_ms();
    let (low, high) = scale(rows);
    let at = |x: f64| format!("{:.2}", (x - low) / (high - low) * 100.0);
    html! {
        @if rows.is_empty() {
            @if let Some(group) = group {
                p.empty { "No version of class group " q { (group) } " plays." }
            } @else {
                p.empty { "No version plays yet: the board fills as versions pass their check." }
            }
        } @else {
            table.board {
                thead { tr { @for (title, meaning) in COLUMNS { th title=(meaning) { (title) } } } }
                tbody {
                    @for row in rows {
                        tr {
                            td.num { (row.rank) }
                            td.name { a href={ "/bots/" (row.bot) } { (row.bot) } }
                            td.name { (row.owner) }
                            td { (version_of(row)) }
                            td.num { (format!("{:.2}", row.conservative)) }
                            td.interval {
                                svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img"
                                    aria-label=(format!("{:.2} to {:.2}, μ {:.2}", row.conservative, row.high, row.mu)) {
                                    line.axis x1="0" y1="5" x2="100" y2="5" {}
                                    rect.span x=(at(row.conservative)) y="3" height="4"
                                        width=(format!("{:.2}", (row.high - row.conservative) / (high - low) * 100.0)) {}
                                    line.mu x1=(at(row.mu)) y1="1" x2=(at(row.mu)) y2="9" {}
                                }
                            }
                            td.num { (row.matches) }
                            td.num { (win_rate(row)) }
                            td.num { (row.faults) }
                            td.num { (p99(row)) }
                            td.num { (last_played(row, now)) }
                        }
                    }
                }
            }
        }
    }
}

/// `vN` of a row's seat name `BOT.vN`.
fn version_of(row: &StandingRow) -> &str {
    row.name
        .strip_prefix(row.bot.as_str())
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or(&row.name)
}

/// Its wins over its matches, in percent; a dash before its first match.
fn win_rate(row: &StandingRow) -> String {
    if row.matches == 0 {
        return "–".to_owned();
    }
    format!("{:.0}%", row.wins as f64 * 100.0 / row.matches as f64)
}

/// Its p99 decision time in milliseconds, to two or three figures (a built-in bot's answer
/// takes microseconds: `0.0031`, not `0.00`); a dash before its first decision.
fn p99(row: &StandingRow) -> String {
    match row.p99_ms {
        Some(ms) if ms < 1.0 => {
            let decimals = (-ms.log10()).ceil().clamp(0.0, 6.0) as usize + 1;
            format!("{ms:.decimals$}")
        }
        Some(ms) if ms < 100.0 => format!("{ms:.1}"),
        Some(ms) => format!("{ms:.0}"),
        None => "–".to_owned(),
    }
}

/// How long before `now` its last ranked match was recorded; a dash if never.
fn last_played(row: &StandingRow, now: i64) -> String {
    match row.last_played_ms {
        Some(at) => ago((now - at).max(0) / 1000),
        None => "–".to_owned(),
    }
}

/// `seconds` as a person says it: `12 s ago`, `3 min ago`, `5 h ago`, `2 days ago`.
pub(super) fn ago(seconds: i64) -> String {
    match seconds {
        s if s < 60 => format!("{s} s ago"),
        s if s < 3600 => format!("{} min ago", s / 60),
        s if s < 48 * 3600 => format!("{} h ago", s / 3600),
        s => format!("{} days ago", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(matches: i64, wins: i64, last: Option<i64>) -> StandingRow {
        StandingRow {
            rank: 1,
            name: "a-bot.v3".into(),
            bot: "a-bot".into(),
            owner: "ada".into(),
            group: None,
            mu: 25.0,
            sigma: 2.0,
            conservative: 19.0,
            high: 31.0,
            matches,
            wins,
            faults: 0,
            last_played_ms: last,
            p99_ms: None,
        }
    }

    /// The text of each `tag` cell in `html` (tags dropped).
    fn cells_of(html: &str, tag: &str) -> Vec<String> {
        html.split(&format!("<{tag}"))
            .skip(1)
            .filter(|cell| cell.starts_with([' ', '>']))
            .map(|cell| {
                let inner = &cell[cell.find('>').unwrap() + 1..];
                text_of(&inner[..inner.find(&format!("</{tag}>")).unwrap()])
            })
            .collect()
    }

    /// The text of each cell of the table's body, row by row.
    fn cells(html: &str) -> Vec<Vec<String>> {
        let body = html.split("<tbody>").nth(1).unwrap();
        body.split("<tr>")
            .skip(1)
            .map(|row| cells_of(row, "td"))
            .collect()
    }

    /// `html` without its tags.
    fn text_of(html: &str) -> String {
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        text
    }

    #[test]
    fn the_table_has_a_p99_column_explained_as_the_tournament_does() {
        let mut fast = row(4, 2, None);
        fast.p99_ms = Some(0.512);
        let mut slow = row(4, 1, None);
        slow.rank = 2;
        slow.p99_ms = Some(1234.4);
        let mut middling = row(4, 1, None);
        middling.rank = 3;
        middling.p99_ms = Some(42.04);
        let unplayed = StandingRow {
            rank: 4,
            ..row(0, 0, None)
        };
        let builtin = StandingRow {
            rank: 5,
            p99_ms: Some(0.003_084),
            ..row(4, 0, None)
        };
        let html = table(&[fast, slow, middling, unplayed, builtin], None).into_string();
        let header = html.split("<tbody>").next().unwrap();
        let titles = cells_of(header, "th");
        let p99 = titles.iter().position(|t| t == "p99 ms").unwrap();
        assert_eq!(
            COLUMNS[p99],
            ("p99 ms", referee::tournament::legend::P99_MS)
        );
        assert!(
            header.contains(&format!("title=\"{}\"", legend::P99_MS)),
            "{header}"
        );
        let column: Vec<String> = cells(&html).iter().map(|r| r[p99].clone()).collect();
        assert_eq!(column, ["0.51", "1234", "42.0", "–", "0.0031"]);
        for row in cells(&html) {
            assert_eq!(row.len(), COLUMNS.len(), "{row:?}");
        }
    }

    #[test]
    fn a_groups_filter_links_each_group_and_keeps_itself_in_the_live_table() {
        let groups = vec!["a&b".to_owned(), "<b>x</b>".to_owned(), "A 1".to_owned()];
        let html = group_links(&groups, Some("A 1")).into_string();
        assert!(html.contains(r#"<a href="/">All</a>"#), "{html}");
        assert!(
            html.contains(r#"href="/?group=a%26b">a&amp;b</a>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"href="/?group=%3Cb%3Ex%3C%2Fb%3E">&lt;b&gt;x&lt;/b&gt;</a>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"href="/?group=A%201" aria-current="page">A 1</a>"#),
            "{html}"
        );
        assert!(!html.contains("<b>"), "{html}");
        assert_eq!(rows_url(None), "/board/rows");
        assert_eq!(rows_url(Some("A 1")), "/board/rows?group=A%201");
        let empty = table(&[], Some("<i>none</i>")).into_string();
        assert!(empty.contains("&lt;i&gt;none&lt;/i&gt;"), "{empty}");
        assert!(!empty.contains("<i>"), "{empty}");
    }

    #[test]
    fn a_row_says_its_version_win_rate_and_age_in_plain_words() {
        assert_eq!(version_of(&row(0, 0, None)), "v3");
        assert_eq!(win_rate(&row(0, 0, None)), "–");
        assert_eq!(win_rate(&row(3, 1, None)), "33%");
        assert_eq!(last_played(&row(1, 0, None), 10_000), "–");
        assert_eq!(last_played(&row(1, 0, Some(4_000)), 10_000), "6 s ago");
        assert_eq!(ago(59), "59 s ago");
        assert_eq!(ago(60), "1 min ago");
        assert_eq!(ago(7_200), "2 h ago");
        assert_eq!(ago(3 * 86_400), "3 days ago");
    }

    #[test]
    fn every_name_is_text_in_the_table() {
        let mut hostile = row(1, 1, Some(0));
        hostile.bot = "<script>alert(1)</script>".into();
        hostile.owner = "\"><img src=x onerror=alert(1)>".into();
        hostile.name = format!("{}.v1", hostile.bot);
        let html = table(&[hostile], None).into_string();
        assert!(!html.contains("<script>alert"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
    }
}
