//! End-to-end tests: the real `referee` binary against real bot processes (Python, Rust,
//! JavaScript, Java, C++, Go and C, and the misbehaving bots of `tests/bots/`).
//!
//! The binaries must be built first: `cargo build --workspace --bins` (the README's test
//! command, `cargo build --workspace --bins --tests && cargo test --workspace`, does it).

mod bench_tournament;
mod bouillabaisse;
mod browser;
mod check;
mod check_stderr;
mod class_tournament;
mod cli_errors;
mod counters;
mod covert;
// The ladder benches' databases, for their smoke tests (ladder::load_smoke, board_scale_smoke).
#[path = "../load/databases.rs"]
mod databases;
mod determinism;
mod doc_code;
mod doc_commands;
mod doc_outputs;
mod drip;
mod every_game;
mod fair_cpu;
mod fault_messages;
mod fault_summary;
mod faults;
mod faulty_tournament;
mod grades;
mod hostile_results;
mod huge_numbers;
mod ladder;
mod ladder_export;
mod leaderboard;
mod leaderboard_notes;
mod lifecycle;
mod lines_and_environment;
mod machiavelli;
mod match_log;
mod matches;
mod merge_files;
mod narrative;
mod nava;
mod new_bot;
mod private_results;
mod privileges;
mod readme;
mod replace;
mod replay;
mod replay_viewer;
mod report;
mod report_one_bot;
mod report_size;
mod rerun;
mod rerun_difference;
mod rerun_trust;
mod runtimes;
mod sandbox;
mod schema;
mod stand_in;
mod stderr_budget;
mod strength;
mod terminal_text;
mod time_controls;
mod tournament;
mod transcripts;
mod unknown_options;
mod util;
mod workdir_quota;
mod workdir_swap;
mod worked_examples;
mod zoo;
