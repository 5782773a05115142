//! The schedule: each table hand by hand, round by round, one deal per hand.

use super::super::*;
use crate::tournament::format::{Format, ScheduleSpec};

#[test]
fn a_nava_schedule_plays_each_table_hand_by_hand_round_by_round() {
    let nava = NavaSpec {
        rounds: 4,
        hands: 3,
    };
    let format = Nava(nava);
    let spec = ScheduleSpec {
        bots: 10,
        players: 4,
        matches: 36,
        seed: 7,
        duplicate: true,
        candidate: 0,
    };
    assert_eq!(format.cycle_length(&spec), 36);
    let s = format.schedule(&spec);
    assert_eq!(s.len(), 36);
    let seatings = seatings(10, 4, spec.seed);
    for m in &s {
        let place = nava.place(10, m.id);
        assert_eq!(
            m.id,
            ((place.round * 3 + place.hand) * 3 + place.table) as u64
        );
        assert_eq!(m.group, (place.round * 3 + place.hand) as u64);
        // The table's players, turned by one seat each hand.
        let players = seatings[place.round].players(place.table);
        let turned: Vec<usize> = (0..players.len())
            .map(|i| players[(i + place.hand) % players.len()])
            .collect();
        assert_eq!(m.seats, turned, "match {}", m.id);
    }
    // Duplicate play: one deal per hand, at every table; without it, one per match.
    for hand in s.chunks(3) {
        assert!(hand.iter().all(|m| m.seed == hand[0].seed));
    }
    let seeds: std::collections::BTreeSet<u64> = s.iter().map(|m| m.seed).collect();
    assert_eq!(seeds.len(), 12);
    let single = format.schedule(&ScheduleSpec {
        duplicate: false,
        ..spec.clone()
    });
    let seeds: std::collections::BTreeSet<u64> = single.iter().map(|m| m.seed).collect();
    assert_eq!(seeds.len(), 36);
    // Too small a field: nothing to play.
    assert!(
        format
            .schedule(&ScheduleSpec {
                bots: 8,
                ..spec.clone()
            })
            .is_empty()
    );
    // Each match's seats, for the check of a result read back: 4 at a table of 4, 3 at a
    // table of 3 (10 bots: one table of 4, two of 3).
    let seats = format.seats(&spec).expect("a Nava tournament's seats vary");
    assert_eq!(seats.len(), 36);
    assert!(s.iter().all(|m| seats[&m.id] == m.seats.len()));
    assert_eq!(seats.values().filter(|&&n| n == 4).count(), 12);
}
