//! The settings of `referee match`, from a TOML file and flags (flags win), validated.

use super::Failure;
use super::args::{Format, MatchArgs, RefereeingArgs};
use super::bot_settings::{PolicyArgs, SettingsArgs, max_faults, sandbox_mode};
use engine::GameKind;
use referee::policy::{ProcessPolicy, WorkdirSource};
use referee::runner::FaultPolicy;
use referee::safe_fs::limits::CONFIG_BYTES;
use referee::seat::{BotSpec, BotUids, Launch, SandboxMode, spec::check_unique};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A match file (`referee match match.toml`).
#[derive(Debug, Default, Deserialize)]
struct MatchFile {
    game: Option<String>,
    seed: Option<u64>,
    log: Option<PathBuf>,
    stderr_dir: Option<PathBuf>,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    bot: Vec<BotEntry>,
    #[serde(flatten)]
    refereeing: RefereeingFile,
}

/// The keys of a match or tournament file about how bots are refereed. Keys not listed here
/// must be bot settings ([`SettingsArgs`]), which are checked when the file is read.
#[derive(Debug, Default, Deserialize)]
pub(super) struct RefereeingFile {
    max_faults: Option<u32>,
    sandbox: Option<SandboxMode>,
    bot_uids: Option<BotUids>,
    #[serde(default)]
    hide: Vec<PathBuf>,
    #[serde(flatten)]
    policy: PolicyArgs,
    #[serde(flatten)]
    settings: toml::Table,
}

/// A `[[bot]]` entry of a config file: its name, command, working directory and any bot
/// setting ([`SettingsArgs`]) of its own.
#[derive(Debug, Deserialize)]
pub(super) struct BotEntry {
    name: Option<String>,
    command: CommandValue,
    workdir: Option<PathBuf>,
    #[serde(flatten)]
    settings: toml::Table,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum CommandValue {
    Line(String),
    List(Vec<String>),
}

/// A validated `referee match` configuration.
#[derive(Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// The players in seat order.
    pub bots: Vec<BotSpec>,
    /// The match seed.
    pub seed: u64,
    /// Whether the seed was drawn (not given).
    pub seed_drawn: bool,
    /// Where to write the log.
    pub log: Option<PathBuf>,
    /// How faults are handled.
    pub refereeing: Refereeing,
    /// Where to save stderr.
    pub stderr_dir: Option<PathBuf>,
    /// Game options as JSON.
    pub options: serde_json::Value,
    /// Output format.
    pub format: Format,
}

