//! The checklist: each item's name, what it asks, whether it is required, and the section of
//! `docs/protocol.md` that states its rule.

use serde::Serialize;

/// One item of the checklist, in the order it is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemId {
    /// Starts and answers `hello` with a `hello` within the start-up limit.
    Handshake,
    /// Gives a name in its `hello`.
    Name,
    /// Accepts protocol 1 (declares it, or no version).
    ProtocolVersion,
    /// Answers a request of every phase of the game with a legal action.
    Phases,
    /// Every answer is an action of the phase's shape that the rules allow.
    LegalActions,
    /// Every answer echoes its request's `id`.
    IdEcho,
    /// Every answer comes within the time limit.
    Time,
    /// Nothing but protocol lines on standard output.
    Stdout,
    /// Plays a whole match, then another in the same process, and exits on `goodbye`.
    Lifecycle,
    /// Ignores a message type and an event kind it does not know.
    ForwardCompat,
    /// Keeps playing after an `error` message from the referee.
    ErrorMessage,
    /// Decision-time statistics (information).
    DecisionTime,
    /// Peak memory (information).
    Memory,
}

impl ItemId {
    /// Every item, in the order printed.
    pub const ALL: [ItemId; 13] = [
        ItemId::Handshake,
        ItemId::Name,
        ItemId::ProtocolVersion,
        ItemId::Phases,
        ItemId::LegalActions,
        ItemId::IdEcho,
        ItemId::Time,
        ItemId::Stdout,
        ItemId::Lifecycle,
        ItemId::ForwardCompat,
        ItemId::ErrorMessage,
        ItemId::DecisionTime,
        ItemId::Memory,
    ];

    /// The item's name in the table and the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemId::Handshake => "handshake",
            ItemId::Name => "name",
            ItemId::ProtocolVersion => "protocol_version",
            ItemId::Phases => "phases",
            ItemId::LegalActions => "legal_actions",
            ItemId::IdEcho => "id_echo",
            ItemId::Time => "time",
            ItemId::Stdout => "stdout",
            ItemId::Lifecycle => "lifecycle",
            ItemId::ForwardCompat => "forward_compat",
            ItemId::ErrorMessage => "error_message",
            ItemId::DecisionTime => "decision_time",
            ItemId::Memory => "memory",
        }
    }

    /// What the item asks of the bot, in a few words.
    pub fn title(self) -> &'static str {
        match self {
            ItemId::Handshake => "starts and answers hello within the start-up limit",
            ItemId::Name => "reports its name",
            ItemId::ProtocolVersion => "accepts protocol version 1",
            ItemId::Phases => "answers a request of every phase",
            ItemId::LegalActions => "answers with legal actions of the phase's shape",
            ItemId::IdEcho => "echoes each request's id",
            ItemId::Time => "answers within the time limit",
            ItemId::Stdout => "writes nothing but protocol lines to stdout",
            ItemId::Lifecycle => "plays match after match in one process, exits on goodbye",
            ItemId::ForwardCompat => "ignores a message type and an event kind it does not know",
            ItemId::ErrorMessage => "keeps playing after an error message",
            ItemId::DecisionTime => "decision time",
            ItemId::Memory => "peak memory",
        }
    }

    /// Whether the check passes only if this item passes (the others are information).
    pub fn required(self) -> bool {
        !matches!(self, ItemId::DecisionTime | ItemId::Memory)
    }

    /// Where the rule is written.
    pub fn doc(self) -> &'static str {
        match self {
            ItemId::Handshake | ItemId::Lifecycle => "docs/protocol.md#lifecycle",
            ItemId::Name
            | ItemId::ProtocolVersion
            | ItemId::Phases
            | ItemId::LegalActions
            | ItemId::IdEcho => "docs/protocol.md#messages",
            ItemId::Time | ItemId::DecisionTime => "docs/protocol.md#time",
            ItemId::Stdout | ItemId::ForwardCompat => "docs/protocol.md#transport",
            ItemId::ErrorMessage => "docs/protocol.md#faults",
            ItemId::Memory => "docs/security.md",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The anchor GitHub gives a Markdown heading.
    fn slug(heading: &str) -> String {
        heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect()
    }

    #[test]
    fn every_cited_section_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for item in ItemId::ALL {
            let (file, anchor) = item.doc().split_once('#').unwrap_or((item.doc(), ""));
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            if anchor.is_empty() {
                continue;
            }
            let anchors: Vec<String> = text
                .lines()
                .filter_map(|l| l.strip_prefix('#'))
                .map(|l| slug(l.trim_start_matches('#')))
                .collect();
            assert!(
                anchors.iter().any(|a| a == anchor),
                "{}: {file} has no section #{anchor}",
                item.as_str()
            );
        }
    }

    #[test]
    fn names_are_unique_and_the_same_in_json() {
        let names: std::collections::HashSet<&str> =
            ItemId::ALL.iter().map(|i| i.as_str()).collect();
        assert_eq!(names.len(), ItemId::ALL.len());
        for item in ItemId::ALL {
            assert_eq!(serde_json::to_value(item).unwrap(), item.as_str());
        }
    }
}
