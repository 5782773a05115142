//! One meld: whether it is a valid set or run (with at most `jokers_per_meld` jokers standing in
//! for cards), its canonical order, and what is wrong with it when it is not valid.
//!
//! A set is 3 or 4 cards of one rank, all suits different. A run is 3 to 13 cards of one suit in
//! consecutive ranks, the ace low (A-2-3) or high (Q-K-A) but never both (no K-A-2), no rank
//! twice. A meld with jokers is valid if some assignment of its jokers makes it one of these; a
//! meld of jokers only is not valid.

use super::cards::{ACE, Card, HIGH_ACE, KING, Suit, run_card};
use std::fmt;

/// Why a meld is not valid. Its [`Display`](fmt::Display) is the end of the refusal message,
/// after `meld N (cards) `.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldFault {
    /// Fewer than three cards (how many).
    TooFewCards(usize),
    /// Jokers and nothing else.
    OnlyJokers,
    /// More jokers than a meld may hold.
    TooManyJokers {
        /// How many the meld holds.
        count: usize,
        /// The most allowed.
        limit: usize,
    },
    /// A set with this card twice (the second time it appears).
    SuitTwice(Card),
    /// A set of more than four cards (how many).
    SetTooLarge(usize),
    /// A run with this card twice (the second time it appears).
    RankTwice(Card),
    /// A run with a hole its jokers cannot fill: the first card missing, and the cards written
    /// next below and above it.
    Missing {
        /// The missing card.
        card: Card,
        /// The meld's card just below the hole.
        below: Card,
        /// The meld's card just above the hole.
        above: Card,
    },
    /// A run that would go K-A-2.
    WrapsAround,
    /// A run of more than 13 cards (how many).
    RunTooLong(usize),
    /// Cards of several ranks and several suits.
    Neither,
}

impl fmt::Display for MeldFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MeldFault::TooFewCards(n) => {
                let count = ["no cards", "one card", "two cards"];
                let count = count.get(n).copied().unwrap_or("too few cards");
                write!(f, "has {count}; a meld needs three")
            }
            MeldFault::OnlyJokers => f.write_str("has only jokers"),
            MeldFault::TooManyJokers { count, limit } => {
                write!(f, "has {count} jokers; at most {limit} per meld")
            }
            MeldFault::SuitTwice(card) => {
                write!(f, "has {card} twice; a set needs different suits")
            }
            MeldFault::SetTooLarge(n) => write!(f, "has {n} cards; a set has at most four"),
            MeldFault::RankTwice(card) => {
                write!(f, "has {card} twice; a run needs different ranks")
            }
            MeldFault::Missing { card, below, above } => write!(
                f,
                "is not a run: {card} is missing between {below} and {above}"
            ),
            MeldFault::WrapsAround => f.write_str("is not a run: K-A-2 wraps around"),
            MeldFault::RunTooLong(n) => write!(f, "has {n} cards; a run has at most 13"),
            MeldFault::Neither => f.write_str("is neither a set nor a run"),
        }
    }
}

/// Checks one meld and returns its canonical order: a set's cards by suit with its jokers last;
/// a run's by rank (the ace last when it is high), each joker in the place it stands for. Where
/// jokers could stand at either end, they extend the run upwards first (up to a high ace).
///
/// # Errors
/// The [`MeldFault`]: the first of, in order, too few cards, only jokers, too many jokers; then
/// for a set (every card of one rank) a suit twice or more than four cards; for a run (every card
/// of one suit) a rank twice, more than 13 cards, a wrap-around, a hole; otherwise neither.
pub fn check_meld(cards: &[Card], jokers_per_meld: usize) -> Result<Vec<Card>, MeldFault> {
    if cards.len() < 3 {
        return Err(MeldFault::TooFewCards(cards.len()));
    }
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    let mut naturals = cards.iter().copied().filter(|c| !c.is_joker());
    let Some(first) = naturals.next() else {
        return Err(MeldFault::OnlyJokers);
    };
    if jokers > jokers_per_meld {
        return Err(MeldFault::TooManyJokers {
            count: jokers,
            limit: jokers_per_meld,
        });
    }
    let one_rank = naturals.clone().all(|c| c.rank() == first.rank());
    let one_suit = naturals.all(|c| c.suit() == first.suit());
    let single = cards.len() - jokers == 1;
    if one_rank && (!single || cards.len() <= 4) {
        check_set(cards, jokers)
    } else if one_suit {
        check_run(
            cards,
            jokers,
            first.suit().expect("a natural card has a suit"),
        )
    } else {
        Err(MeldFault::Neither)
    }
}

