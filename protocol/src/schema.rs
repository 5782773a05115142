//! JSON Schemas of the protocol's messages, generated from the Rust types: the game-agnostic
//! envelope ([`envelope`]) and a game's typed messages ([`game`]).
//!
//! `referee schema --out docs/schema` writes them, the envelope's and those of every game the
//! referee registers; a test checks that the files in `docs/schema/` equal what it generates.

use crate::{FromBot, ToBot};
use schemars::{JsonSchema, schema_for};

/// One schema file: its file name and its pretty-printed JSON text (with a final newline).
pub struct SchemaFile {
    /// File name, e.g. `vabanque.to-bot.schema.json`.
    pub name: String,
    /// The schema as pretty JSON.
    pub text: String,
}

fn file<T: JsonSchema>(name: String) -> SchemaFile {
    let mut text = serde_json::to_string_pretty(&schema_for!(T)).expect("a schema serializes");
    text.push('\n');
    SchemaFile { name, text }
}

/// The game-agnostic envelope, in both directions (`envelope.to-bot.schema.json`,
/// `envelope.from-bot.schema.json`).
pub fn envelope() -> Vec<SchemaFile> {
    vec![
        file::<ToBot>("envelope.to-bot.schema.json".into()),
        file::<FromBot>("envelope.from-bot.schema.json".into()),
    ]
}

/// The typed messages of the game called `name`, with view `V`, action `A` and event `E`
/// (`NAME.to-bot.schema.json`, `NAME.from-bot.schema.json`).
pub fn game<V: JsonSchema, A: JsonSchema, E: JsonSchema>(name: &str) -> Vec<SchemaFile> {
    vec![
        file::<ToBot<V, A, E>>(format!("{name}.to-bot.schema.json")),
        file::<FromBot<A>>(format!("{name}.from-bot.schema.json")),
    ]
}
