//! JSON Schemas of the protocol's messages, generated from the Rust types.
//!
//! `referee schema --out docs/schema` writes them; a test checks that the files in `docs/schema/`
//! equal what [`all`] generates.

use crate::{FromBot, ToBot, bouillabaisse, vabanque};
use schemars::{JsonSchema, schema_for};

/// One schema file: its file name and its pretty-printed JSON text (with a final newline).
pub struct SchemaFile {
    /// File name, e.g. `vabanque.to-bot.schema.json`.
    pub name: &'static str,
    /// The schema as pretty JSON.
    pub text: String,
}

fn file<T: JsonSchema>(name: &'static str) -> SchemaFile {
    let mut text = serde_json::to_string_pretty(&schema_for!(T)).expect("a schema serializes");
    text.push('\n');
    SchemaFile { name, text }
}

/// Every schema: the game-agnostic envelope in both directions, then each game's typed messages.
pub fn all() -> Vec<SchemaFile> {
    vec![
        file::<ToBot>("envelope.to-bot.schema.json"),
        file::<FromBot>("envelope.from-bot.schema.json"),
        file::<ToBot<vabanque::View, vabanque::Action, vabanque::Event>>(
            "vabanque.to-bot.schema.json",
        ),
        file::<FromBot<vabanque::Action>>("vabanque.from-bot.schema.json"),
        file::<ToBot<bouillabaisse::View, bouillabaisse::Action, bouillabaisse::Event>>(
            "bouillabaisse.to-bot.schema.json",
        ),
        file::<FromBot<bouillabaisse::Action>>("bouillabaisse.from-bot.schema.json"),
    ]
}
