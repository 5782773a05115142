//! Command lines with options after a bot's command: read as meant, or refused with the right
//! order.

use super::*;
use crate::args::{CheckArgs, Format};

fn argv(line: &[&str]) -> Vec<OsString> {
    std::iter::once("/bin/referee")
        .chain(line.iter().copied())
        .map(OsString::from)
        .collect()
}

fn check(line: &[&str]) -> CheckArgs {
    match parse(&argv(line)) {
        Ok(Cli {
            command: Command::Check(args),
        }) => args,
        other => panic!("{line:?}: {other:?}"),
    }
}

fn refused(line: &[&str]) -> String {
    match parse(&argv(line)) {
        Err(Refusal::Order(message)) => message,
        other => panic!("{line:?} was not refused for its order: {other:?}"),
    }
}

#[test]
fn the_check_command_is_the_end_of_the_line_and_a_later_dash_dash_is_the_bots() {
    let args = check(&["check", "--game", "vabanque", "./bot", "--", "x"]);
    assert_eq!(args.command, ["./bot", "--", "x"]);
    let args = check(&["check", "--game", "vabanque", "--", "./bot", "--seed", "2"]);
    assert_eq!(args.command, ["./bot", "--seed", "2"]);
    assert_eq!(args.seed, None, "after --, every word is the bot's");
}

#[test]
fn options_after_a_quoted_command_are_the_referees() {
    let args = check(&[
        "check",
        "--game",
        "vabanque",
        "java -cp d Bot",
        "--seed",
        "2",
        "--format=json",
    ]);
    assert_eq!(args.command, ["java -cp d Bot"]);
    assert_eq!(args.seed, Some(2));
    assert_eq!(args.format, Format::Json);
    // Given twice, clap refuses it as when both come first.
    let twice = [
        "check",
        "--game",
        "g",
        "--seed",
        "1",
        "java -cp d Bot",
        "--seed",
        "2",
    ];
    assert!(matches!(parse(&argv(&twice)), Err(Refusal::Clap(_))));
}

#[test]
fn other_words_after_a_quoted_command_go_inside_the_quotes() {
    assert_eq!(
        refused(&[
            "check",
            "--game",
            "vabanque",
            "python3 bot.py",
            "--level",
            "3",
            "--seed",
            "2"
        ]),
        "`--level 3` comes after the bot's quoted command and is not an option of referee \
         check: put the bot's own arguments inside the quotes: referee check --game vabanque \
         --seed 2 'python3 bot.py --level 3'"
    );
}

#[test]
fn a_referee_option_among_the_words_of_a_command_is_refused_with_both_orders() {
    assert_eq!(
        refused(&[
            "check", "--game", "vabanque", "java", "-cp", "d", "Bot", "--seed", "2"
        ]),
        "`--seed 2` comes after the bot's command, so it would be passed to the bot: put the \
         referee's options first: referee check --game vabanque --seed 2 -- java -cp d Bot (or, \
         if it is the bot's own, mark where the bot's command starts with --: referee check \
         --game vabanque -- java -cp d Bot --seed 2)"
    );
    // No `--` is needed when no word of the bot's looks like an option.
    let message = refused(&["check", "--game", "vabanque", "./bot", "--time-limit-ms=50"]);
    assert!(
        message.contains("first: referee check --game vabanque --time-limit-ms=50 ./bot (or"),
        "{message}"
    );
}

#[test]
fn a_bots_own_options_pass_unquoted_quoted_or_after_dash_dash() {
    let unquoted = check(&["check", "--game", "g", "python3", "bot.py", "--level", "3"]);
    assert_eq!(unquoted.command, ["python3", "bot.py", "--level", "3"]);
    let quoted = check(&["check", "--game", "g", "python3 bot.py --level 3"]);
    assert_eq!(quoted.command, ["python3 bot.py --level 3"]);
    let escaped = check(&[
        "check", "--game", "g", "--", "python3", "bot.py", "--level", "3",
    ]);
    assert_eq!(escaped.command, ["python3", "bot.py", "--level", "3"]);
}

