//! `referee new-bot`: writes a starter bot (a sample bot, as it is) and a two-line README.

use super::Failure;
use super::args::{LangArg, NewBotArgs};
use super::match_config::game_kind;
use super::output::outln;
use crate::starters::{Language, starter};
use protocol::ExitCode;

/// Runs `referee new-bot`.
pub fn run(args: NewBotArgs) -> Result<ExitCode, Failure> {
    let game = game_kind(Some(args.game), None)?;
    let language = match args.lang {
        LangArg::Python => Language::Python,
        LangArg::Rust => Language::Rust,
        LangArg::Javascript => Language::JavaScript,
    };
    let starter = starter(game, language).map_err(Failure::usage)?;
    let written = starter.write(&args.dir).map_err(Failure::usage)?;
    for path in &written {
        outln!("wrote {}", path.display());
    }
    outln!(
        "\nIn {}:\n{}",
        args.dir.display(),
        starter.readme().trim_end()
    );
    Ok(ExitCode::Success)
}
