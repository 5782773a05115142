//! The conformance suite, run for every registered game: a game added to the registry is held
//! to all of it without a line here.

use engine::conformance::{self, Case};
use engine::{Game, GameKind, with_game};

/// Seeds per option set and player count.
const SEEDS: u64 = 3;

/// Runs `property` on every case of every registered game.
macro_rules! for_every_case {
    ($property:path) => {
        for &kind in GameKind::ALL {
            with_game!(kind, G => {
                for case in conformance::cases::<G>(SEEDS, 1) {
                    if let Err(violation) = $property(&case) {
                        panic!("{violation}");
                    }
                }
            });
        }
    };
}

#[test]
fn every_game_declares_phases_player_counts_options_and_a_baseline_bot() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => conformance::declarations::<G>().unwrap());
    }
}

#[test]
fn every_match_plays_through_with_legal_well_formed_decisions() {
    for_every_case!(conformance::plays_through);
}

#[test]
fn the_seed_decides_everything() {
    for_every_case!(conformance::determinism);
}

#[test]
fn a_refused_action_changes_nothing() {
    for_every_case!(conformance::refusals_change_nothing);
}

#[test]
fn no_seat_is_told_what_it_may_not_know() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let mut differed = 0;
            for case in conformance::cases::<G>(SEEDS, 1) {
                differed += conformance::hidden_information(&case).unwrap_or_else(|v| panic!("{v}"));
            }
            // Every game registered so far has secrets: its twins must differ somewhere, or the
            // test would compare a state with itself.
            assert!(differed > 0, "{}: resample_hidden never changed a state", G::NAME);
        });
    }
}

#[test]
fn a_match_replays_from_its_actions_as_json() {
    for_every_case!(conformance::replays_from_json);
}

#[test]
fn the_running_scores_are_public_and_end_as_the_outcome() {
    for_every_case!(conformance::running_scores);
}

#[test]
fn the_json_face_plays_the_same_match_as_the_typed_game() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let players = *G::player_counts().start();
            let case = Case::<G> { options: Default::default(), players, seed: 11 };
            let played = conformance::playout(&case, |_, _, _| Ok(())).unwrap();
            let mut dynamic = kind.new_dyn(&serde_json::Value::Null, players, 11).unwrap();
            assert_eq!(dynamic.name(), G::NAME);
            for step in &played.steps {
                assert_eq!(dynamic.to_move(), Some(step.turn));
                // By reference: an action need not be `Copy` (a rummy's is a whole table).
                let action: &<G as Game>::Action = &step.action;
                let action = serde_json::to_value(action).unwrap();
                let events = dynamic.play(&action).unwrap();
                let typed: Vec<serde_json::Value> =
                    step.events.iter().map(|e| serde_json::to_value(&e.event).unwrap()).collect();
                let json: Vec<serde_json::Value> = events.into_iter().map(|e| e.event).collect();
                assert_eq!(json, typed);
            }
            assert_eq!(dynamic.outcome(), played.end.outcome());
            assert_eq!(dynamic.scores(), played.end.scores());
            assert_eq!(dynamic.truth(), played.end.truth());
            // A wrong shape and the errors of the setup are told apart.
            let mut fresh = kind.new_dyn(&serde_json::Value::Null, players, 11).unwrap();
            assert!(matches!(
                fresh.play(&serde_json::json!({"no such field": 1})),
                Err(engine::ActionError::WrongShape(_))
            ));
            assert!(kind.new_dyn(&serde_json::json!({"no such option": 1}), players, 1).is_err());
            assert!(kind.new_dyn(&serde_json::Value::Null, 0, 1).is_err());
        });
    }
}
