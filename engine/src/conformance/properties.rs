//! The properties of the conformance suite, one function each (see the module above).

use super::playout::playout;
use super::{Case, Violation};
use crate::{Addressed, Audience, Game, Outcome, seed};
use std::hash::{DefaultHasher, Hash, Hasher};

/// Every match ends, and every decision on the way is well formed (see the module's list).
///
/// # Errors
/// The first [`Violation`].
pub fn plays_through<G: Game>(case: &Case<G>) -> Result<(), Violation> {
    let fail = |message: String| case.violation("plays_through", message);
    let played = playout(case, |game, turn, action| {
        let at = format!("at {} ({} phase)", turn.seat, turn.phase);
        if !G::phases().contains(&turn.phase) {
            return Err(format!("{at}: the phase is not one of Game::phases"));
        }
        if turn.seat >= case.players {
            return Err(format!("{at}: no such seat"));
        }
        if game.outcome().is_some() {
            return Err(format!("{at}: an outcome while a seat is to move"));
        }
        let legal = game.legal_actions();
        if legal.is_some() != G::LISTS_ACTIONS {
            return Err(format!(
                "{at}: the legal actions are {}listed, but Game::LISTS_ACTIONS says otherwise",
                if legal.is_some() { "" } else { "not " }
            ));
        }
        if let Some(legal) = &legal {
            if legal.is_empty() {
                return Err(format!("{at}: an empty list of legal actions"));
            }
            if let Some((a, e)) = legal
                .iter()
                .find_map(|a| game.check(a).err().map(|e| (a, e)))
            {
                return Err(format!("{at}: the listed action {a:?} is refused: {e}"));
            }
        }
        let checks = [
            ("the default action", game.default_action()),
            (
                "the baseline action",
                G::baseline_action(&game.view(turn.seat)),
            ),
            ("the bot's action", action.clone()),
        ];
        for (what, a) in checks {
            game.check(&a)
                .map_err(|e| format!("{at}: {what} {a:?} is refused: {e}"))?;
        }
        let json = serde_json::to_value(action).map_err(|e| e.to_string())?;
        match game.parse_action(&json) {
            Ok(back) if back == *action => Ok(()),
            Ok(back) => Err(format!("{at}: {json} reads back as {back:?}")),
            Err(e) => Err(format!("{at}: its own action {json} does not parse: {e}")),
        }
    })
    .map_err(fail)?;
    let events = played
        .opening
        .iter()
        .chain(played.steps.iter().flat_map(|s| &s.events));
    for event in events {
        if let Audience::Seat(s) = event.to
            && s >= case.players
        {
            return Err(fail(format!("an event for seat {s}: {:?}", event.event)));
        }
    }
    let outcome = played
        .end
        .outcome()
        .ok_or_else(|| fail("no outcome at the end of the match".into()))?;
    ranks_follow_scores(&outcome, case.players, G::HIGHER_IS_BETTER).map_err(fail)
}

/// The outcome has a score and a rank per seat, and ranks the scores the way the game says
/// ([`Game::HIGHER_IS_BETTER`](crate::Game::HIGHER_IS_BETTER)), ties sharing the best rank they
/// cover.
fn ranks_follow_scores(
    outcome: &Outcome,
    players: usize,
    higher_is_better: bool,
) -> Result<(), String> {
    if outcome.scores.len() != players || outcome.ranks.len() != players {
        return Err(format!("an outcome for {players} seats: {outcome:?}"));
    }
    if *outcome == Outcome::from_scores(outcome.scores.clone(), higher_is_better) {
        Ok(())
    } else {
        Err(format!("the ranks do not follow the scores: {outcome:?}"))
    }
}

/// A fingerprint of everything the match showed: every event with its audience, every view at
/// every decision, and the final state.
fn fingerprint<G: Game>(case: &Case<G>) -> Result<(u64, G), String> {
    let mut hasher = DefaultHasher::new();
    let mut n = 0usize;
    let played = playout(case, |game, turn, action| {
        turn.seat.hash(&mut hasher);
        // The view of the seat to move at every decision, and every seat's now and then.
        let seats = if n % TWIN_EVERY == 0 {
            0..case.players
        } else {
            turn.seat..turn.seat + 1
        };
        for seat in seats {
            serde_json::to_vec(&game.view(seat))
                .map_err(|e| e.to_string())?
                .hash(&mut hasher);
        }
        format!("{action:?}").hash(&mut hasher);
        n += 1;
        Ok(())
    })?;
    let events = played
        .opening
        .iter()
        .chain(played.steps.iter().flat_map(|s| &s.events));
    for event in events {
        format!("{:?}", event.to).hash(&mut hasher);
        serde_json::to_vec(&event.event)
            .map_err(|e| e.to_string())?
            .hash(&mut hasher);
    }
    Ok((hasher.finish(), played.end))
}