/// Reads a TOML config file: a regular file of at most [`CONFIG_BYTES`], UTF-8.
pub(super) fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    let bytes = referee::safe_fs::read_named(path, CONFIG_BYTES)
        .map_err(|e| Failure::usage(format!("cannot read {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::usage(format!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    toml::from_str(&text).map_err(|e| Failure::usage(toml_error(path, &text, &e)))
}

/// The most characters of a TOML file's line that an error quotes, around the place it names.
const QUOTED_CHARS: usize = 80;

/// One line for a TOML error: the file, the line and column, what is wrong, and the line it is
/// on, cut to [`QUOTED_CHARS`] around the column and escaped: the file may be anyone's, and a line
/// of 200,000 characters or of terminal escapes is quoted as neither.
fn toml_error(path: &Path, text: &str, error: &toml::de::Error) -> String {
    let message = referee::untrusted::line(error.message().trim()).into_owned();
    let Some(at) = error.span().map(|span| span.start.min(text.len())) else {
        return format!("{}: {message}", path.display());
    };
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
    let column = text[line_start..at].chars().count();
    let first = column.saturating_sub(QUOTED_CHARS / 2);
    let quoted: String = line.chars().skip(first).take(QUOTED_CHARS).collect();
    let cut_before = if first > 0 { "…" } else { "" };
    let cut_after = if line.chars().count() > first + QUOTED_CHARS {
        "…"
    } else {
        ""
    };
    format!(
        "{}: line {}, column {}: {message}: {cut_before}{}{cut_after}",
        path.display(),
        text[..line_start].matches('\n').count() + 1,
        column + 1,
        referee::untrusted::line(&quoted)
    )
}

/// A seed drawn from the clock, for runs that were given none.
pub(super) fn drawn_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    engine::seed::derive(nanos, "cli", u64::from(std::process::id()))
}

fn parse_option(kv: &str, table: &mut toml::Table) -> Result<(), Failure> {
    let (key, value) = kv
        .split_once('=')
        .ok_or_else(|| Failure::usage(format!("--option {kv:?}: expected KEY=VALUE")))?;
    let parsed: toml::Table = toml::from_str(&format!("v = {value}"))
        .or_else(|_| toml::from_str(&format!("v = {}", toml::Value::String(value.to_string()))))
        .map_err(|e| Failure::usage(format!("--option {kv:?}: {e}")))?;
    table.insert(key.trim().to_string(), parsed["v"].clone());
    Ok(())
}

/// Builds the configuration from the flags and the optional file.
///
/// # Errors
/// A usage [`Failure`] with one line saying what is wrong.
pub fn from_args(args: MatchArgs) -> Result<MatchConfig, Failure> {
    let file = match &args.config {
        Some(path) => read_toml(path)?,
        None => MatchFile::default(),
    };
    let game = game_kind(args.game, file.game)?;
    let (refereeing, settings) = Refereeing::from(
        &args.refereeing,
        file.refereeing,
        args.config.clone(),
        "match",
    )?;
    let bots = bot_specs(&args.bots, file.bot, &args.refereeing.settings, &settings)?;
    let options = game_options(file.options, &args.refereeing.options)?;
    let seed = args.seed.or(file.seed);
    Ok(MatchConfig {
        game,
        bots,
        seed_drawn: seed.is_none(),
        seed: seed.unwrap_or_else(drawn_seed),
        log: args.log.or(file.log),
        refereeing,
        stderr_dir: args.stderr_dir.or(file.stderr_dir),
        options,
        format: args.format,
    })
}

/// The bots from `--bot` flags, or else from the file's `[[bot]]` entries; names must be unique.
/// Each bot's settings come from the flags, else its entry, else the file's top level.
pub(super) fn bot_specs(
    flags: &[String],
    entries: Vec<BotEntry>,
    flag_settings: &SettingsArgs,
    file_settings: &SettingsArgs,
) -> Result<Vec<BotSpec>, Failure> {
    let bots = if flags.is_empty() {
        entries
            .into_iter()
            .enumerate()
            .map(|(i, entry)| {
                let launch = match entry.command {
                    CommandValue::List(words) => Launch::Command(words),
                    CommandValue::Line(line) => {
                        BotSpec::parse(&line).map_err(Failure::usage)?.launch
                    }
                };
                let own = SettingsArgs::from_table(entry.settings, &format!("[[bot]] #{}", i + 1))?;
                let mut spec = BotSpec::new(entry.name, launch).map_err(Failure::usage)?;
                spec.settings = flag_settings
                    .or(&own)
                    .or(file_settings)
                    .resolve(entry.workdir);
                Ok(spec)
            })
            .collect::<Result<Vec<_>, Failure>>()?
    } else {
        flags
            .iter()
            .map(|b| {
                let mut spec = BotSpec::parse(b).map_err(Failure::usage)?;
                spec.settings = flag_settings.or(file_settings).resolve(None);
                Ok(spec)
            })
            .collect::<Result<Vec<_>, Failure>>()?
    };
    check_unique(&bots).map_err(Failure::usage)?;
    Ok(bots)
}

/// The game options: the file's `[options]` table with `--option KEY=VALUE` flags on top.
pub(super) fn game_options(
    mut table: toml::Table,
    flags: &[String],
) -> Result<serde_json::Value, Failure> {
    for kv in flags {
        parse_option(kv, &mut table)?;
    }
    Ok(serde_json::to_value(table).expect("TOML values convert to JSON"))
}

/// The game named by the flag, or else by the file.
pub(super) fn game_kind(flag: Option<String>, file: Option<String>) -> Result<GameKind, Failure> {
    let name = flag
        .or(file)
        .ok_or_else(|| Failure::usage("no game given: use --game NAME (see 'referee games')"))?;
    GameKind::from_name(&name).map_err(Failure::usage)
}

/// How the match or tournament is refereed, beyond each bot's own settings: flags, else the
/// file, else the defaults.
#[derive(Debug)]
pub struct Refereeing {
    /// Faults after which a bot is stopped for the rest of a match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: FaultPolicy,
    /// How bot processes are run: the sandbox, the uids, and the paths sandboxed bots must
    /// not see besides the run's outputs (the config file and those given with `--hide` or
    /// `hide = [...]`).
    pub process: ProcessPolicy,
    /// Start-up warnings in full (`--verbose`), not in one short line each.
    pub verbose: bool,
}

impl Refereeing {
    /// The refereeing from the flags and the `file` read from `config_file` (a `kind` file,
    /// for messages), and the bot settings at the file's top level.
    ///
    /// # Errors
    /// A usage failure for an unknown key or a bad value in the file.
    pub(super) fn from(
        flags: &RefereeingArgs,
        file: RefereeingFile,
        config_file: Option<PathBuf>,
        kind: &str,
    ) -> Result<(Self, SettingsArgs), Failure> {
        let settings = SettingsArgs::from_table(file.settings, &format!("the {kind} file"))?;
        let mut hide: Vec<PathBuf> = config_file.into_iter().collect();
        hide.extend(file.hide);
        hide.extend(flags.hide.iter().cloned());
        let refereeing = Refereeing {
            max_faults: max_faults(flags.max_faults, file.max_faults),
            policy: flags.policy.resolve(&file.policy),
            process: ProcessPolicy {
                sandbox: sandbox_mode(flags.sandbox, file.sandbox),
                bot_uids: flags.bot_uids.or(file.bot_uids).unwrap_or_default(),
                hide,
                workdirs: WorkdirSource::Named,
                from: None,
            },
            verbose: flags.verbose,
        };
        Ok((refereeing, settings))
    }
}

#[cfg(test)]
mod tests {
    use super::{QUOTED_CHARS, toml_error};
    use std::path::Path;

    fn error_of(text: &str) -> String {
        let error = toml::from_str::<toml::Table>(text).unwrap_err();
        toml_error(Path::new("t.toml"), text, &error)
    }

    /// A line of 200,000 characters is quoted as 80 of them around the error; a line of
    /// terminal escapes is quoted escaped.
    #[test]
    fn a_toml_error_quotes_a_short_escaped_piece_of_its_line() {
        let long = format!("game = \"vabanque\"\nbad = {}\n", "x".repeat(200_000));
        let said = error_of(&long);
        assert!(said.starts_with("t.toml: line 2, column 7: "), "{said}");
        assert!(said.len() < 250, "{} bytes: {said}", said.len());
        assert!(said.contains(&format!("bad = {}…", "x".repeat(QUOTED_CHARS - 6))));
        let escapes = error_of("a = [1, \u{1b}[2J\n");
        assert!(escapes.contains("\\u{1b}[2J"), "{escapes}");
        assert!(!escapes.contains('\u{1b}'), "{escapes}");
    }
}
