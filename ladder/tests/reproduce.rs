//! Reproductions of real ladder matches of each game (sample bots as real processes, the
//! stand-ins as `referee stand-in`): with every seat's code, with the caller's seat's code and
//! stand-ins for the others, and doctored (another seed, an edited stand-in script), whose
//! first difference is named. Needs `cargo build --workspace --bins` first.

mod support;

use referee::stand_in::{StandInStep, read_script, write_script};
use referee_ladder::reproduce::{
    Bundle, Caller, Played, SPEC_FILE, STAND_IN_DIR, SeatSource, reproduce,
};
use support::{options, record, temp_dir};

async fn every_way(game: &str) {
    let dir = temp_dir(game);
    let recorded = record(game, 7, &dir).await;

    // (a) Every seat's own code: the admin's bundle.
    let admin = dir.join("admin");
    let bundle = recorded.bundle(Caller::Admin, &admin);
    let again = reproduce(&Bundle::read(&admin).unwrap(), &admin, &options())
        .await
        .unwrap();
    assert_eq!(again.seats, vec![Played::Artifact; 3]);
    assert!(again.sandbox.starts_with("bots run "), "{}", again.sandbox);
    assert_eq!(again.other_referee, None);
    assert!(again.same_result, "{game}: {:?}", again.first_difference);
    assert_eq!(again.record.scores, recorded.record.scores);
    assert_eq!(bundle.seats.len(), 3);

    // (b) alice's: her code at seat 0, stand-ins for bob's and carol's.
    let alice = dir.join("alice");
    recorded.bundle(Caller::Owner("alice"), &alice);
    let again = reproduce(&Bundle::read(&alice).unwrap(), &alice, &options())
        .await
        .unwrap();
    assert_eq!(
        again.seats,
        vec![Played::Artifact, Played::StandIn, Played::StandIn]
    );
    assert!(again.same_result, "{game}: {:?}", again.first_difference);
    assert_eq!(
        (&again.record.scores, &again.record.ranks),
        (&recorded.record.scores, &recorded.record.ranks)
    );

    // (c) Doctored: another seed in the spec.
    let seeded = dir.join("seeded");
    recorded.bundle(Caller::Owner("alice"), &seeded);
    let path = seeded.join(SPEC_FILE);
    let mut spec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    spec["seed"] = 8.into();
    std::fs::write(&path, spec.to_string()).unwrap();
    let again = reproduce(&Bundle::read(&seeded).unwrap(), &seeded, &options())
        .await
        .unwrap();
    assert!(!again.same_result);
    let first = again.first_difference.clone().expect("a first difference");
    assert!(
        first.seat.is_some() && first.turn.is_some() && first.decision.is_some(),
        "{first:?}"
    );
    assert!(
        again
            .moment()
            .unwrap()
            .to_string()
            .starts_with("match 42, its ")
    );

    // (c) Doctored: bob's 2nd action in his stand-in script replaced by another.
    let edited = dir.join("edited");
    let bundle = recorded.bundle(Caller::Owner("alice"), &edited);
    let bob = &bundle.spec.seats[1].bot.name;
    let path = edited.join(STAND_IN_DIR).join(format!("{bob}.jsonl"));
    let mut steps =
        read_script(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
    // Another action of his in that phase (legal there or not), else one of no shape at all.
    let StandInStep::Action { phase, action } = steps[1].clone() else {
        panic!("bob played his second turn: {steps:?}")
    };
    let other = steps
        .iter()
        .find_map(|step| match step {
            StandInStep::Action {
                phase: p,
                action: a,
            } if *p == phase && *a != action => Some(a.clone()),
            _ => None,
        })
        .unwrap_or_else(|| serde_json::json!({"not": "an action"}));
    steps[1] = StandInStep::Action {
        phase,
        action: other,
    };
    write_script(&steps, std::fs::File::create(&path).unwrap()).unwrap();
    let read = Bundle::read(&edited).unwrap();
    assert!(matches!(&read.seats[1], SeatSource::StandIn { steps: s } if *s == steps));
    let again = reproduce(&read, &edited, &options()).await.unwrap();
    assert!(!again.same_result);
    let first = again.first_difference.clone().expect("a first difference");
    assert_eq!(
        (first.seat, first.bot.as_deref(), first.turn),
        (Some(1), Some(bob.as_str()), Some(2)),
        "{first:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "current_thread")]
async fn a_vabanque_match_is_reproduced_and_a_doctored_one_differs_where_it_was_doctored() {
    every_way("vabanque").await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_bouillabaisse_match_is_reproduced_and_a_doctored_one_differs_where_it_was_doctored() {
    every_way("bouillabaisse").await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_machiavelli_match_is_reproduced_and_a_doctored_one_differs_where_it_was_doctored() {
    every_way("machiavelli").await;
}
