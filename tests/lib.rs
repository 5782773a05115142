//! Helpers shared by the end-to-end tests live in `e2e/util.rs`; this library is empty.
