//! The `referee` binary: everything is in [`referee_cli`].

fn main() {
    std::process::exit(referee_cli::main());
}
