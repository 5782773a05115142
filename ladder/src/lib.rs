//! The ladder: a competition that runs by itself. Owners submit versions of their bots; each is
//! built and checked as a job; a matchmaker keeps matches going between the versions that
//! passed; workers (local, or on other machines over HTTP) claim jobs under leases, play them in
//! the sandbox exactly as `referee tournament` does and report the records, which the server
//! checks by replaying their logs before they count; every version has its own rating.
//!
//! The store ([`store`]) is the one place that knows SQL; the service ([`service`]) is the one
//! place that decides who may do what; the API ([`api`]) only turns HTTP into calls of the
//! service and back.

pub mod api;
pub mod artifacts;
pub mod auth;
pub mod bot_users;
pub mod build;
pub mod client;
pub mod client_class;
pub mod config;
pub mod export;
pub mod export_final;
pub mod match_seen;
pub mod matchmaker;
pub mod ratings;
pub mod reproduce;
pub mod server;
pub mod service;
pub mod spec;
pub mod store;
pub mod upload;
pub mod utc;
pub mod web;
pub mod worker;
