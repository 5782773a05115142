//! Every starter bot there is, and the one asked for.

use super::error::NewBotError;
use super::files::{RUST_STARTER, SAMPLES, StarterFile};
use super::language::Language;
use engine::{Game, GameKind, with_game};

/// A starter bot: a game, a language, its files and how to build and run it.
#[derive(Clone, Debug)]
pub struct Starter {
    /// The game it plays.
    pub game: GameKind,
    /// The language it is written in.
    pub language: Language,
    /// Its files.
    pub files: Vec<StarterFile>,
    /// The command that builds it in its directory, if it needs building.
    pub build: Option<&'static str>,
    /// The command that runs it from its directory.
    pub command: String,
}

/// Every starter bot, game by game in the registry's order, languages in [`Language::ALL`]'s.
pub fn starters() -> Vec<Starter> {
    let mut all = Vec::new();
    for &game in GameKind::ALL {
        for language in Language::ALL {
            let Some(convention) = language.convention() else {
                if with_game!(game, G => G::LISTS_ACTIONS) {
                    all.push(Starter {
                        game,
                        language,
                        files: RUST_STARTER.to_vec(),
                        build: language.recipe().build,
                        command: language.recipe().run_command("random-starter"),
                    });
                }
                continue;
            };
            let samples = SAMPLES.iter().filter(|s| {
                s.game == game.name()
                    && s.dir == convention.dir
                    && s.extension == convention.extension
            });
            all.extend(samples.map(|sample| {
                let file = convention.file.unwrap_or(sample.file);
                let main = StarterFile {
                    path: file,
                    sample: sample.sample,
                    text: sample.text,
                    executable: convention.executable,
                };
                Starter {
                    game,
                    language,
                    files: std::iter::once(main)
                        .chain(convention.shared.iter().cloned())
                        .collect(),
                    build: language.recipe().build,
                    command: language.recipe().run_command(file),
                }
            }));
        }
    }
    all
}

/// The starter for `game` in `language`.
///
/// # Errors
/// [`NewBotError::NoStarter`] naming the languages the game has starters in.
pub fn starter(game: GameKind, language: Language) -> Result<Starter, NewBotError> {
    let of_game: Vec<Starter> = starters().into_iter().filter(|s| s.game == game).collect();
    of_game
        .iter()
        .find(|s| s.language == language)
        .cloned()
        .ok_or_else(|| NewBotError::NoStarter {
            game: game.name(),
            language: language.name(),
            available: match of_game
                .iter()
                .map(|s| s.language.name())
                .collect::<Vec<_>>()
            {
                languages if languages.is_empty() => "none yet".to_string(),
                languages => languages.join(", "),
            },
        })
}
