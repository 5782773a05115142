//! The JSON Schema of every protocol message the referee speaks: the envelope, then each
//! registered game's typed messages (`referee schema`; checked in under `docs/schema/`).

use engine::{Game, GameKind, with_game};
use protocol::schema::SchemaFile;

/// Every schema file, the envelope's first, then each game's in the registry's order.
pub fn all() -> Vec<SchemaFile> {
    let mut files = protocol::schema::envelope();
    for &kind in GameKind::ALL {
        files.extend(with_game!(kind, G => protocol::schema::game::<
            <G as Game>::View,
            <G as Game>::Action,
            <G as Game>::Event,
        >(G::NAME)));
    }
    files
}
