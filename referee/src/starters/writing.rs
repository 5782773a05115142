//! A starter written out: its files in the bot's directory (never over a file), its README and
//! the commands that build, check and play it.

use super::catalogue::Starter;
use super::error::NewBotError;
use engine::with_game;
use std::path::{Path, PathBuf};

impl Starter {
    /// The commands to run from its directory, in order: its build command (if it has one),
    /// `referee check` on it, and a match against the built-in bots, with `referee` the
    /// referee's command (the running binary's absolute path, so that they work whether or not
    /// the referee is on `PATH`).
    pub fn commands(&self, referee: &str) -> Vec<String> {
        let game = self.game.name();
        let opponents: Vec<String> = with_game!(self.game, G => {
            crate::check::sparring_partners::<G>(crate::check::trial_players::<G>() - 1)
        })
        .iter()
        .map(|spec| format!("--bot {}={}", spec.name, spec.describe()))
        .collect();
        let command = &self.command;
        self.build
            .map(str::to_string)
            .into_iter()
            .chain([
                format!("{referee} check --game {game} {command}"),
                format!(
                    "{referee} match --game {game} --bot \"me={command}\" {}",
                    opponents.join(" ")
                ),
            ])
            .collect()
    }

    /// Its README: what it is and needs, then its [`Starter::commands`] in one `sh` block.
    pub fn readme(&self, referee: &str) -> String {
        let samples: Vec<String> = self
            .files
            .iter()
            .map(|f| format!("`{}` is `{}`", f.path, f.sample))
            .collect();
        let steps = match self.build {
            Some(_) => "build it, check",
            None => "check",
        };
        format!(
            "# A {language} bot for {game}\n\n\
             A complete bot that plays at random, with comments: put your strategy where they \
             say. Its files are sample bots of the referee's repository ({samples}). {needs}\n\n\
             From this directory, {steps} that it speaks the protocol, and play it against the \
             built-in bots:\n\n\
             ```sh\n{commands}\n```\n",
            language = self.language.title(),
            game = self.game.name(),
            samples = samples.join(", "),
            needs = self.language.needs(),
            commands = self.commands(referee).join("\n"),
        )
    }

    /// Writes its files and its README (see [`Starter::readme`]) into `dir` (created if
    /// needed) and returns their paths. Nothing is written if any of them exists already.
    ///
    /// # Errors
    /// [`NewBotError::NotADirectory`], [`NewBotError::Exists`] or [`NewBotError::Io`].
    pub fn write(&self, dir: &Path, referee: &str) -> Result<Vec<PathBuf>, NewBotError> {
        if dir.exists() && !dir.is_dir() {
            return Err(NewBotError::NotADirectory(dir.to_path_buf()));
        }
        let readme = self.readme(referee);
        let files: Vec<(PathBuf, &str, bool)> = self
            .files
            .iter()
            .map(|f| (dir.join(f.path), f.text, f.executable))
            .chain(std::iter::once((
                dir.join("README.md"),
                readme.as_str(),
                false,
            )))
            .collect();
        if let Some((path, ..)) = files.iter().find(|(path, ..)| path.exists()) {
            return Err(NewBotError::Exists(path.clone()));
        }
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| NewBotError::Io { path, source }
        };
        for (path, text, executable) in &files {
            let parent = path.parent().unwrap_or(dir);
            std::fs::create_dir_all(parent).map_err(io(parent))?;
            std::fs::write(path, text).map_err(io(path))?;
            if *executable {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
                    .map_err(io(path))?;
            }
        }
        Ok(files.into_iter().map(|(path, ..)| path).collect())
    }
}
