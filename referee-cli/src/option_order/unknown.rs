//! An option no command of the referee has, named as such in every command: `unknown option
//! '--x' for referee SUB`, with the nearest option of the command if one is near, and where the
//! command's options are listed. Never read as a bot's program, a file or a missing argument.

use super::Options;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The message for `word`, an option `referee SUBCOMMAND` does not have (`subcommand` empty for
/// `referee` itself).
pub fn message(subcommand: &str, word: &str) -> String {
    let command = match subcommand {
        "" => "referee".to_string(),
        sub => format!("referee {sub}"),
    };
    let near = nearest(subcommand, word)
        .map(|name| format!(": did you mean '{name}'?"))
        .unwrap_or_default();
    format!("unknown option '{word}' for {command}{near} (`{command} --help` lists its options)")
}

/// The option clap refused as unknown in `error`, if that is what it refused (an unexpected
/// word that does not start with `-` is not an option).
pub fn refused_option(error: &clap::Error) -> Option<String> {
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) if arg.starts_with('-') && arg != "-" => {
            Some(name_of(arg).to_string())
        }
        _ => None,
    }
}

/// Whether `word` is written as an option (`-x`, `--x`, `--x=1`), not `-`, `--` or a number.
pub fn looks_like_option(word: &str) -> bool {
    word.starts_with('-')
        && word != "-"
        && word != "--"
        && !word[1..].starts_with(|c: char| c.is_ascii_digit())
}

/// The option's name without an inline value: `--seed` of `--seed=2`.
pub fn name_of(word: &str) -> &str {
    match word.starts_with("--") {
        true => word.split_once('=').map_or(word, |(name, _)| name),
        false => word,
    }
}

/// The long option of `subcommand` nearest to `word`, if one is near enough to be a typo.
fn nearest(subcommand: &str, word: &str) -> Option<String> {
    let typed = word.strip_prefix("--")?;
    Options::of(subcommand)
        .0
        .iter()
        .filter_map(|arg| arg.get_long())
        .map(|long| (distance(typed, long), long))
        .filter(|&(d, long)| d <= (long.chars().count() / 3).max(2))
        .min_by_key(|&(d, _)| d)
        .map(|(_, long)| format!("--{long}"))
}

/// The Levenshtein distance between `a` and `b`, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_option_its_command_and_the_nearest_one() {
        assert_eq!(
            message("match", "--seeed"),
            "unknown option '--seeed' for referee match: did you mean '--seed'? (`referee match --help` lists its options)"
        );
        assert_eq!(
            message("bench", "--bogus"),
            "unknown option '--bogus' for referee bench (`referee bench --help` lists its options)"
        );
        assert!(message("", "--x").starts_with("unknown option '--x' for referee ("));
    }

    #[test]
    fn what_looks_like_an_option() {
        for word in ["-x", "--x", "--x=1", "-j4"] {
            assert!(looks_like_option(word), "{word}");
        }
        for word in ["-", "--", "-1", "x", "x.toml"] {
            assert!(!looks_like_option(word), "{word}");
        }
        assert_eq!(name_of("--seed=2"), "--seed");
        assert_eq!(name_of("-j4"), "-j4");
    }

    #[test]
    fn distances() {
        assert_eq!(distance("seed", "seed"), 0);
        assert_eq!(distance("seeed", "seed"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
