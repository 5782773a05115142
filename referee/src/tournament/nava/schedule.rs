//! The Nava schedule. Matches are numbered round by round, hand by hand, table by table: match
//! `id` is table `id mod T` in hand `(id / T) mod H` of round `id / (T·H)`. Within a round the
//! seats of a table turn by one each hand (hand h seats the table's players from its h-th
//! onwards), so each sits first as often as the hands allow. With duplicate play, every table
//! of a hand deals the same cards: the hand is the duplicate group, the same seed at every
//! table.

use super::seating::{MIN_BOTS, Seating, seatings};
use super::spec::NavaSpec;
use crate::tournament::format::{ScheduleSpec, ScheduledMatch, scheduled};

/// The first `spec.matches` matches of the Nava tournament `nava` of `spec`'s field.
pub fn schedule(nava: NavaSpec, spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
    if spec.bots < MIN_BOTS {
        return Vec::new();
    }
    let mut schedule = Vec::new();
    for (round, seating) in seatings(spec.bots, nava.rounds, spec.seed)
        .iter()
        .enumerate()
    {
        for hand in 0..nava.hands {
            push_hand(
                spec,
                nava.hands,
                seating,
                round * nava.hands + hand,
                &mut schedule,
            );
        }
    }
    schedule.truncate(spec.matches as usize);
    schedule
}

/// Appends hand `group` (numbered over the whole tournament; `hands` a round) of every table
/// of `seating`.
fn push_hand(
    spec: &ScheduleSpec,
    hands: usize,
    seating: &Seating,
    group: usize,
    schedule: &mut Vec<ScheduledMatch>,
) {
    let turn = group % hands;
    for table in 0..seating.tables.len() {
        let players = seating.players(table);
        let seats = (0..players.len())
            .map(|s| players[(s + turn) % players.len()])
            .collect();
        let id = schedule.len() as u64;
        schedule.push(scheduled(spec, id, group as u64, seats));
    }
}
