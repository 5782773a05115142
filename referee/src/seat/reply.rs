//! Reading one line from a bot: bytes to UTF-8 text to JSON to a protocol message. Whatever
//! the bytes, the answer is a message or a [`Fault`] — never a panic (see the property tests).

use super::Fault;
use protocol::{ActionReply, FaultKind, FromBot, HelloReply};
use serde::Deserialize;
use serde_json::Value;
use serde_json::error::Category;

/// How the message of a line that is not JSON begins: "not valid JSON (WHY): LINE", LINE an
/// excerpt of the line ([`crate::report::fault_summary`] groups these by the line's first words).
pub const NOT_JSON: &str = "not valid JSON";

/// Every field a bot's message may have, read in one pass straight from the text (no
/// intermediate JSON tree, no buffering for the `type` tag); unknown fields are skipped.
#[derive(Deserialize)]
struct Wire<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    id: Option<u64>,
    /// Missing and `null` alike: the game's action parser then refuses it.
    #[serde(default)]
    action: Value,
    name: Option<String>,
    protocol: Option<u32>,
    events: Option<bool>,
    view: Option<protocol::ViewMode>,
}

/// Parses one line from a bot: first as UTF-8 text, then as JSON, then as a message. Text that
/// is not JSON is `malformed`; JSON that is not a message of the protocol is `wrong_shape`. A
/// fault names the line ([`Fault::line`]).
pub fn parse(bytes: &[u8]) -> Result<FromBot, Fault> {
    parse_message(bytes).map_err(|fault| fault.with_line(excerpt(&String::from_utf8_lossy(bytes))))
}

fn parse_message(bytes: &[u8]) -> Result<FromBot, Fault> {
    let line = std::str::from_utf8(bytes).map_err(|_| {
        Fault::new(
            FaultKind::Malformed,
            format!(
                "not UTF-8 text: {}",
                excerpt(&String::from_utf8_lossy(bytes))
            ),
        )
    })?;
    let line = line.strip_suffix('\r').unwrap_or(line);
    let not_a_message = |why: &str| {
        Fault::new(
            FaultKind::WrongShape,
            format!("not a protocol message ({why}): {}", excerpt(line)),
        )
    };
    let wire: Wire = serde_json::from_str(line).map_err(|e| {
        // A data error may come before the reader reaches a syntax error further on: only
        // text that is JSON throughout is merely the wrong shape (checked on this error path
        // only).
        let shape = e.to_string();
        let syntax = match e.classify() {
            Category::Data => serde_json::from_str::<serde::de::IgnoredAny>(line).err(),
            _ => Some(e),
        };
        match syntax {
            Some(e) => Fault::new(
                FaultKind::Malformed,
                format!("{NOT_JSON} ({e}): {}", excerpt(line)),
            ),
            None => not_a_message(&shape),
        }
    })?;
    match (wire.kind.as_ref(), wire.id, wire.name) {
        ("action", Some(id), _) => Ok(FromBot::Action(ActionReply {
            id,
            action: wire.action,
        })),
        ("action", None, _) => Err(not_a_message("an action needs an `id`")),
        ("hello", _, Some(name)) => Ok(FromBot::Hello(HelloReply {
            name,
            protocol: wire.protocol,
            events: wire.events,
            view: wire.view,
        })),
        ("hello", _, None) => Err(not_a_message("a hello needs a `name`")),
        (other, ..) => Err(not_a_message(&format!("unknown type {other:?}"))),
    }
}