#[test]
fn a_bot_command_split_after_dash_dash_bot_is_refused_quoted() {
    assert_eq!(
        refused(&[
            "match",
            "--game",
            "vabanque",
            "--bot",
            "a=java",
            "-cp",
            "d",
            "Bot",
            "--bot=builtin:random",
            "--seed",
            "2",
        ]),
        "unknown option '-cp' for referee match (`referee match --help` lists its options), or \
         the rest of a bot's command that the shell split: `-cp d Bot` comes after `--bot \
         a=java`, where it is not part of the bot's command: --bot takes the whole command as \
         one argument; quote it: referee match --game vabanque --bot 'a=java -cp d Bot' --bot \
         builtin:random --seed 2"
    );
    // The corrected line is one a shell splits as meant.
    let message = refused(&["tournament", "--bot", "python3", "my bot.py", "-j", "2"]);
    let (_, fixed) = message.split_once("quote it: ").unwrap();
    assert_eq!(
        shlex::split(fixed).unwrap(),
        [
            "referee",
            "tournament",
            "--bot",
            "python3 'my bot.py'",
            "-j",
            "2"
        ]
    );
    assert_eq!(
        shlex::split("python3 'my bot.py'").unwrap(),
        ["python3", "my bot.py"]
    );
}

#[test]
fn a_config_or_an_option_after_a_bot_is_no_part_of_it() {
    let lines: [&[&str]; 3] = [
        &["match", "--bot", "a=./x", "match.toml", "--seed=1"],
        &["tournament", "--bot", "a=./x", "-j", "2"],
        &["tournament", "--bot=a=./x", "--quiet", "t.toml"],
    ];
    for line in lines {
        let result = parse(&argv(line));
        assert!(
            !matches!(result, Err(Refusal::Order(_))),
            "{line:?}: {result:?}"
        );
    }
}

#[test]
fn an_unknown_option_before_the_command_is_named_as_one() {
    let message = refused(&[
        "check",
        "--game",
        "vabanque",
        "--stderr-file",
        "errs",
        "python3",
        "bot.py",
    ]);
    assert!(
        message.starts_with(
            "unknown option '--stderr-file' for referee check: did you mean '--stderr-dir'?"
        ),
        "{message}"
    );
    assert!(
        message.ends_with("referee check --game vabanque -- --stderr-file errs python3 bot.py"),
        "{message}"
    );
    // After `--`, it is the bot's.
    let args = check(&["check", "--game", "vabanque", "--", "--odd-bot", "x"]);
    assert_eq!(args.command, ["--odd-bot", "x"]);
    // Before --game too, where clap would take it for the command and miss --game.
    let message = refused(&["check", "--bogus"]);
    assert!(
        message.starts_with("unknown option '--bogus' for referee check"),
        "{message}"
    );
    // An option's value is not taken for an option, nor a negative number.
    let args = check(&["check", "--seed=3", "--game", "vabanque", "-1"]);
    assert_eq!(args.command, ["-1"]);
}

#[test]
fn an_unknown_option_alone_after_a_bot_is_named_with_the_line_that_quotes_it() {
    let message = refused(&["match", "--game", "g", "--bot", "a=./x", "--seeed=3"]);
    assert_eq!(
        message,
        "unknown option '--seeed' for referee match: did you mean '--seed'? (`referee match \
         --help` lists its options); if it is part of the bot's command, quote the whole \
         command: referee match --game g --bot 'a=./x --seeed=3'"
    );
    // clap's own refusal of an option it does not know is named the same way.
    let message = refused(&["tournament", "t.toml", "--quite"]);
    assert!(
        message.starts_with(
            "unknown option '--quite' for referee tournament: did you mean '--quiet'?"
        ),
        "{message}"
    );
}
