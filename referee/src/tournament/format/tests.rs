use super::*;

/// The schedule of a field of `bots`, `players` a match, `matches` long.
fn spec(bots: usize, players: usize, matches: u64) -> ScheduleSpec {
    ScheduleSpec {
        bots,
        players,
        matches,
        seed: 7,
        duplicate: true,
        candidate: 0,
    }
}

/// The schedule of format `kind`, with its default settings.
fn build(kind: ScheduleKind, spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
    FormatSpec::from(kind).format().schedule(spec)
}

/// The cycle of format `kind`, with its default settings.
fn cycle_length(kind: ScheduleKind, spec: &ScheduleSpec) -> u64 {
    FormatSpec::from(kind).format().cycle_length(spec)
}

fn seat_counts(schedule: &[ScheduledMatch], bots: usize, players: usize) -> Vec<Vec<u64>> {
    let mut counts = vec![vec![0; players]; bots];
    for m in schedule {
        for (seat, &b) in m.seats.iter().enumerate() {
            counts[b][seat] += 1;
        }
    }
    counts
}

#[test]
fn round_robin_plays_every_subset_with_every_bot_in_every_seat_equally() {
    let s = build(ScheduleKind::RoundRobin, &spec(5, 4, 1000));
    assert_eq!(s.len(), 1000);
    assert_eq!(cycle_length(ScheduleKind::RoundRobin, &spec(5, 4, 0)), 20);
    for counts in seat_counts(&s, 5, 4) {
        assert_eq!(counts, vec![200; 4]);
    }
    let ids: Vec<u64> = s.iter().map(|m| m.id).collect();
    assert_eq!(ids, (0..1000).collect::<Vec<_>>());
    // Duplicate: the 4 rotations of a group share the seed; groups differ.
    assert!(s[..4].iter().all(|m| m.seed == s[0].seed && m.group == 0));
    assert_ne!(s[4].seed, s[0].seed);
    assert_eq!(
        build(ScheduleKind::RoundRobin, &spec(5, 4, 1000)),
        s,
        "deterministic"
    );
}

#[test]
fn sampled_balances_matches_and_meetings() {
    let s = build(ScheduleKind::Sampled, &spec(11, 4, 4 * 220));
    let mut played = [0u64; 11];
    let mut met = [[0u64; 11]; 11];
    for m in s.iter().filter(|m| m.id % 4 == 0) {
        for &a in &m.seats {
            played[a] += 1;
            for &b in &m.seats {
                if a != b {
                    met[a][b] += 1;
                }
            }
        }
    }
    let (lo, hi) = (played.iter().min().unwrap(), played.iter().max().unwrap());
    assert!(hi - lo <= 1, "groups per bot {played:?}");
    let pairs: Vec<u64> = (0..11)
        .flat_map(|a| (0..11).filter(move |&b| b != a).map(move |b| (a, b)))
        .map(|(a, b)| met[a][b])
        .collect();
    let (lo, hi) = (pairs.iter().min().unwrap(), pairs.iter().max().unwrap());
    assert!(hi - lo <= 3, "meetings per pair range from {lo} to {hi}");
    for counts in seat_counts(&s, 11, 4) {
        assert!(
            counts.iter().all(|&c| c == counts[0]),
            "every seat equally: {counts:?}"
        );
    }
}

#[test]
fn gauntlet_puts_the_candidate_in_every_match() {
    let s = build(ScheduleKind::Gauntlet, &spec(6, 3, 60));
    assert_eq!(cycle_length(ScheduleKind::Gauntlet, &spec(6, 3, 0)), 30);
    assert!(s.iter().all(|m| m.seats.contains(&0)));
    assert_eq!(seat_counts(&s, 6, 3)[0], vec![20; 3]);
}

#[test]
fn without_duplicate_every_match_has_its_own_seed() {
    let mut sp = spec(4, 3, 12);
    sp.duplicate = false;
    let s = build(ScheduleKind::RoundRobin, &sp);
    let seeds: std::collections::BTreeSet<u64> = s.iter().map(|m| m.seed).collect();
    assert_eq!(seeds.len(), 12);
}

#[test]
fn a_short_tournament_of_a_large_field_builds_only_what_it_plays() {
    let short = ScheduleSpec {
        bots: 60,
        players: 6,
        matches: 12,
        seed: 1,
        duplicate: true,
        candidate: 0,
    };
    let s = build(ScheduleKind::RoundRobin, &short);
    assert_eq!(s.len(), 12);
    assert_eq!(s[0].seats, vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(
        cycle_length(ScheduleKind::RoundRobin, &spec(60, 6, 0)),
        50_063_860 * 6
    );
    assert_eq!(
        cycle_length(ScheduleKind::RoundRobin, &spec(2000, 40, 0)),
        u64::MAX
    );
}

#[test]
fn the_gauntlet_candidate_may_be_any_bot_and_meets_the_others_in_the_same_order() {
    let first = build(ScheduleKind::Gauntlet, &spec(5, 3, 30));
    let mut third = spec(5, 3, 30);
    third.candidate = 2;
    let third = build(ScheduleKind::Gauntlet, &third);
    assert!(third.iter().all(|m| m.seats.contains(&2)));
    let swap = |b: usize| [2, 1, 0, 3, 4][b];
    for (a, b) in first.iter().zip(&third) {
        let swapped: Vec<usize> = a.seats.iter().map(|&s| swap(s)).collect();
        assert_eq!(swapped, b.seats);
        assert_eq!(a.seed, b.seed);
    }
}

#[test]
fn a_format_spec_is_written_as_the_schedule_and_the_settings_under_the_formats_key() {
    let nava = FormatSpec {
        kind: ScheduleKind::Nava,
        settings: Some(FormatSettings::Nava(crate::tournament::NavaSpec {
            rounds: 4,
            hands: 3,
        })),
    };
    let json = serde_json::to_string(&nava).unwrap();
    assert_eq!(json, r#"{"schedule":"nava","nava":{"rounds":4,"hands":3}}"#);
    assert_eq!(serde_json::from_str::<FormatSpec>(&json).unwrap(), nava);
    let round_robin = FormatSpec::from(ScheduleKind::RoundRobin);
    assert_eq!(
        serde_json::to_string(&round_robin).unwrap(),
        r#"{"schedule":"round-robin"}"#
    );
    // As played and recorded: a format's defaults filled in, settings it does not take left out.
    assert_eq!(
        FormatSpec::from(ScheduleKind::Nava).played().settings,
        Some(FormatSettings::Nava(crate::tournament::NavaSpec::default()))
    );
    let stray = FormatSpec {
        kind: ScheduleKind::Gauntlet,
        ..nava
    };
    assert_eq!(stray.played(), FormatSpec::from(ScheduleKind::Gauntlet));
}

#[test]
fn a_recorded_format_must_have_exactly_the_settings_it_takes() {
    let missing = FormatSpec::from(ScheduleKind::Nava)
        .checked()
        .err()
        .unwrap();
    assert_eq!(missing.to_string(), "nava: missing from a Nava tournament");
    let stray = FormatSpec {
        kind: ScheduleKind::Sampled,
        settings: Some(FormatSettings::Nava(crate::tournament::NavaSpec::default())),
    };
    let stray = stray.checked().err().unwrap();
    assert_eq!(
        stray.to_string(),
        "nava: present in a tournament of another schedule"
    );
    assert!(FormatSpec::from(ScheduleKind::Gauntlet).checked().is_ok());
}
