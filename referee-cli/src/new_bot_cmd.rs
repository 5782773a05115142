//! `referee new-bot`: writes a starter bot (a sample bot, as it is) and a README of the
//! commands that build, check and play it.

use super::Failure;
use super::args::{LangArg, NewBotArgs};
use super::match_config::game_kind;
use super::output::outln;
use protocol::ExitCode;
use referee::starters::{Language, starter};

/// Runs `referee new-bot`.
pub fn run(args: NewBotArgs) -> Result<ExitCode, Failure> {
    let game = game_kind(Some(args.game), None)?;
    let language = match args.lang {
        LangArg::Python => Language::Python,
        LangArg::Rust => Language::Rust,
        LangArg::Javascript => Language::JavaScript,
        LangArg::Java => Language::Java,
        LangArg::Cpp => Language::Cpp,
        LangArg::Go => Language::Go,
    };
    let starter = starter(game, language).map_err(Failure::usage)?;
    // The running binary by its absolute path: the README's lines then work from the bot's
    // directory whether or not the referee is on PATH.
    let referee = std::env::current_exe()
        .map(|exe| shell_word(&exe.display().to_string()))
        .unwrap_or_else(|_| "referee".to_string());
    let written = starter.write(&args.dir, &referee).map_err(Failure::usage)?;
    for path in &written {
        outln!("wrote {}", path.display());
    }
    outln!(
        "\nFrom {}, as its README.md says:\n{}",
        args.dir.display(),
        starter.commands(&referee).join("\n")
    );
    Ok(ExitCode::Success)
}

/// `word` as one word of a POSIX shell command line: as it is when that is safe, else quoted.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_path_with_spaces_or_quotes_is_one_shell_word() {
        assert_eq!(
            super::shell_word("/a/target/debug/referee"),
            "/a/target/debug/referee"
        );
        assert_eq!(super::shell_word("/my bots/referee"), "'/my bots/referee'");
        assert_eq!(super::shell_word("/it's"), "'/it'\\''s'");
    }
}
