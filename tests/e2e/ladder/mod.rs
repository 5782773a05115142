//! The ladder end to end: `referee ladder serve` and `referee ladder worker` as separate
//! processes, real bot processes, HTTP on the loopback; each test on SQLite and on PostgreSQL
//! (`REFEREE_TEST_POSTGRES`, a role that may create databases: `.ci/postgres` starts one;
//! under CI a missing PostgreSQL fails).

mod board;
mod board_scale_smoke;
mod crash;
mod flow;
mod harness;
mod hostile;
mod load_smoke;
mod lost_worker;
mod match_pages;
mod owners;
mod phone;
mod refusals;
mod sealed;
mod teacher;
mod uids;
mod walkthrough;
