//! The store's tests: every case runs on SQLite and on PostgreSQL (`REFEREE_TEST_POSTGRES`,
//! a URL of a role that may create databases: `.ci/postgres` starts one). Each PostgreSQL case
//! gets a database of its own, dropped after it. Under `CI`, a missing PostgreSQL fails.

mod backends;
mod cases;
mod class_cases;
mod contention;
mod migrations;
mod times;

pub(crate) use backends::on_each;
