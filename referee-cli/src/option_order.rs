//! A bot's command and the referee's options on one command line. The shell splits the line at
//! its spaces before clap sees it, so a word can land where the user did not mean it: an option
//! written after `referee check`'s bot command would be passed to the bot, a bot's argument after
//! `--bot NAME=PROGRAM` would be read as a config file. This module finds such lines before
//! anything runs, and reads them as meant where that is certain, else refuses them with the
//! command line in the right order (exit code 2). Nothing is passed to a bot by surprise.
//!
//! - `referee check` takes the bot's command last, as one quoted argument (`"java -cp d Bot"`,
//!   split like a shell would) or as its words (`java -cp d Bot`). After `--`, every word is the
//!   bot's, whatever it looks like: `referee check --game G -- python3 bot.py --seed 3`.
//! - The command as one quoted argument, followed by options of `referee check`
//!   (`check --game G "java -cp d Bot" --seed 2`): they can only be the referee's (a bot's own
//!   arguments would be inside the quotes), so they are read as if written first. Any other word
//!   there is refused: the bot's arguments go inside the quotes.
//! - The command as words, with an option of `referee check` among them
//!   (`check --game G java -cp d Bot --seed 2`): it could be the bot's as well as the referee's,
//!   so it is refused, with both lines: the referee's options first, or the bot's command after
//!   `--`.
//! - `referee match` and `tournament` take each bot as one argument, `--bot NAME=COMMAND`: a word
//!   after a `--bot` value that is neither an option nor a `.toml` file (the config) is the rest of
//!   a command the shell split; it is refused, with the command quoted.
//! - An option no command has is named as one in every command (`unknown option '--x' for referee
//!   SUB`, [`unknown`]): clap's refusal of it, one where `check`'s bot command would start, and
//!   one alone after a `--bot` value (which may also be the bot's own: the quoted line is given).

use super::args::{Cli, Command};
use clap::{Arg, ArgAction, CommandFactory, Parser};
use std::ffi::OsString;

/// Why a command line was not read.
#[derive(Debug)]
pub enum Refusal {
    /// clap's own error, which prints itself with the usage.
    Clap(clap::Error),
    /// Words in the wrong order: what is wrong and the corrected command line.
    Order(String),
}

/// Reads the command line `argv` (the program's name first) into a [`Cli`], options written
/// after a bot's command put where they belong or refused. See the [module documentation](self).
///
/// # Errors
/// [`Refusal`] when clap refuses the line, or a word stands where it would not be read as meant.
pub fn parse(argv: &[OsString]) -> Result<Cli, Refusal> {
    options_before_the_check_command(argv)?;
    whole_bot_values(argv)?;
    let cli = Cli::try_parse_from(argv).map_err(|e| refusal(argv, e))?;
    check_command(argv, cli)
}

/// clap's refusal `error` of `argv`, an unknown option named as such ([`unknown::message`]).
fn refusal(argv: &[OsString], error: clap::Error) -> Refusal {
    match unknown::refused_option(&error) {
        Some(option) => Refusal::Order(unknown::message(&subcommand_of(argv), &option)),
        None => Refusal::Clap(error),
    }
}

/// The subcommand `argv` names (its second word), or "" when it names none.
fn subcommand_of(argv: &[OsString]) -> String {
    let word = argv
        .get(1)
        .map(|w| w.to_string_lossy().into_owned())
        .unwrap_or_default();
    match Cli::command().find_subcommand(&word) {
        Some(sub) => sub.get_name().to_string(),
        None => String::new(),
    }
}