fn check_set(cards: &[Card], jokers: usize) -> Result<Vec<Card>, MeldFault> {
    let mut seen = 0u8;
    for card in cards.iter().filter(|c| !c.is_joker()) {
        let bit = 1 << card.suit().expect("a natural card") as u8;
        if seen & bit != 0 {
            return Err(MeldFault::SuitTwice(*card));
        }
        seen |= bit;
    }
    if cards.len() > 4 {
        return Err(MeldFault::SetTooLarge(cards.len()));
    }
    let mut canonical: Vec<Card> = cards.iter().copied().filter(|c| !c.is_joker()).collect();
    canonical.sort_unstable();
    canonical.extend(std::iter::repeat_n(Card::JOKER, jokers));
    Ok(canonical)
}

/// A placement of a run's natural cards on ranks 1 to 14: which ranks they take, and the lowest
/// and highest rank the run may reach.
#[derive(Clone, Copy)]
struct Placement {
    /// Bit `r` set when a natural card takes rank `r`.
    ranks: u16,
    floor: u8,
    ceiling: u8,
}

impl Placement {
    fn lowest(self) -> u8 {
        self.ranks.trailing_zeros() as u8
    }

    fn highest(self) -> u8 {
        15 - self.ranks.leading_zeros() as u8
    }

    /// The ranks inside the span of the naturals that no natural takes.
    fn holes(self) -> u32 {
        u32::from(self.highest() - self.lowest() + 1) - self.ranks.count_ones()
    }
}

fn check_run(cards: &[Card], jokers: usize, suit: Suit) -> Result<Vec<Card>, MeldFault> {
    let mut ranks = 0u16;
    for card in cards.iter().filter(|c| !c.is_joker()) {
        let bit = 1 << card.rank().expect("a natural card");
        if ranks & bit != 0 {
            return Err(MeldFault::RankTwice(*card));
        }
        ranks |= bit;
    }
    if cards.len() > usize::from(KING) {
        return Err(MeldFault::RunTooLong(cards.len()));
    }
    let ace = ranks & (1 << ACE) != 0;
    let low = Placement {
        ranks,
        floor: ACE,
        ceiling: if ace { KING } else { HIGH_ACE },
    };
    let high = Placement {
        ranks: (ranks & !(1 << ACE)) | (1 << HIGH_ACE),
        floor: ACE + 1,
        ceiling: HIGH_ACE,
    };
    let fits = |p: Placement| p.holes() as usize <= jokers;
    if fits(low) {
        return Ok(lay_run(low, jokers, suit));
    }
    if ace && fits(high) {
        return Ok(lay_run(high, jokers, suit));
    }
    if wraps(ranks, jokers) {
        return Err(MeldFault::WrapsAround);
    }
    let closest = if ace && high.holes() < low.holes() {
        high
    } else {
        low
    };
    Err(first_hole(closest, jokers, suit))
}

/// The run in order: jokers in the holes, then the jokers left over above the highest card (as
/// far as the placement allows), then below the lowest.
fn lay_run(p: Placement, jokers: usize, suit: Suit) -> Vec<Card> {
    let spare = jokers - p.holes() as usize;
    let top = (usize::from(p.highest()) + spare).min(usize::from(p.ceiling)) as u8;
    let bottom = p.lowest() - (spare - usize::from(top - p.highest())) as u8;
    debug_assert!(bottom >= p.floor);
    (bottom..=top)
        .map(|r| {
            if p.ranks & (1 << r) != 0 {
                run_card(r, suit)
            } else {
                Card::JOKER
            }
        })
        .collect()
}

/// Whether the naturals (ace taken as rank 1) would make a run with `jokers` if ranks went round
/// from the king to the ace to the two — with a natural ace (`KS AS 2S`) or a joker standing for
/// it (`KS JK 2S`).
fn wraps(ranks: u16, jokers: usize) -> bool {
    let present: Vec<u8> = (ACE..=KING).filter(|r| ranks & (1 << r) != 0).collect();
    let widest_gap = present
        .windows(2)
        .map(|w| w[1] - w[0] - 1)
        .chain(std::iter::once(
            present[0] + KING - present[present.len() - 1] - 1,
        ))
        .max()
        .unwrap_or(0);
    let holes = usize::from(KING) - present.len() - usize::from(widest_gap);
    holes <= jokers
}

/// The first hole of the placement that the jokers (filling holes from the bottom) leave open.
fn first_hole(p: Placement, mut jokers: usize, suit: Suit) -> MeldFault {
    let mut below = p.lowest();
    for r in p.lowest()..=p.highest() {
        if p.ranks & (1 << r) != 0 {
            below = r;
        } else if jokers > 0 {
            jokers -= 1;
        } else {
            let above = (r..=p.highest())
                .find(|a| p.ranks & (1 << a) != 0)
                .expect("the highest rank is taken");
            return MeldFault::Missing {
                card: run_card(r, suit),
                below: run_card(below, suit),
                above: run_card(above, suit),
            };
        }
    }
    debug_assert!(
        false,
        "a placement that does not fit has a hole the jokers leave open"
    );
    MeldFault::Neither
}