/// The start of `text`, at most 200 characters, for messages; its control and format
/// characters (a bot's terminal escapes) are shown escaped ([`crate::untrusted::line`]), never
/// passed on to the referee's own output.
pub fn excerpt(text: &str) -> String {
    const MAX: usize = 200;
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        if out.chars().count() >= MAX {
            break;
        }
        out.push_str(&crate::untrusted::line(c.encode_utf8(&mut [0; 4])));
        shown += c.len_utf8();
    }
    if shown < text.len() {
        out.push_str(&format!("… ({} bytes)", text.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;
    use engine::vabanque::{Options, Vabanque};
    use proptest::prelude::*;

    #[test]
    fn deep_nesting_huge_numbers_and_bad_bytes_are_faults() {
        // Valid JSON, 100,000 levels deep: not a message, and no stack overflow reading it.
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(
            parse(deep.as_bytes()).unwrap_err().fault,
            FaultKind::WrongShape
        );
        let deep_in_a_message = format!(
            r#"{{"type":"action","id":1,"action":{}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(parse(deep_in_a_message.as_bytes()).is_err());
        let deep_object = r#"{"type":"action","id":1,"action":"#.repeat(1000);
        assert_eq!(
            parse(deep_object.as_bytes()).unwrap_err().fault,
            FaultKind::Malformed
        );
        for line in [
            r#"{"type":"action","id":1e400,"action":{}}"#,
            r#"{"type":"action","id":1,"action":1e999999}"#,
        ] {
            assert_eq!(
                parse(line.as_bytes()).unwrap_err().fault,
                FaultKind::Malformed,
                "{line}"
            );
        }
        for line in [
            r#"{"type":"action","id":18446744073709551616,"action":{}}"#,
            r#"{"type":"action","id":-1,"action":{}}"#,
            r#"{"type":"action","id":1.5,"action":{}}"#,
            r#"{"type":"action"}"#,
            r#"[1,2,3]"#,
        ] {
            assert_eq!(
                parse(line.as_bytes()).unwrap_err().fault,
                FaultKind::WrongShape,
                "{line}"
            );
        }
        assert_eq!(
            parse(b"\xff\xfe{}").unwrap_err().fault,
            FaultKind::Malformed
        );
        assert!(matches!(
            parse(br#"{"type":"action","id":7,"action":{"table":2}}"#),
            Ok(FromBot::Action(a)) if a.id == 7
        ));
    }

    #[test]
    fn a_fault_names_the_line_apart_from_its_message() {
        let fault = parse(b"debug: hand ['raise']").unwrap_err();
        assert_eq!(fault.fault, FaultKind::Malformed);
        assert_eq!(fault.line.as_deref(), Some("debug: hand ['raise']"));
        let long = "x".repeat(500);
        let shown = parse(long.as_bytes()).unwrap_err().line.unwrap();
        assert!(shown.ends_with("… (500 bytes)"), "{shown}");
    }

    /// Any JSON value, nested a few levels deep, numbers of every size included.
    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            ".{0,20}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::from),
                prop::collection::btree_map(
                    prop_oneof![
                        Just("type".to_string()),
                        Just("id".to_string()),
                        Just("action".to_string()),
                        Just("table".to_string()),
                        Just("card".to_string()),
                        Just("steps".to_string()),
                        ".{0,8}",
                    ],
                    inner,
                    0..6
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Arbitrary bytes: a fault (or, by chance, a message), never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
            if let Err(fault) = parse(&bytes) {
                prop_assert!(matches!(fault.fault, FaultKind::Malformed | FaultKind::WrongShape));
                prop_assert!(fault.message.chars().count() < 400);
            }
        }

        /// Arbitrary JSON in a reply: the message layer and then the game's action parser and
        /// rule check answer with a value or a refusal, never a panic; and whatever they accept
        /// the engine can play.
        #[test]
        fn arbitrary_actions_are_parsed_checked_and_refused_cleanly(
            value in any_json(),
            seed in any::<u64>(),
            skip in 0usize..40,
        ) {
            let line = serde_json::json!({"type": "action", "id": 1, "action": value});
            let reply = parse(line.to_string().as_bytes());
            prop_assert!(matches!(reply, Ok(FromBot::Action(_))));
            let mut game = Vabanque::new(&Options::default(), 4, seed).unwrap();
            let mut events = Vec::new();
            for _ in 0..skip {
                let Some(_) = game.to_move() else { break };
                let action = game.default_action();
                events.clear();
                game.play(&action, &mut events).unwrap();
            }
            if game.to_move().is_some() {
                if let Ok(action) = game.parse_action(&value) {
                    if game.check(&action).is_ok() {
                        events.clear();
                        prop_assert!(game.play(&action, &mut events).is_ok());
                    }
                }
            }
        }
    }
}
