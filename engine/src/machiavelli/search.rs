//! The built-in bots' search for a new table: melds laid from the hand alone (largest first),
//! hand cards attached to the melds on the table, and a bounded depth-first rearrangement of the
//! whole table with cards of the hand. Every table it returns has been checked meld by meld.

use super::cards::{
    Card, Counts, DISTINCT_CARDS, HIGH_ACE, KING, Suit, card_of_index, points, run_card,
};
use super::meld::check_meld;

const JOKER: usize = Card::JOKER.index();

/// The card of run rank `rank` (1 to 14, 14 the ace) in suit number `suit`.
fn card_at(rank: u8, suit: usize) -> Card {
    run_card(rank, Suit::ALL[suit])
}

fn take(counts: &mut Counts, meld: &[Card]) {
    for card in meld {
        counts[card.index()] -= 1;
    }
}

fn meld_points(meld: &[Card]) -> i64 {
    meld.iter().copied().map(points).sum()
}

/// The largest meld of natural cards in `hand`: the longest run, or a set of three or four;
/// between melds of one size, the one worth more.
fn largest_natural(hand: &Counts) -> Option<Vec<Card>> {
    let mut best: Option<Vec<Card>> = None;
    let mut consider = |meld: Vec<Card>| {
        let better = best
            .as_ref()
            .is_none_or(|b| (meld.len(), meld_points(&meld)) > (b.len(), meld_points(b)));
        if better {
            best = Some(meld);
        }
    };
    for rank in 1..=KING {
        let set: Vec<Card> = (0..4)
            .map(|s| card_at(rank, s))
            .filter(|c| hand[c.index()] > 0)
            .collect();
        if set.len() >= 3 {
            consider(set);
        }
    }
    for suit in 0..4 {
        let held = |r: u8| hand[card_at(r, suit).index()] > 0;
        for lo in 1..=12u8 {
            let mut hi = lo;
            while hi < HIGH_ACE && hi - lo < 12 && held(hi + 1) {
                hi += 1;
            }
            if held(lo) && hi - lo >= 2 {
                consider((lo..=hi).map(|r| card_at(r, suit)).collect());
            }
        }
    }
    best
}

/// The meld worth most made of two natural cards of `hand` and one joker.
fn joker_completion(hand: &Counts, limit: usize) -> Option<Vec<Card>> {
    if hand[JOKER] == 0 || limit == 0 {
        return None;
    }
    let held: Vec<Card> = (0..JOKER)
        .filter(|&i| hand[i] > 0)
        .filter_map(Card::from_index)
        .collect();
    let mut best: Option<Vec<Card>> = None;
    for (i, &a) in held.iter().enumerate() {
        for &b in &held[i + 1..] {
            let meld = vec![a, b, Card::JOKER];
            if check_meld(&meld, limit).is_ok()
                && best
                    .as_ref()
                    .is_none_or(|m| meld_points(&meld) > meld_points(m))
            {
                best = Some(meld);
            }
        }
    }
    best
}

/// The melds the cards of `hand` make on their own, largest first, jokers used only to complete
/// a meld of two natural cards; the cards laid are taken out of `hand`.
pub fn hand_melds(hand: &mut Counts, limit: usize) -> Vec<Vec<Card>> {
    let mut melds = Vec::new();
    while let Some(meld) = largest_natural(hand).or_else(|| joker_completion(hand, limit)) {
        take(hand, &meld);
        melds.push(meld);
    }
    melds
}

/// Attaches cards of `hand` to `melds` wherever the meld stays valid, the card worth most
/// first, until none attaches; returns the points attached.
pub fn attach(melds: &mut [Vec<Card>], hand: &mut Counts, limit: usize) -> i64 {
    let mut shed = 0;
    let mut order: Vec<usize> = (0..DISTINCT_CARDS).collect();
    order.sort_by_key(|&i| -points(card_of_index(i)));
    loop {
        let mut attached = false;
        for &i in &order {
            let card = card_of_index(i);
            for meld in melds.iter_mut() {
                if hand[i] == 0 {
                    break;
                }
                let mut longer = meld.clone();
                longer.push(card);
                if let Ok(canonical) = check_meld(&longer, limit) {
                    *meld = canonical;
                    hand[i] -= 1;
                    shed += points(card);
                    attached = true;
                }
            }
        }
        if !attached {
            return shed;
        }
    }
}

/// The hand's own melds laid beside `melds`, then what is left attached; returns the points.
pub fn finish(melds: &mut Vec<Vec<Card>>, hand: &mut Counts, limit: usize) -> i64 {
    let laid = hand_melds(hand, limit);
    let mut shed: i64 = laid.iter().map(|m| meld_points(m)).sum();
    melds.extend(laid);
    shed += attach(melds, hand, limit);
    shed
}

/// A new table found by the search, and the points of the hand cards it lays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The new table.
    pub table: Vec<Vec<Card>>,
    /// The points that leave the hand.
    pub shed: i64,
}

/// The bounded rearrangement: every card of the table placed again in melds made with cards of
/// the hand, depth first from the lowest table card, the melds laying most points first.
pub struct Rearrange {
    limit: usize,
    /// Candidate melds still allowed to be tried.
    budget: usize,
    /// The most candidate melds tried at one card.
    width: usize,
    best: Option<Found>,
}

impl Rearrange {
    /// A search with `limit` jokers per meld, `budget` melds to try in all and at most `width`
    /// tried per card.
    pub fn new(limit: usize, budget: usize, width: usize) -> Self {
        Rearrange {
            limit,
            budget,
            width,
            best: None,
        }
    }

