//! The terminal leaderboard for a newcomer: its legend says what each column means in plain
//! words and which way each game's score goes (from the game's own direction, as the JSON
//! leaderboard states it); `referee leaderboard DIR --bot NAME` lists a bot's faults with their
//! messages, its matches and where its stderr of each match is.

use crate::faulty_tournament;
use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// The legend's paragraph for the column `title`: from its title to the next column's, its
/// lines joined.
fn legend_of(text: &str, title: &str, next: &str) -> String {
    let legend = &text[text.find("What the columns mean:").expect(text)..];
    let start = legend
        .find(&format!("\n  {title} "))
        .unwrap_or_else(|| panic!("{title}: {legend}"));
    let end = start
        + 1
        + legend[start + 1..]
            .find(&format!("\n  {next} "))
            .expect(next);
    legend[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_leaderboard_has_a_legend_in_plain_words_with_each_games_score_direction() {
    let base = temp_dir("legend");
    for (game, bots) in [
        ("vabanque", ["heuristic", "random", "random"]),
        ("bouillabaisse", ["heuristic", "random", "random"]),
        ("machiavelli", ["heuristic", "baseline", "baseline"]),
    ] {
        let dir = base.join(game);
        let mut cmd = referee();
        cmd.args([
            "tournament",
            "--game",
            game,
            "--players",
            "3",
            "--seed",
            "5",
        ])
        .args(["-q", "--out", dir.to_str().unwrap()]);
        for (i, bot) in bots.iter().enumerate() {
            cmd.args(["--bot", &format!("b{i}=builtin:{bot}")]);
        }
        let played = cmd.output().unwrap();
        assert!(played.status.success(), "{}", stderr(&played));
        let leaderboard = |extra: &[&str]| {
            let mut args = vec!["leaderboard", dir.to_str().unwrap()];
            args.extend_from_slice(extra);
            run(&args)
        };
        let json = board(&leaderboard(&["--format", "json"]));
        let score_name = json["score_name"].as_str().unwrap();
        let higher = json["higher_is_better"].as_bool().unwrap();
        // The table printed at the end of the tournament and by `referee leaderboard` alike.
        let text = stdout(&played);
        let again = leaderboard(&[]);
        assert_eq!(
            stdout(&again),
            text.replace(&format!("results: {}\n", dir.display()), "")
        );
        // Every column's title has its words, in the order of the table.
        let header = text.lines().find(|l| l.starts_with("│ rank")).expect(&text);
        let titles: Vec<&str> = header
            .split('│')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect();
        let score_title = format!("mean {score_name} (95% CI)");
        assert!(titles.contains(&score_title.as_str()), "{titles:?}");
        for pair in titles.windows(2) {
            assert!(legend_of(&text, pair[0], pair[1]).len() > pair[0].len() + 20);
        }
        // The score's direction, from the game; half wins told in words.
        let score = legend_of(&text, &score_title, "faults");
        if higher {
            assert!(score.contains("(more is better)"), "{game}: {score}");
            assert!(!score.contains("lower is better"), "{game}: {score}");
        } else {
            assert!(score.contains("(lower is better)"), "{game}: {score}");
        }
        assert_eq!(game == "vabanque", higher, "{game}");
        let wins = legend_of(&text, "wins", "win rate");
        assert!(
            wins.contains("A first place shared by k bots counts 1/k for each of them"),
            "{wins}"
        );
        assert!(
            legend_of(&text, "rating μ−3σ", "μ ± σ").contains("A cautious estimate"),
            "{text}"
        );
        // Left out on request; Markdown has it as a list; JSON and CSV never.
        let bare = stdout(&leaderboard(&["--no-legend"]));
        assert!(!bare.contains("What the columns mean"), "{bare}");
        assert!(
            bare.contains("│ rank") && bare.contains("Head to head"),
            "{bare}"
        );
        let md = stdout(&leaderboard(&["--format", "markdown"]));
        assert!(md.contains("- **wins**: First places."), "{md}");
        let csv = stdout(&leaderboard(&["--format", "csv"]));
        assert!(!csv.contains("What the columns mean"), "{csv}");
        assert_eq!(csv.lines().count(), 4, "{csv}");
    }
}

/// `referee leaderboard DIR --bot NAME` with `extra` arguments.
fn bot_view(dir: &Path, bot: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["leaderboard", dir.to_str().unwrap(), "--bot", bot];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

#[test]
fn a_bots_view_lists_its_faults_with_their_messages_and_where_its_stderr_is() {
    let dir = faulty_tournament::dir();
    let results = faulty_tournament::results();
    let text = stdout(&bot_view(dir, "crasher", &["--limit", "0", "--all-faults"]));
    let played: Vec<(&Value, usize)> = results
        .iter()
        .filter_map(|r| faulty_tournament::seat_of(r, "crasher").map(|s| (r, s)))
        .collect();
    let summary = text.lines().next().unwrap();
    assert!(
        summary.starts_with("crasher: rank ")
            && summary.contains(&format!(
                " of 5 on the leaderboard; {} matches,",
                played.len()
            )),
        "{summary}"
    );
    let mut faults = 0;
    for (r, seat) in &played {
        // Every fault, with the referee's whole message.
        for f in r["faults"].as_array().unwrap() {
            if f["seat"] == *seat {
                faults += 1;
                // Its moment, named as everywhere: the match, the bot's own turn, the phase
                // and the log's decision.
                let at = match f["decision"].as_u64() {
                    Some(d) => format!(
                        "match {}, its {} turn (phase {}; log decision {d})",
                        r["id"],
                        referee::runner::ordinal(f["turn"].as_u64().unwrap()),
                        f["phase"].as_str().unwrap()
                    ),
                    None => format!("match {}, at start-up, before its first turn", r["id"]),
                };
                let line = format!(
                    "  {at}: {}: {}\n",
                    f["fault"].as_str().unwrap(),
                    f["message"].as_str().unwrap()
                );
                assert!(text.contains(&line), "{line}\n{text}");
            }
        }
        // Its stderr: the recorded file and range, in the table and beside its faults, with a
        // command that prints exactly that part of the file.
        let range = &r["stderr"][seat];
        let (file, from, to) = (
            range["file"].as_str().unwrap(),
            range["from"].as_u64().unwrap(),
            range["to"].as_u64().unwrap(),
        );
        assert!(text.contains(&format!("│ {file} {from}-{to} ")), "{text}");
        let place = format!(
            "stderr: bytes {from} to {to} of {file} ({} bytes): ",
            to - from
        );
        let at = text.find(&place).expect(&place);
        let command = text[at + place.len()..].lines().next().unwrap();
        let printed = shell(command, &root()).output().unwrap();
        let bytes = std::fs::read(dir.join("stderr").join(file)).unwrap();
        assert_eq!(
            printed.stdout,
            bytes[from as usize..to as usize],
            "{command}"
        );
        assert!(
            String::from_utf8_lossy(&printed.stdout).contains("RuntimeError: crasher"),
            "{command}"
        );
    }
    assert!(faults >= played.len(), "{faults} faults: {text}");
    // Its last lines of stderr under the faults of a match.
    assert!(
        text.contains("  | RuntimeError: crasher: deliberate crash"),
        "{text}"
    );

    // JSON: the report's data for the bot, every range as recorded.
    let json: Value =
        serde_json::from_slice(&bot_view(dir, "crasher", &["--format", "json"]).stdout).unwrap();
    let matches = json["matches"].as_array().unwrap();
    assert_eq!(matches.len(), played.len());
    for (m, (r, seat)) in matches.iter().zip(&played) {
        assert_eq!(m["id"], r["id"]);
        assert_eq!(m["seed"], r["seed"].to_string());
        assert_eq!(m["stderr_range"], r["stderr"][seat]);
        assert_eq!(m["rank"], r["ranks"][seat]);
    }
    assert_eq!(json["faults"].as_array().unwrap().len(), faults);

    // A long list is cut, and says so.
    let short = stdout(&bot_view(dir, "crasher", &["--limit", "2"]));
    let more = played.len() - 2;
    assert!(
        short.contains(&format!("… {more} more matches (--limit 0 shows all)")),
        "{short}"
    );
    // A built-in bot has no stderr of its own.
    let builtin = stdout(&bot_view(dir, "builtin-random", &[]));
    assert!(builtin.contains("faults in 0 of them"), "{builtin}");
    assert!(!builtin.contains("Faults, by match"), "{builtin}");

    refused(
        &["leaderboard", dir.to_str().unwrap(), "--bot", "nobody"],
        "--bot nobody: no bot of that name",
    );
    refused(
        &["leaderboard", dir.to_str().unwrap(), "--bot", "nobody"],
        "its bots: rust-heuristic, py-random, diarist, crasher, builtin-random",
    );
}
