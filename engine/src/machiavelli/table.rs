//! A submitted table against the table before it and the player's hand: the checks of a play,
//! in the documented order, each with its exact message, and the canonical new table.
//!
//! 1. every string is a card;
//! 2. every card of the old table is on the new one (the first missing in card order);
//! 3. every other card is in the hand (copies count);
//! 4. at least one card comes from the hand;
//! 5. each meld, in the order submitted, is valid.
//!
//! Everything is counted in fixed arrays indexed by card: the cost is linear in the cards
//! submitted, with no search beyond the joker placement of one meld.

use super::cards::{Card, Counts, DISTINCT_CARDS, card_of_index, cards_of, counts};
use super::meld::check_meld;

/// A play that holds: the new table and what left the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTable {
    /// The new table, canonical: each meld in canonical order, melds sorted by their cards.
    pub table: Vec<Vec<Card>>,
    /// The cards that left the hand, sorted.
    pub from_hand: Vec<Card>,
}

/// The longest string quoted whole in a "not a card" message; a longer one is cut.
const QUOTE_LIMIT: usize = 12;

/// Checks the table a player submitted against `old` (canonical or not) and its `hand`.
///
/// # Errors
/// The message of the first check that fails, as documented.
pub fn check_table(
    submitted: &[Vec<String>],
    old: &[Vec<Card>],
    hand: &[Card],
    jokers_per_meld: usize,
) -> Result<NewTable, String> {
    let melds = parse(submitted)?;
    let new = counts(melds.iter().flatten());
    let old = counts(old.iter().flatten());
    let held = counts(hand);
    if let Some(i) = (0..DISTINCT_CARDS).find(|&i| new[i] < old[i]) {
        return Err(format!(
            "{} was on the table and is missing from your table",
            nth_copy(card_of_index(i), new[i])
        ));
    }
    let mut from_hand: Counts = [0; DISTINCT_CARDS];
    for i in 0..DISTINCT_CARDS {
        from_hand[i] = new[i] - old[i];
        if from_hand[i] > held[i] {
            return Err(not_in_hand(card_of_index(i), held[i]));
        }
    }
    if from_hand.iter().all(|&n| n == 0) {
        return Err("your table adds no card from your hand".to_string());
    }
    let mut table = Vec::with_capacity(melds.len());
    for (n, meld) in melds.iter().enumerate() {
        match check_meld(meld, jokers_per_meld) {
            Ok(canonical) => table.push(canonical),
            Err(fault) => {
                let written = submitted[n].join(" ");
                return Err(format!("meld {} ({written}) {fault}", n + 1));
            }
        }
    }
    table.sort_unstable();
    Ok(NewTable {
        table,
        from_hand: cards_of(&from_hand),
    })
}

/// Every string read as a card, or the message naming the first that is not one.
fn parse(submitted: &[Vec<String>]) -> Result<Vec<Vec<Card>>, String> {
    submitted
        .iter()
        .map(|meld| {
            meld.iter()
                .map(|text| Card::parse(text).ok_or_else(|| not_a_card(text)))
                .collect()
        })
        .collect()
}

fn not_a_card(text: &str) -> String {
    let shown: String = text.chars().take(QUOTE_LIMIT).collect();
    let cut = if shown.len() < text.len() { "..." } else { "" };
    format!("{shown:?}{cut} is not a card")
}

/// "5H is not in your hand" when the hand holds none; "a second 5H ..." when it holds one (a
/// third when it holds two, and so on).
fn not_in_hand(card: Card, held: u32) -> String {
    format!("{} is not in your hand", nth_copy(card, held))
}

/// The copy of `card` after `before` others: "5H" for the first, then "a second 5H", "a third
/// 5H" and so on.
fn nth_copy(card: Card, before: u32) -> String {
    let nth = match before {
        0 => return card.to_string(),
        1 => "second".to_string(),
        2 => "third".to_string(),
        3 => "fourth".to_string(),
        n => format!("{}th", n + 1),
    };
    format!("a {nth} {card}")
}

/// The canonical form of a table whose melds are all valid: each meld in canonical order, the
/// melds sorted. `None` if a meld is not valid.
pub fn canonical(table: &[Vec<Card>], jokers_per_meld: usize) -> Option<Vec<Vec<Card>>> {
    let mut melds: Vec<Vec<Card>> = table
        .iter()
        .map(|meld| check_meld(meld, jokers_per_meld).ok())
        .collect::<Option<_>>()?;
    melds.sort_unstable();
    Some(melds)
}