/// `referee check`: a word written as an option before the bot's command that is no option of
/// check is an unknown option, not the bot's program (after `--`, it is the bot's). Checked
/// before clap, which would take it for the command and then miss `--game`.
fn options_before_the_check_command(argv: &[OsString]) -> Result<(), Refusal> {
    if argv.get(1).is_none_or(|w| w != "check") {
        return Ok(());
    }
    let options = Options::of("check");
    let mut i = 2;
    while let Some(word) = argv.get(i).map(|w| w.to_string_lossy().into_owned()) {
        if word == "--" || word == "-h" || word == "--help" {
            return Ok(());
        }
        match options.find(&word) {
            Some((arg, inline)) => {
                i += 1 + usize::from(arg.get_action().takes_values() && !inline);
            }
            None if unknown::looks_like_option(&word) => {
                let rest: Vec<String> = argv[i..]
                    .iter()
                    .map(|w| w.to_string_lossy().into_owned())
                    .collect();
                return Err(Refusal::Order(format!(
                    "{}; if the bot's command starts with it, mark where the command starts \
                     with --: {}",
                    unknown::message("check", unknown::name_of(&word)),
                    line(&argv[..i], &[vec!["--".to_string()], rest].concat())
                )));
            }
            // The bot's command starts here.
            None => return Ok(()),
        }
    }
    Ok(())
}

/// `referee check`'s bot command with the words after its program: options of the referee after
/// a quoted command are read as the referee's, other words refused (see the
/// [module documentation](self)).
fn check_command(argv: &[OsString], cli: Cli) -> Result<Cli, Refusal> {
    let Command::Check(args) = &cli.command else {
        return Ok(cli);
    };
    let [program, rest @ ..] = args.command.as_slice() else {
        return Ok(cli);
    };
    // The command's words end the line (`trailing_var_arg`); a `--` before them is not among them.
    // (An unknown option where the command starts was refused before clap read the line.)
    let start = argv.len() - args.command.len();
    let marked = argv[start - 1] == "--";
    if rest.is_empty() || marked {
        return Ok(cli);
    }
    let options = Options::of("check");
    let (referee, bot) = options.split(rest);
    let before = &argv[..start];
    if program.contains(char::is_whitespace) {
        if !bot.is_empty() {
            let quoted = format!("{program} {}", join(&bot));
            return Err(Refusal::Order(format!(
                "`{}` comes after the bot's quoted command and is not an option of referee check: \
                 put the bot's own arguments inside the quotes: {}",
                join(&bot),
                line(before, &[referee, vec![quoted]].concat())
            )));
        }
        let mut fixed = before.to_vec();
        fixed.extend(referee.iter().map(OsString::from));
        fixed.extend(["--", program].map(OsString::from));
        return Cli::try_parse_from(&fixed).map_err(|e| refusal(&fixed, e));
    }
    if referee.is_empty() {
        return Ok(cli);
    }
    let words = [vec![program.clone()], bot].concat();
    let dashes = words
        .iter()
        .any(|w| w.starts_with('-'))
        .then(|| "--".to_string());
    let first = [referee.clone(), dashes.into_iter().collect(), words.clone()].concat();
    let escaped = [vec!["--".to_string()], words, referee.clone()].concat();
    Err(Refusal::Order(format!(
        "`{}` comes after the bot's command, so it would be passed to the bot: put the referee's \
         options first: {} (or, if it is the bot's own, mark where the bot's command starts with \
         --: {})",
        join(&referee),
        line(before, &first),
        line(before, &escaped)
    )))
}