/// The same case twice gives the same match, view by view and event by event.
///
/// # Errors
/// A [`Violation`] when the two differ.
pub fn determinism<G: Game>(case: &Case<G>) -> Result<(), Violation> {
    let fail = |message: String| case.violation("determinism", message);
    let first = fingerprint(case).map_err(fail)?;
    let second = fingerprint(case).map_err(fail)?;
    if first.0 != second.0 {
        return Err(fail(
            "two matches from the same seed differ in their views, actions or events".into(),
        ));
    }
    if first.1 != second.1 {
        return Err(fail(
            "two matches from the same seed end in different states".into(),
        ));
    }
    Ok(())
}

/// Actions of other decisions and other matches, tried at every decision: what `check` refuses,
/// `play` refuses too, appending no event and leaving the state exactly as it was (equal, field
/// by field); what `check` accepts, `play` plays.
///
/// # Errors
/// The first [`Violation`].
pub fn refusals_change_nothing<G: Game>(case: &Case<G>) -> Result<(), Violation> {
    let fail = |message: String| case.violation("refusals_change_nothing", message);
    let other = Case {
        seed: seed::derive(case.seed, "conformance-other", 0),
        ..case.clone()
    };
    let mut pool: Vec<G::Action> = Vec::new();
    for c in [case, &other] {
        let played = playout(c, |_, _, _| Ok(())).map_err(fail)?;
        pool.extend(played.steps.into_iter().map(|s| s.action));
    }
    let mut n = 0usize;
    playout(case, |game, _, _| {
        for k in 0..2 {
            let candidate = &pool[(n * 7 + k * 13) % pool.len()];
            let mut probe = game.clone();
            let mut events: Vec<Addressed<G::Event>> = Vec::new();
            match (game.check(candidate), probe.play(candidate, &mut events)) {
                (Err(_), Err(_)) => {
                    if !events.is_empty() {
                        return Err(format!("refusing {candidate:?} appended events"));
                    }
                    if probe != *game {
                        return Err(format!("refusing {candidate:?} changed the state"));
                    }
                }
                (Ok(()), Ok(())) => {}
                (Err(e), Ok(())) => {
                    return Err(format!(
                        "check refuses {candidate:?} ({e}) but play plays it"
                    ));
                }
                (Ok(()), Err(e)) => {
                    return Err(format!(
                        "check accepts {candidate:?} but play refuses it: {e}"
                    ));
                }
            }
        }
        n += 1;
        Ok(())
    })
    .map_err(fail)?;
    Ok(())
}

/// How many decisions apart the twin-state test starts.
const TWIN_EVERY: usize = 5;
/// How many decisions the twin-state test plays on from each start, at most.
const TWIN_STEPS: usize = 40;

