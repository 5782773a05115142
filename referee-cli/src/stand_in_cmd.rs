//! `referee stand-in FILE`: the stand-in bot ([`referee::stand_in`]) on this process's
//! standard input and output.

use super::Failure;
use super::args::StandInArgs;
use super::output::errln;
use protocol::ExitCode;
use referee::stand_in::{Served, read_script, serve};
use std::io::BufReader;

/// Reads the script, then plays it until the referee is done with the bot; exits with the
/// stand-in's own code when the recorded bot's process ended or the match parted from the
/// recorded one.
pub fn run(args: StandInArgs) -> Result<ExitCode, Failure> {
    let shown = args.script.display();
    let file = std::fs::File::open(&args.script)
        .map_err(|e| Failure::usage(format!("cannot read {shown}: {e}")))?;
    let steps =
        read_script(BufReader::new(file)).map_err(|e| Failure::usage(format!("{shown}: {e}")))?;
    let served = serve(&steps, std::io::stdin().lock(), std::io::stdout().lock());
    match served {
        // The referee closed the pipe: it is done with this bot.
        Ok(Served::Done) | Err(_) => Ok(ExitCode::Success),
        Ok(Served::Exit { code, note }) => {
            errln!("{note}");
            std::process::exit(code);
        }
    }
}