/// `referee match` and `tournament`: each `--bot` value is followed by an option, the config
/// (a `.toml` file) or nothing; a word there is the rest of a bot's command the shell split.
fn whole_bot_values(argv: &[OsString]) -> Result<(), Refusal> {
    let words: Vec<String> = argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let Some(sub @ ("match" | "tournament")) = words.get(1).map(String::as_str) else {
        return Ok(());
    };
    let options = Options::of(sub);
    let ends_command =
        |word: &str| word == "--" || options.find(word).is_some() || word.ends_with(".toml");
    let mut fixed = vec![sub.to_string()];
    let mut first_stray: Option<(String, Vec<String>)> = None;
    let mut i = 2;
    while i < words.len() {
        let word = &words[i];
        if word == "--" {
            fixed.extend(words[i..].iter().cloned());
            break;
        }
        // The index of the `--bot` value, and its text without the `NAME=` of `--bot=`.
        let value = match word.strip_prefix("--bot=") {
            Some(value) => Some((i, value.to_string())),
            None if word == "--bot" && i + 1 < words.len() => Some((i + 1, words[i + 1].clone())),
            None => None,
        };
        let Some((at, value)) = value else {
            fixed.push(word.clone());
            i += 1;
            continue;
        };
        let stray: Vec<String> = words[at + 1..]
            .iter()
            .take_while(|w| !ends_command(w))
            .cloned()
            .collect();
        fixed.push("--bot".into());
        fixed.push(match stray.is_empty() {
            true => value.clone(),
            false => format!("{value} {}", join(&stray)),
        });
        if !stray.is_empty() && first_stray.is_none() {
            first_stray = Some((format!("--bot {value}"), stray.clone()));
        }
        i = at + 1 + stray.len();
    }
    let Some((bot, stray)) = first_stray else {
        return Ok(());
    };
    let fixed = line(&argv[..1], &fixed);
    let split = format!(
        "`{}` comes after `{bot}`, where it is not part of the bot's command: --bot takes the \
         whole command as one argument; quote it: {fixed}",
        join(&stray)
    );
    // A word written as an option there is most likely one the referee does not have.
    Err(Refusal::Order(match stray.as_slice() {
        [word] if unknown::looks_like_option(word) => format!(
            "{}; if it is part of the bot's command, quote the whole command: {fixed}",
            unknown::message(sub, unknown::name_of(word))
        ),
        [word, ..] if unknown::looks_like_option(word) => format!(
            "{}, or the rest of a bot's command that the shell split: {split}",
            unknown::message(sub, unknown::name_of(word))
        ),
        _ => split,
    }))
}

/// The options of a subcommand, to tell them among a bot's words.
struct Options(Vec<Arg>);

impl Options {
    /// The options of `referee SUBCOMMAND` (not `--help`).
    fn of(subcommand: &str) -> Self {
        let cli = Cli::command();
        let args = cli
            .find_subcommand(subcommand)
            .map(|sub| {
                sub.get_arguments()
                    .filter(|a| !a.is_positional())
                    .filter(|a| !matches!(a.get_action(), ArgAction::Help | ArgAction::Version))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        Options(args)
    }

    /// The option `word` names (`--seed`, `--seed=2`, `-j`, `-j4`), and whether it holds the
    /// option's value.
    fn find(&self, word: &str) -> Option<(&Arg, bool)> {
        if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = long
                .split_once('=')
                .map_or((long, false), |(n, _)| (n, true));
            return self
                .0
                .iter()
                .find(|a| a.get_long() == Some(name))
                .map(|a| (a, inline));
        }
        let mut chars = word.strip_prefix('-')?.chars();
        let short = chars.next()?;
        let inline = chars.next().is_some();
        self.0
            .iter()
            .find(|a| a.get_short() == Some(short))
            .map(|a| (a, inline))
    }

    /// The words of these options among `words`, each with its value, and the other words.
    fn split(&self, words: &[String]) -> (Vec<String>, Vec<String>) {
        let (mut options, mut others) = (Vec::new(), Vec::new());
        let mut words = words.iter();
        while let Some(word) = words.next() {
            match self.find(word) {
                Some((arg, inline)) => {
                    options.push(word.clone());
                    if arg.get_action().takes_values() && !inline {
                        options.extend(words.next().cloned());
                    }
                }
                None => others.push(word.clone()),
            }
        }
        (options, others)
    }
}

/// `referee` with the words of `before` after its name (`before[0]`, the program, left out) and
/// then `words`, quoted for a shell.
fn line(before: &[OsString], words: &[String]) -> String {
    let mut all: Vec<String> = before
        .iter()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    all.extend(words.iter().cloned());
    format!("referee {}", join(&all))
}

/// Words joined for a shell, each quoted where it needs to be (`--seed=2` is left as it is).
fn join(words: &[String]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_=+:,./@%".contains(c);
    words
        .iter()
        .map(|w| match w.chars().all(plain) && !w.is_empty() {
            true => w.clone(),
            false => shlex::try_quote(w).map_or_else(|_| w.clone(), |q| q.into_owned()),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
mod unknown;