/// The twin-state test (see the module's list). Returns in how many of the positions tried the
/// twin differed from the original at all, so that a caller can see that
/// [`Game::resample_hidden`] redraws something.
///
/// # Errors
/// The first [`Violation`].
pub fn hidden_information<G: Game>(case: &Case<G>) -> Result<usize, Violation> {
    let fail = |message: String| case.violation("hidden_information", message);
    let mut starts: Vec<(usize, G)> = Vec::new();
    let mut n = 0usize;
    let played = playout(case, |game, _, _| {
        if n % TWIN_EVERY == 0 {
            starts.push((n, game.clone()));
        }
        n += 1;
        Ok(())
    })
    .map_err(fail)?;
    let view = |game: &G, seat: usize| serde_json::to_vec(&game.view(seat)).unwrap_or_default();
    let told = |events: &[Addressed<G::Event>], seat: usize| -> Vec<Vec<u8>> {
        events
            .iter()
            .filter(|e| e.to.includes(seat))
            .map(|e| serde_json::to_vec(&e.event).unwrap_or_default())
            .collect()
    };
    let mut differed = 0;
    for (k, (start, game)) in starts.into_iter().enumerate() {
        let seat = k % case.players;
        let mut twin = game.resample_hidden(seat, seed::derive(case.seed, "twin", k as u64));
        if twin != game {
            differed += 1;
        }
        if twin.to_move() != game.to_move() {
            return Err(fail(format!(
                "decision {start}: redrawing seat {seat}'s unknowns changed who is to move"
            )));
        }
        if view(&game, seat) != view(&twin, seat) {
            return Err(fail(format!(
                "decision {start}: seat {seat}'s view shows what it may not know (it changes when only other seats' secrets do)"
            )));
        }
        let mut original = game;
        for (i, step) in played.steps[start..].iter().take(TWIN_STEPS).enumerate() {
            if twin.check(&step.action).is_err() {
                break;
            }
            let (mut seen, mut twin_seen) = (Vec::new(), Vec::new());
            original
                .play(&step.action, &mut seen)
                .map_err(|e| fail(format!("replaying decision {}: {e}", start + i)))?;
            twin.play(&step.action, &mut twin_seen)
                .map_err(|e| fail(format!("twin, decision {}: {e}", start + i)))?;
            if view(&original, seat) != view(&twin, seat) {
                // Something the seat may know now differs: the twins have parted in the open.
                break;
            }
            if told(&seen, seat) != told(&twin_seen, seat) {
                return Err(fail(format!(
                    "decision {}: seat {seat} is told different events in two states it cannot tell apart",
                    start + i
                )));
            }
        }
    }
    Ok(differed)
}

/// The actions of a match, written as JSON and read back with [`Game::parse_action`], replay it
/// from the seed to the same final state and outcome.
///
/// # Errors
/// A [`Violation`] when the replay is refused or ends elsewhere.
pub fn replays_from_json<G: Game>(case: &Case<G>) -> Result<(), Violation> {
    let fail = |message: String| case.violation("replays_from_json", message);
    let played = playout(case, |_, _, _| Ok(())).map_err(fail)?;
    let mut game = G::new(&case.options, case.players, case.seed)
        .map_err(|e| fail(format!("the setup is refused: {e}")))?;
    let mut events = Vec::new();
    for (n, step) in played.steps.iter().enumerate() {
        let json = serde_json::to_value(&step.action).map_err(|e| fail(e.to_string()))?;
        let action = game
            .parse_action(&json)
            .map_err(|e| fail(format!("decision {n}: {json} does not parse: {e}")))?;
        game.play(&action, &mut events)
            .map_err(|e| fail(format!("decision {n}: {json} is refused: {e}")))?;
    }
    if game.to_move().is_some() || game.outcome() != played.end.outcome() {
        return Err(fail("the replay does not end as the match did".into()));
    }
    if game.truth() != played.end.truth() {
        return Err(fail("the replay ends in another final state".into()));
    }
    Ok(())
}

/// The running scores ([`Game::scores`]) have a score per seat at every decision, are public —
/// the same in the twin state of every seat (its unknowns redrawn) — and at the end of the match
/// are the outcome's scores.
///
/// # Errors
/// The first [`Violation`].
pub fn running_scores<G: Game>(case: &Case<G>) -> Result<(), Violation> {
    let fail = |message: String| case.violation("running_scores", message);
    let mut n = 0usize;
    let played = playout(case, |game, _, _| {
        let scores = game.scores();
        if scores.len() != case.players {
            return Err(format!(
                "decision {n}: {} running scores for {} seats",
                scores.len(),
                case.players
            ));
        }
        if n % TWIN_EVERY == 0 {
            for seat in 0..case.players {
                let twin = game.resample_hidden(seat, seed::derive(case.seed, "twin-scores", n as u64));
                if twin.scores() != scores {
                    return Err(format!(
                        "decision {n}: the running scores {scores:?} change to {:?} when seat {seat}'s unknowns are redrawn (they must be public)",
                        twin.scores()
                    ));
                }
            }
        }
        n += 1;
        Ok(())
    })
    .map_err(fail)?;
    let outcome = played
        .end
        .outcome()
        .ok_or_else(|| fail("no outcome at the end of the match".into()))?;
    if played.end.scores() != outcome.scores {
        return Err(fail(format!(
            "the running scores at the end {:?} are not the outcome's {:?}",
            played.end.scores(),
            outcome.scores
        )));
    }
    Ok(())
}
