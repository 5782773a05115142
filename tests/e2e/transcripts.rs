//! The protocol's transcripts, replayed: each fixture of `tests/fixtures/transcripts/` holds
//! every line the referee wrote to one seat of a real match and every line the bot wrote back, in
//! order (the format is in the README beside them). A test runs the same match again with that
//! seat played by `tests/bots/transcript.py replay`, which answers with the fixture's bot lines,
//! and asserts that the referee wrote exactly the fixture's referee lines, compared as JSON
//! values. Nothing is masked: the matches run without a time bank, so `time_left_ms` is the
//! per-decision limit on every request.
//!
//! With `REGENERATE_TRANSCRIPTS=1` in the environment, each test first records its fixture anew
//! (the seat played by the real sample bot through `transcript.py record`), writes it, and then
//! replays it as always: for a change of the protocol made on purpose.
//!
//! The docs quote the transcripts (protocol.md's example exchange, the game pages,
//! writing-a-bot.md): a block marked `<!-- transcript: PATH -->` must consist of lines of that
//! fixture, in its order (`...` stands for lines left out).

use crate::util::*;
use serde_json::Value;

/// The environment variable that makes the tests write their fixtures before replaying them.
const REGENERATE: &str = "REGENERATE_TRANSCRIPTS";

/// One transcript: a match, and the bot of seat 0, whose side of it the fixture holds.
struct Transcript {
    /// The fixture, relative to the workspace root.
    fixture: &'static str,
    /// The game.
    game: &'static str,
    /// The match seed.
    seed: &'static str,
    /// The bot recorded in seat 0 (named `spy`), relative to the workspace root; run by `python3`.
    bot: &'static str,
    /// The other seats, as on the command line: built-in bots (`NAME=` optional) or
    /// `NAME=COMMAND` with paths relative to the workspace root.
    others: &'static [&'static str],
    /// The options set, `KEY=VALUE` each, as `--option` takes them.
    options: &'static [&'static str],
}

const VABANQUE: Transcript = Transcript {
    fixture: "tests/fixtures/transcripts/vabanque.txt",
    game: "vabanque",
    seed: "8",
    bot: "sample-bots/python/vabanque_random.py",
    others: &["r1=builtin:random", "r2=builtin:random"],
    options: &[],
};

const BOUILLABAISSE: Transcript = Transcript {
    fixture: "tests/fixtures/transcripts/bouillabaisse.txt",
    game: "bouillabaisse",
    seed: "8",
    bot: "sample-bots/python/bouillabaisse_random.py",
    others: &["builtin:random", "builtin:heuristic"],
    options: &[],
};

const MACHIAVELLI: Transcript = Transcript {
    fixture: "tests/fixtures/transcripts/machiavelli.txt",
    game: "machiavelli",
    seed: "8",
    bot: "sample-bots/python/machiavelli_random.py",
    others: &[
        "builtin:heuristic",
        "invalid=python3 tests/bots/machiavelli_invalid.py",
    ],
    options: &["jokers=true", "hands=2"],
};

impl Transcript {
    /// The fixture's comment lines: the match it records, as a user would type it.
    fn header(&self) -> String {
        let mut command = format!(
            "referee match --game {} --seed {} --bot \"spy=python3 {}\"",
            self.game, self.seed, self.bot
        );
        for option in self.options {
            command.push_str(&format!(" --option {option}"));
        }
        for other in self.others {
            if other.contains(' ') {
                command.push_str(&format!(" --bot \"{other}\""));
            } else {
                command.push_str(&format!(" --bot {other}"));
            }
        }
        format!(
            "# {command}\n\
             # Seat 0 (spy): \"> \" is a line the referee wrote to it, \"< \" a line it wrote back.\n\
             # Written by REGENERATE_TRANSCRIPTS=1 cargo test -p tests --test e2e transcripts\n"
        )
    }

