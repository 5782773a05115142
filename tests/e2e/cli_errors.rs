//! Bad input from the user: one clear line on stderr, a non-zero exit, never a panic.

use crate::util::*;

const R: &str = "--bot=builtin:random";

#[test]
fn unknown_game_wrong_player_count_and_missing_game() {
    refused(
        &["match", "--game", "chess", R],
        &format!(
            "unknown game 'chess' (known games: {})",
            engine::GameKind::names()
        ),
    );
    refused(
        &[
            "match",
            "--game",
            "vabanque",
            "--bot",
            "a=builtin:random",
            "--bot",
            "b=builtin:random",
        ],
        "vabanque is played by 3 to 6 players; 2 bots were given",
    );
    refused(&["match", R], "no game given");
}

#[test]
fn bot_commands_that_do_not_exist_or_cannot_run() {
    let bots = ["--bot", "a=builtin:random", "--bot", "b=builtin:random"];
    let mut args = vec![
        "match",
        "--game",
        "vabanque",
        "--bot",
        "x=no-such-bot-program-42",
    ];
    args.extend(bots);
    refused(
        &args,
        "bot 'x': command 'no-such-bot-program-42' not found in PATH",
    );
    let mut args = vec!["match", "--game", "vabanque", "--bot", "y=./Cargo.toml"];
    args.extend(bots);
    refused(&args, "bot 'y': './Cargo.toml' is not executable");
    let mut args = vec!["match", "--game", "vabanque", "--bot", "z=builtin:genius"];
    args.extend(bots);
    refused(
        &args,
        "has no built-in bot 'genius' (built-ins: random, heuristic)",
    );
    let mut args = vec![
        "match",
        "--game",
        "vabanque",
        "--bot",
        "a=builtin:heuristic",
    ];
    args.extend(bots);
    refused(&args, "two bots are named 'a'");
}

#[test]
fn malformed_flags_and_config_files() {
    refused(
        &["match", "--game", "vabanque", "--seed", "minus-one"],
        "invalid value 'minus-one' for '--seed <SEED>'",
    );
    refused(
        &["match", "--colour", "red"],
        "unknown option '--colour' for referee match",
    );
    let dir = temp_dir("bad-config");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "game = \"vabanque\"\nseeed = 3\n").unwrap();
    refused(&["match", bad.to_str().unwrap()], "unknown field `seeed`");
    refused(
        &["match", dir.join("absent.toml").to_str().unwrap()],
        "cannot read",
    );
    let opts = [
        "match",
        "--game",
        "vabanque",
        R,
        "--bot=b=builtin:random",
        "--bot=c=builtin:random",
        "--option",
        "colour=1",
    ];
    refused(&opts, "invalid options for vabanque");
}

#[test]
fn check_and_new_bot_refuse_what_they_cannot_use() {
    refused(
        &["check", "--game", "chess", "python3 bot.py"],
        "unknown game 'chess'",
    );
    refused(
        &["check", "--game", "vabanque", "no-such-bot-program-42"],
        "command 'no-such-bot-program-42' not found",
    );
    refused(&["check", "--game", "vabanque", ""], "the command is empty");
    refused(
        &["new-bot", "--game", "chess", "--lang", "python", "x"],
        "unknown game 'chess'",
    );
    refused(
        &["new-bot", "--game", "vabanque", "--lang", "cobol", "x"],
        "invalid value 'cobol'",
    );
    refused(
        &["new-bot", "--game", "vabanque", "--lang", "cobol", "x"],
        "[possible values: python, rust, javascript, java, cpp, go]",
    );
    // `c++` is `cpp`: the language is taken, and the game is what is refused.
    refused(
        &["new-bot", "--game", "chess", "--lang", "c++", "x"],
        "unknown game 'chess'",
    );
}

/// `--bot` takes a bot's whole command as one argument: one the shell split is refused, with it
/// quoted, rather than its words taken for a config file or an option.
#[test]
fn a_bot_command_split_by_the_shell_is_refused_with_it_quoted() {
    let bot = "sample-bots/python/vabanque_random.py";
    refused(
        &[
            "match",
            "--game",
            "vabanque",
            "--bot",
            "a=python3",
            bot,
            R,
            "--bot=c=builtin:random",
        ],
        &format!(
            "referee: `{bot}` comes after `--bot a=python3`, where it is not part of the bot's \
             command: --bot takes the whole command as one argument; quote it: referee match \
             --game vabanque --bot 'a=python3 {bot}' --bot builtin:random --bot c=builtin:random\n"
        ),
    );
    refused(
        &[
            "tournament",
            "--game",
            "vabanque",
            "--bot",
            "java",
            "-cp",
            "d",
            "Bot",
            "-j",
            "2",
        ],
        "`-cp d Bot` comes after `--bot java`",
    );
}
