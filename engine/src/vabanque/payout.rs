//! The payout of one table and the next playing order: pure functions of public facts.

use super::MONEY_PER_POINT;
use protocol::vabanque::Card;

/// What one table pays, by seat, given its chips, the cards at it (owner, type) and the owners
/// of the tokens on it. Per the rules: value = chips × (1 + Raise cards) × 1,000; each token's
/// owner gets the value unless another player's Trap lies there (a player's own Trap never
/// blocks it); each Trap's owner gets the value once per token of another player; Bluff does
/// nothing; tokens do not split the value.
pub fn table_payout(
    chips: u32,
    cards: &[(usize, Card)],
    tokens: &[usize],
    players: usize,
) -> Vec<u64> {
    let value = table_value(chips, cards);
    let mut paid = vec![0; players];
    for &owner in tokens {
        let blocked = cards.iter().any(|&(o, c)| c == Card::Trap && o != owner);
        if !blocked {
            paid[owner] += value;
        }
    }
    for &(trapper, card) in cards {
        if card == Card::Trap {
            let victims = tokens.iter().filter(|&&o| o != trapper).count() as u64;
            paid[trapper] += value * victims;
        }
    }
    paid
}

/// The table's value in money (chips × (1 + Raise cards) × 1,000).
pub fn table_value(chips: u32, cards: &[(usize, Card)]) -> u64 {
    let raises = cards.iter().filter(|(_, c)| *c == Card::Raise).count() as u64;
    u64::from(chips) * (1 + raises) * MONEY_PER_POINT
}

/// The next round's playing order: richest first; among players with equal money, the
/// relative order of the round just played is reversed.
pub fn next_order(order: &[usize], money: &[u64]) -> Vec<usize> {
    let mut positions: Vec<(usize, usize)> = order.iter().copied().enumerate().collect();
    positions.sort_by(|&(pa, a), &(pb, b)| money[b].cmp(&money[a]).then(pb.cmp(&pa)));
    positions.into_iter().map(|(_, seat)| seat).collect()
}