    /// Plays the match with seat 0 played by `transcript.py ARGS` and returns the lines it read
    /// and wrote, as transcript lines (`> …`, `< …`).
    fn play(&self, name: &str, seat0: &str) -> Vec<String> {
        let dir = temp_dir(name);
        let mut args = vec![
            "match".to_string(),
            "--game".into(),
            self.game.into(),
            "--seed".into(),
            self.seed.into(),
            "--stderr-dir".into(),
            dir.display().to_string(),
            "--bot".into(),
            format!("spy=python3 {} {seat0}", file("tests/bots/transcript.py")),
        ];
        for option in self.options {
            args.extend(["--option".to_string(), option.to_string()]);
        }
        for other in self.others {
            args.extend(["--bot".to_string(), other.to_string()]);
        }
        let out = referee().args(&args).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            !stdout(&out).contains("fault:"),
            "the match had faults (a timeout on a very busy machine would show here):\n{}",
            stdout(&out)
        );
        let seen = std::fs::read_to_string(dir.join("spy.stderr")).unwrap();
        seen.lines()
            .filter(|l| l.starts_with("> ") || l.starts_with("< "))
            .map(str::to_string)
            .collect()
    }

    /// Records the fixture anew from the real bot.
    fn regenerate(&self) {
        let lines = self.play(
            &format!("{}-record", self.game),
            &format!("record python3 {}", file(self.bot)),
        );
        let mut text = self.header();
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        std::fs::write(root().join(self.fixture), text).unwrap();
        eprintln!("wrote {}", self.fixture);
    }

    /// Replays the fixture and asserts that the referee wrote exactly its referee lines.
    fn replay(&self) {
        if std::env::var_os(REGENERATE).is_some() {
            self.regenerate();
        }
        let text = std::fs::read_to_string(root().join(self.fixture)).unwrap();
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            header,
            self.header(),
            "{}: the header does not name the match the test plays",
            self.fixture
        );
        let expected: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let got = self.play(
            &format!("{}-replay", self.game),
            &format!("replay {}", file(self.fixture)),
        );
        let (want_referee, want_bot) = split(&expected);
        let (got_referee, got_bot) = split(&got);
        let first_line = header.lines().count() + 1;
        for (i, (want, got)) in want_referee.iter().zip(&got_referee).enumerate() {
            let parsed = |line: &str| -> Value {
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))
            };
            assert!(
                parsed(want.1) == parsed(got.1),
                "{}:{}: the referee's line {} to the bot differs from the transcript's\n\
                 expected: {}\n     got: {}\n\
                 If the protocol changed on purpose, regenerate the transcripts: \
                 {REGENERATE}=1 cargo test -p tests --test e2e transcripts",
                self.fixture,
                first_line + want.0,
                i + 1,
                want.1,
                got.1
            );
        }
        assert_eq!(
            got_referee.len(),
            want_referee.len(),
            "{}: the referee wrote {} lines to the bot, the transcript has {}",
            self.fixture,
            got_referee.len(),
            want_referee.len()
        );
        let bot = |lines: &[(usize, &str)]| -> Vec<String> {
            lines.iter().map(|(_, l)| l.to_string()).collect()
        };
        assert_eq!(
            bot(&got_bot),
            bot(&want_bot),
            "{}: the bot did not write the transcript's lines",
            self.fixture
        );
    }
}

/// Lines of a transcript, without their prefix, each with its index among the transcript's lines.
type Lines<'a> = Vec<(usize, &'a str)>;

/// The referee's lines and the bot's lines of a transcript.
fn split<S: AsRef<str>>(lines: &[S]) -> (Lines<'_>, Lines<'_>) {
    let mut referee = Vec::new();
    let mut bot = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let line = line.as_ref();
        if let Some(l) = line.strip_prefix("> ") {
            referee.push((i, l));
        } else if let Some(l) = line.strip_prefix("< ") {
            bot.push((i, l));
        } else {
            panic!("not a transcript line: {line:?}");
        }
    }
    (referee, bot)
}

#[test]
fn the_vabanque_transcript_replays() {
    VABANQUE.replay();
}

#[test]
fn the_bouillabaisse_transcript_replays() {
    BOUILLABAISSE.replay();
}

#[test]
fn the_machiavelli_transcript_replays() {
    MACHIAVELLI.replay();
}

#[test]
fn every_transcript_quoted_in_the_docs_is_lines_of_its_fixture_in_order() {
    if std::env::var_os(REGENERATE).is_some() {
        // The other tests are rewriting the fixtures meanwhile.
        skipped(
            "the check of the quotes",
            "the fixtures are being regenerated; run the tests again without REGENERATE_TRANSCRIPTS",
        );
        return;
    }
    let mut quoted_by = Vec::new();
    for page in doc_pages() {
        for block in marked_blocks(&page)
            .into_iter()
            .filter(|b| b.kind == "transcript")
        {
            let fixture = std::fs::read_to_string(root().join(&block.path))
                .unwrap_or_else(|e| panic!("{}:{}: {}: {e}", page, block.line, block.path));
            let mut rest = fixture.lines();
            for (i, line) in block.text.lines().enumerate() {
                if line == "..." {
                    continue;
                }
                assert!(
                    rest.any(|l| l == line),
                    "{}:{}: this line is not in {} (after the block's previous line):\n{line}",
                    page,
                    block.line + 1 + i,
                    block.path
                );
            }
            quoted_by.push(page.clone());
        }
    }
    assert!(
        quoted_by.iter().any(|p| p == "docs/protocol.md"),
        "protocol.md quotes no transcript: {quoted_by:?}"
    );
}
