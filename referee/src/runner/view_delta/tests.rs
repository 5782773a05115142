use super::ViewDelta;
use engine::{Game, GameKind};
use serde_json::{Map, Value};

/// A view as a bot that applies the patches holds it: a member whose value is `null` is absent
/// (a merge patch cannot set `null`; it removes).
fn without_nulls(view: Value) -> Value {
    match view {
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .filter(|(_, v)| !v.is_null())
                .collect::<Map<_, _>>(),
        ),
        other => other,
    }
}

/// Plays whole matches of `G` with its default actions; at every decision the seat to move is
/// sent its view as changes, and a bot that merges each patch into what it holds has exactly
/// the view the game gives (the first whole, then patches only, each smaller than the view).
fn patches_rebuild_every_view<G: Game>() {
    for seed in 0..5 {
        let players = (*G::player_counts().start()).max(3);
        let mut game = G::new(&G::Options::default(), players, seed).expect("a valid setup");
        let mut sent: Vec<ViewDelta> = (0..players).map(|_| ViewDelta::default()).collect();
        let mut held: Vec<Value> = vec![Value::Null; players];
        let (mut patch_bytes, mut whole_bytes) = (0, 0);
        while let Some(turn) = game.to_move() {
            let view = game.view(turn.seat);
            let whole = serde_json::to_value(&view).unwrap();
            let changes = sent[turn.seat].next(&view).expect("a struct view");
            let json: Value = serde_json::from_slice(&changes.json).unwrap();
            if changes.patch {
                patch_bytes += changes.json.len();
                whole_bytes += serde_json::to_string(&view).unwrap().len();
                protocol::merge_patch(&mut held[turn.seat], &json);
            } else {
                assert!(
                    held[turn.seat].is_null(),
                    "only the first view is sent whole"
                );
                held[turn.seat] = json;
            }
            assert_eq!(
                without_nulls(held[turn.seat].clone()),
                without_nulls(whole),
                "{} seed {seed} seat {}",
                G::NAME,
                turn.seat
            );
            let mut events = Vec::new();
            game.play(&game.default_action(), &mut events).unwrap();
        }
        assert!(
            patch_bytes < whole_bytes,
            "{}: {patch_bytes} ≥ {whole_bytes}",
            G::NAME
        );
    }
}

#[test]
fn every_game_s_views_are_rebuilt_from_their_patches() {
    for kind in GameKind::ALL {
        engine::with_game!(kind, G => patches_rebuild_every_view::<G>());
    }
}

/// After a view the bot may not have received, the next is sent whole.
#[test]
fn a_forgotten_view_is_sent_whole_again() {
    let game = engine::vabanque::Vabanque::new(&Default::default(), 4, 1).unwrap();
    let view = game.view(0);
    let mut delta = ViewDelta::default();
    assert!(!delta.next(&view).unwrap().patch);
    let same = delta.next(&view).unwrap();
    assert!(same.patch);
    assert_eq!(same.json, b"{}");
    delta.forget();
    let again = delta.next(&view).unwrap();
    assert!(!again.patch);
    assert_eq!(
        serde_json::from_slice::<Value>(&again.json).unwrap(),
        serde_json::to_value(&view).unwrap()
    );
}

/// A member that is gone is removed with `null`; a view that is not a struct is not split.
#[test]
fn gone_members_are_nulled_and_non_structs_refused() {
    #[derive(serde::Serialize)]
    struct V {
        a: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<u32>,
    }
    let mut delta = ViewDelta::default();
    let first = delta.next(&V { a: 1, b: Some(2) }).unwrap();
    assert_eq!(first.json, br#"{"a":1,"b":2}"#);
    let second = delta.next(&V { a: 1, b: None }).unwrap();
    assert_eq!(second.json, br#"{"b":null}"#);
    assert!(ViewDelta::default().next(&vec![1, 2]).is_none());
    assert!(
        ViewDelta::default()
            .next(&serde_json::json!({"a": 1}))
            .is_none()
    );
}

/// The request line written by hand for a bot that takes its view as changes is the one serde
/// writes for [`protocol::Request`], byte for byte, with the patch as its view.
#[test]
fn the_request_line_is_the_protocol_s() {
    use protocol::{Request, ToBot};
    let game = engine::vabanque::Vabanque::new(&Default::default(), 4, 3).unwrap();
    let view = game.view(0);
    let legal = game.legal_actions();
    let mut delta = ViewDelta::default();
    for (id, legal) in [(7, legal.as_deref()), (8, None)] {
        let changes = delta.next(&view).unwrap();
        let mut ours = Vec::new();
        super::append_request(&mut ours, id, "chip", &changes, legal, 950);
        let patch = serde_json::value::RawValue::from_string(
            String::from_utf8(changes.json.clone()).unwrap(),
        )
        .unwrap();
        let mut serdes = serde_json::to_vec(&ToBot::<_, _, ()>::Request(Request {
            id,
            phase: "chip".into(),
            view: patch,
            delta: changes.patch,
            legal: legal.map(|l| l.iter().collect::<Vec<_>>()),
            time_left_ms: 950,
        }))
        .unwrap();
        serdes.push(b'\n');
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            String::from_utf8(serdes).unwrap()
        );
    }
}