    /// The best new table found that lays more than `floor` points.
    pub fn run(mut self, table: &Counts, hand: &Counts, floor: i64) -> Option<Found> {
        self.best = Some(Found {
            table: Vec::new(),
            shed: floor,
        });
        let hand_total: i64 = (0..DISTINCT_CARDS)
            .map(|i| i64::from(hand[i]) * points(card_of_index(i)))
            .sum();
        self.dfs(*table, *hand, &mut Vec::new(), 0, hand_total);
        self.best.filter(|f| f.shed > floor)
    }

    fn dfs(
        &mut self,
        table: Counts,
        hand: Counts,
        melds: &mut Vec<Vec<Card>>,
        shed: i64,
        left: i64,
    ) {
        let best = self.best.as_ref().map_or(i64::MIN, |b| b.shed);
        if shed + left <= best || self.budget == 0 {
            return;
        }
        let Some(lowest) = (0..JOKER).find(|&i| table[i] > 0) else {
            self.leaf(table, hand, melds, shed);
            return;
        };
        let card = card_of_index(lowest);
        let mut candidates = self.candidates(card, &table, &hand);
        candidates.sort_by_key(|(meld, laid)| (-laid, -(meld.len() as i64)));
        candidates.truncate(self.width);
        for (meld, laid) in candidates {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            let (mut t, mut h) = (table, hand);
            for c in &meld {
                let i = c.index();
                if t[i] > 0 {
                    t[i] -= 1;
                } else {
                    h[i] -= 1;
                }
            }
            melds.push(meld);
            self.dfs(t, h, melds, shed + laid, left - laid);
            melds.pop();
        }
    }

    /// Every table card is placed but the table's jokers: they join melds that take them, then
    /// the hand lays and attaches what it can.
    fn leaf(&mut self, table: Counts, mut hand: Counts, melds: &[Vec<Card>], shed: i64) {
        let mut melds = melds.to_vec();
        for _ in 0..table[JOKER] {
            let Some(meld) = melds.iter_mut().find_map(|m| {
                let mut longer = m.clone();
                longer.push(Card::JOKER);
                check_meld(&longer, self.limit).ok().map(|c| (m, c))
            }) else {
                return;
            };
            *meld.0 = meld.1;
        }
        let shed = shed + finish(&mut melds, &mut hand, self.limit);
        if self.best.as_ref().is_none_or(|b| shed > b.shed) {
            self.best = Some(Found { table: melds, shed });
        }
    }

    /// The melds holding `card` that the table and the hand can make, each with the points it
    /// takes from the hand (table copies are used first).
    fn candidates(&self, card: Card, table: &Counts, hand: &Counts) -> Vec<(Vec<Card>, i64)> {
        let avail = |c: Card| table[c.index()] + hand[c.index()];
        let jokers = (table[JOKER] + hand[JOKER]) as usize;
        let jokers = jokers.min(self.limit);
        let mut melds: Vec<Vec<Card>> = Vec::new();
        let rank = card.rank().expect("a natural card");
        let suit = card.suit().expect("a natural card") as usize;
        // Sets: the card, others of its rank, and jokers, three or four in all.
        let others: Vec<Card> = (0..4)
            .filter(|&s| s != suit)
            .map(|s| card_at(rank, s))
            .filter(|&c| avail(c) > 0)
            .collect();
        for mask in 0u8..(1 << others.len()) {
            let mut set = vec![card];
            set.extend(
                (0..others.len())
                    .filter(|b| mask & (1 << b) != 0)
                    .map(|b| others[b]),
            );
            for j in 0..=jokers {
                let size = set.len() + j;
                if (3..=4).contains(&size) {
                    let mut meld = set.clone();
                    meld.extend(std::iter::repeat_n(Card::JOKER, j));
                    melds.push(meld);
                }
            }
        }
        // Runs: every window of ranks through the card, holes filled by jokers.
        let positions: &[u8] = if rank == 1 { &[1, HIGH_ACE] } else { &[rank] };
        for &at in positions {
            let lowest = if at == HIGH_ACE { 2 } else { 1 };
            for lo in (lowest.max(at.saturating_sub(12))..=at).rev() {
                let below = (lo..at).filter(|&r| avail(card_at(r, suit)) == 0).count();
                if below > jokers {
                    break;
                }
                let mut holes = below;
                let top = (lo + 12).min(if lo == 1 { KING } else { HIGH_ACE });
                for hi in at..=top {
                    if hi > at && avail(card_at(hi, suit)) == 0 {
                        holes += 1;
                    }
                    if holes > jokers {
                        break;
                    }
                    if hi - lo >= 2 {
                        melds.push(
                            (lo..=hi)
                                .map(|r| {
                                    let c = card_at(r, suit);
                                    if r == at || avail(c) > 0 {
                                        c
                                    } else {
                                        Card::JOKER
                                    }
                                })
                                .collect(),
                        );
                    }
                }
            }
        }
        melds
            .into_iter()
            .filter(|m| check_meld(m, self.limit).is_ok())
            .map(|m| {
                let laid = hand_points_taken(&m, table);
                (m, laid)
            })
            .collect()
    }
}

/// The points of the cards of `meld` that the table's copies do not cover.
fn hand_points_taken(meld: &[Card], table: &Counts) -> i64 {
    let mut left = *table;
    meld.iter()
        .map(|c| {
            let i = c.index();
            if left[i] > 0 {
                left[i] -= 1;
                0
            } else {
                points(*c)
            }
        })
        .sum()
}
