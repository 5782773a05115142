//! The JSON Schemas of the API's bodies (`referee schema` writes them beside the protocol's,
//! as `ladder-api.NAME.schema.json` in `docs/schema/`).

use super::wire::*;
use crate::service::{
    BotView, ChallengeQueued, ChallengeRequest, ChallengesView, ClaimedJob, ClassImport,
    FinalRequest, FinalStarted, FinalView, Handed, MatchView, QueueView, StandingRow, Submitted,
    TokenReset, VersionStatus,
};
use protocol::schema::SchemaFile;
use schemars::JsonSchema;

fn file<T: JsonSchema>(name: &str) -> SchemaFile {
    let mut text =
        serde_json::to_string_pretty(&schemars::schema_for!(T)).expect("a schema serializes");
    text.push('\n');
    SchemaFile {
        name: format!("ladder-api.{name}.schema.json"),
        text,
    }
}

/// Every body's schema, by name.
pub fn schemas() -> Vec<SchemaFile> {
    vec![
        file::<Accepted>("Accepted"),
        file::<AccountBody>("AccountBody"),
        file::<BuildResultBody>("BuildResultBody"),
        file::<ChallengeQueued>("ChallengeQueued"),
        file::<ChallengeRequest>("ChallengeRequest"),
        file::<ClaimedJob>("ClaimedJob"),
        file::<ErrorBody>("ErrorBody"),
        file::<GiveBackBody>("GiveBackBody"),
        file::<LadderInfo>("LadderInfo"),
        file::<LeaseBody>("LeaseBody"),
        file::<LeaseExtended>("LeaseExtended"),
        file::<MatchResultBody>("MatchResultBody"),
        file::<MatchView>("MatchView"),
        file::<BotView>("BotView"),
        file::<QueueView>("QueueView"),
        file::<ChallengesView>("ChallengesView"),
        file::<SeenLog>("SeenLog"),
        file::<StandingRow>("StandingRow"),
        file::<Submitted>("Submitted"),
        file::<TokenBody>("TokenBody"),
        file::<VersionStatus>("VersionStatus"),
        file::<ClassImport>("ClassImport"),
        file::<Handed>("Handed"),
        file::<TokenReset>("TokenReset"),
        file::<DeadlineBody>("DeadlineBody"),
        file::<JobQueued>("JobQueued"),
        file::<FinalRequest>("FinalRequest"),
        file::<FinalStarted>("FinalStarted"),
        file::<FinalView>("FinalView"),
    ]
}
