//! The `referee` binary: everything is in the library's [`referee::cli`].

fn main() {
    std::process::exit(referee::cli::main());
}
