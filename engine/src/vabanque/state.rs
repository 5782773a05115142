//! The Vabanque state machine.

use super::heuristic::Heuristic;
use super::payout::{next_order, table_payout, table_value};
use super::{CHIP_VALUES, CHIPS_PER_PLAYER, MAX_STEPS, ROUNDS, TABLES};
use crate::random::Random;
use crate::{
    Addressed, Audience, BuiltinBot, Game, Illegal, Outcome, SetupError, Turn, seed, shared_rules,
};
use protocol::vabanque::{Action, Card, Event, Phase, Reveal, RevealedCard, TablePayout, View};
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// Vabanque has no options; the empty table is accepted for uniformity with other games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {}

/// A card at a table: who placed it, which it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(super) struct Placement {
    pub owner: usize,
    pub table: usize,
    pub card: Card,
}

/// A match of Vabanque in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Vabanque {
    /// The match seed (default actions are drawn from it).
    pub(super) seed: u64,
    /// Decisions taken so far in the match.
    pub(super) decisions: u64,
    pub(super) players: usize,
    pub(super) tables: usize,
    pub(super) first_player: usize,
    /// 0-based round; `ROUNDS` once the match is over.
    pub(super) round: usize,
    pub(super) phase: Phase,
    /// Decisions already taken in the current phase.
    pub(super) turn: usize,
    pub(super) order: Vec<usize>,
    pub(super) table_chips: Vec<u32>,
    pub(super) tokens: Vec<usize>,
    pub(super) money: Vec<u64>,
    pub(super) hands: Vec<Vec<Card>>,
    pub(super) cards: Vec<Placement>,
    pub(super) revealed: Vec<Reveal>,
    /// Cards that lay at tables without a token: never revealed, kept for the log's truth.
    pub(super) never_revealed: Vec<(u32, Placement)>,
}

impl Vabanque {
    /// Number of decisions in the current phase.
    fn phase_length(&self) -> usize {
        match self.phase {
            Phase::Chip => CHIPS_PER_PLAYER[self.round] as usize * self.players,
            Phase::Card => Card::ALL.len() * self.players,
            Phase::Move => self.players,
        }
    }

    /// The seat whose turn it is (valid while the match is not over).
    fn current_seat(&self) -> usize {
        self.order[self.turn % self.players]
    }

    /// Chips each seat still has to place this round (none outside the chip phase).
    pub(super) fn chips_left(&self) -> Vec<u32> {
        let mut left = vec![0; self.players];
        if self.round >= ROUNDS || self.phase != Phase::Chip {
            return left;
        }
        for (position, &seat) in self.order.iter().enumerate() {
            let done = self.turn / self.players + usize::from(position < self.turn % self.players);
            left[seat] = CHIPS_PER_PLAYER[self.round] - done as u32;
        }
        left
    }

    /// Whether each seat has moved this round.
    pub(super) fn moved(&self) -> Vec<bool> {
        let mut moved = vec![false; self.players];
        if self.phase == Phase::Move {
            for &seat in &self.order[..self.turn] {
                moved[seat] = true;
            }
        }
        moved
    }

    /// Round number for the wire, 1 to 4.
    pub(super) fn round_number(&self) -> u32 {
        self.round.min(ROUNDS - 1) as u32 + 1
    }

    fn round_start_event(&self) -> Addressed<Event> {
        Addressed {
            to: Audience::All,
            event: Event::RoundStart {
                round: self.round_number(),
                order: self.order.clone(),
                chip_value: CHIP_VALUES[self.round],
            },
        }
    }

    fn advance(&mut self, events: &mut Vec<Addressed<Event>>) {
        self.turn += 1;
        if self.turn < self.phase_length() {
            return;
        }
        self.turn = 0;
        match self.phase {
            Phase::Chip => self.phase = Phase::Card,
            Phase::Card => self.phase = Phase::Move,
            Phase::Move => {
                self.pay_out(events);
                self.round += 1;
                self.phase = Phase::Chip;
                if self.round < ROUNDS {
                    self.order = next_order(&self.order, &self.money);
                    events.push(self.round_start_event());
                }
            }
        }
    }

    fn pay_out(&mut self, events: &mut Vec<Addressed<Event>>) {
        let round = self.round_number();
        let mut tables = Vec::new();
        for table in 0..self.tables {
            let here: Vec<(usize, Card)> = self
                .cards
                .iter()
                .filter(|p| p.table == table)
                .map(|p| (p.owner, p.card))
                .collect();
            let tokens: Vec<usize> = (0..self.players)
                .filter(|&s| self.tokens[s] == table)
                .collect();
            if tokens.is_empty() {
                continue;
            }
            let chips = self.table_chips[table];
            let paid = table_payout(chips, &here, &tokens, self.players);
            for (seat, amount) in paid.iter().enumerate() {
                self.money[seat] += amount;
            }
            for &(owner, card) in &here {
                self.revealed.push(Reveal {
                    round,
                    table,
                    owner,
                    card,
                });
            }
            tables.push(TablePayout {
                table,
                chips,
                value: table_value(chips, &here),
                tokens,
                cards: here
                    .iter()
                    .map(|&(owner, card)| RevealedCard { owner, card })
                    .collect(),
                paid,
            });
        }
        for placement in &self.cards {
            if self.tokens.iter().all(|&t| t != placement.table) {
                self.never_revealed.push((round, *placement));
            }
        }
        self.cards.clear();
        for hand in &mut self.hands {
            *hand = Card::ALL.to_vec();
        }
        events.push(Addressed {
            to: Audience::All,
            event: Event::Payout {
                round,
                tables,
                money: self.money.clone(),
            },
        });
    }

    /// Deals `cards` anew among themselves: the same multiset, in an order drawn from `rng`.
    fn permute(cards: &mut [&mut Card], rng: &mut rand_chacha::ChaCha8Rng) {
        let mut types: Vec<Card> = cards.iter().map(|c| **c).collect();
        types.shuffle(rng);
        for (slot, card) in cards.iter_mut().zip(types) {
            **slot = card;
        }
    }

    fn check_table(&self, table: usize) -> Result<(), Illegal> {
        if table < self.tables {
            Ok(())
        } else {
            Err(Illegal(format!(
                "table {table} does not exist (tables are 0 to {})",
                self.tables - 1
            )))
        }
    }
}

impl Game for Vabanque {
    const NAME: &'static str = "vabanque";
    const SCORE_NAME: &'static str = "money";
    const HIGHER_IS_BETTER: bool = true;
    const LISTS_ACTIONS: bool = true;
    type Options = Options;
    type View = protocol::vabanque::View;
    type Action = Action;
    type Event = Event;

    fn player_counts() -> RangeInclusive<usize> {
        3..=6
    }

    fn phases() -> &'static [&'static str] {
        &["chip", "card", "move"]
    }

    fn new(_options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        shared_rules::check_player_count::<Self>(players)?;
        let tables = TABLES[players - 3];
        let first_player = seed::rng(seed, "game", 0).random_range(0..players);
        let order: Vec<usize> = (0..players).map(|i| (first_player + i) % players).collect();
        let mut tokens = vec![0; players];
        for (i, &seat) in order.iter().enumerate() {
            tokens[seat] = (2 * i) % tables;
        }
        Ok(Vabanque {
            seed,
            decisions: 0,
            players,
            tables,
            first_player,
            round: 0,
            phase: Phase::Chip,
            turn: 0,
            order,
            table_chips: vec![0; tables],
            tokens,
            money: vec![0; players],
            hands: vec![Card::ALL.to_vec(); players],
            cards: Vec::new(),
            revealed: Vec::new(),
            never_revealed: Vec::new(),
        })
    }

    fn opening_events(&self) -> Vec<Addressed<Event>> {
        vec![self.round_start_event()]
    }

    fn to_move(&self) -> Option<Turn> {
        (self.round < ROUNDS).then(|| Turn {
            seat: self.current_seat(),
            phase: self.phase.as_str(),
        })
    }

    fn view(&self, seat: usize) -> View {
        self.view_for(seat)
    }

    fn legal_actions(&self) -> Option<Vec<Action>> {
        if self.round >= ROUNDS {
            return Some(Vec::new());
        }
        let actions = match self.phase {
            Phase::Chip => (0..self.tables)
                .map(|table| Action::Chip { table })
                .collect(),
            Phase::Card => {
                // A hand holds each card at most once; list them in the order raise, bluff, trap.
                let hand = &self.hands[self.current_seat()];
                Card::ALL
                    .into_iter()
                    .filter(|card| hand.contains(card))
                    .flat_map(|card| {
                        (0..self.tables).map(move |table| Action::Card { card, table })
                    })
                    .collect()
            }
            Phase::Move => (0..=MAX_STEPS)
                .map(|steps| Action::Move { steps })
                .collect(),
        };
        Some(actions)
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        if self.round >= ROUNDS {
            return Err(Illegal("the match is over".into()));
        }
        match (self.phase, *action) {
            (Phase::Chip, Action::Chip { table }) => self.check_table(table),
            (Phase::Card, Action::Card { card, table }) => {
                self.check_table(table)?;
                if self.hands[self.current_seat()].contains(&card) {
                    Ok(())
                } else {
                    Err(Illegal(format!(
                        "the {} card is not in your hand (it was already placed this round)",
                        serde_json::to_value(card)
                            .expect("a card serializes")
                            .as_str()
                            .unwrap_or("?")
                    )))
                }
            }
            (Phase::Move, Action::Move { steps }) if steps <= MAX_STEPS => Ok(()),
            (Phase::Move, Action::Move { steps }) => Err(Illegal(format!(
                "a token moves 0 to {MAX_STEPS} tables, not {steps}"
            ))),
            (phase, _) => Err(Illegal(format!(
                "the {} phase expects {}",
                phase.as_str(),
                self.action_shape()
            ))),
        }
    }

    fn play(&mut self, action: &Action, events: &mut Vec<Addressed<Event>>) -> Result<(), Illegal> {
        self.check(action)?;
        let seat = self.current_seat();
        let event = match *action {
            Action::Chip { table } => {
                let value = CHIP_VALUES[self.round];
                self.table_chips[table] += value;
                Event::Chip { seat, table, value }
            }
            Action::Card { card, table } => {
                let hand = &mut self.hands[seat];
                let at = hand
                    .iter()
                    .position(|&c| c == card)
                    .expect("checked: the card is in hand");
                hand.remove(at);
                self.cards.push(Placement {
                    owner: seat,
                    table,
                    card,
                });
                Event::Card { seat, table }
            }
            Action::Move { steps } => {
                let from = self.tokens[seat];
                let to = (from + steps) % self.tables;
                self.tokens[seat] = to;
                Event::Move {
                    seat,
                    from,
                    to,
                    steps,
                }
            }
        };
        events.push(Addressed {
            to: Audience::All,
            event,
        });
        self.decisions += 1;
        self.advance(events);
        Ok(())
    }

    fn action_shape(&self) -> &'static str {
        match self.phase {
            Phase::Chip => r#"{"table": T}"#,
            Phase::Card => r#"{"card": "raise"|"bluff"|"trap", "table": T}"#,
            Phase::Move => r#"{"steps": S} with S from 0 to 4"#,
        }
    }

    fn parse_action(&self, value: &serde_json::Value) -> Result<Action, String> {
        let expected = || format!("expected {}", self.action_shape());
        let action = Action::deserialize(value).map_err(|_| expected())?;
        let fits = matches!(
            (self.phase, action),
            (Phase::Chip, Action::Chip { .. })
                | (Phase::Card, Action::Card { .. })
                | (Phase::Move, Action::Move { .. })
        );
        if fits { Ok(action) } else { Err(expected()) }
    }

    /// Table 0 for a chip or a card (the first card of the hand, in the order raise, bluff, trap),
    /// no move for the token.
    fn baseline_action(view: &View) -> Action {
        match view.phase {
            Phase::Chip => Action::Chip { table: 0 },
            Phase::Card => Action::Card {
                card: Card::ALL
                    .into_iter()
                    .find(|card| view.hand.contains(card))
                    .unwrap_or(Card::Raise),
                table: 0,
            },
            Phase::Move => Action::Move { steps: 0 },
        }
    }

    /// For a seat that faulted: a uniformly random legal action, drawn from the match seed and
    /// the decision number. A faulting bot thus plays exactly as well as `builtin:random` —
    /// faulting never pays — and the choice is the same on every run and every machine.
    fn default_action(&self) -> Action {
        shared_rules::seeded_legal_action(self, self.seed, self.decisions)
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.round >= ROUNDS).then(|| Outcome::from_scores(self.scores(), Self::HIGHER_IS_BETTER))
    }

    /// The money of every seat.
    fn scores(&self) -> Vec<i64> {
        self.money.iter().map(|&m| m as i64).collect()
    }

    fn truth(&self) -> serde_json::Value {
        serde_json::json!({
            "first_player": self.first_player,
            "tables": self.tables,
            "table_chips": self.table_chips,
            "tokens": self.tokens,
            "money": self.money,
            "revealed": self.revealed,
            "never_revealed": self.never_revealed.iter().map(|(round, p)| serde_json::json!({
                "round": round, "table": p.table, "owner": p.owner, "card": p.card,
            })).collect::<Vec<_>>(),
            "cards_in_play": self.cards,
        })
    }

    /// The types of every other seat's face-down cards are dealt anew: this round's placed cards
    /// and hand together (each seat holds one of each card a round), and the cards of earlier
    /// rounds that were never revealed among themselves.
    fn resample_hidden(&self, seat: usize, seed: u64) -> Self {
        let mut rng = seed::rng(seed, "resample", 0);
        let mut twin = self.clone();
        for owner in (0..self.players).filter(|&o| o != seat) {
            let mut this_round: Vec<&mut Card> = twin
                .cards
                .iter_mut()
                .filter(|p| p.owner == owner)
                .map(|p| &mut p.card)
                .chain(twin.hands[owner].iter_mut())
                .collect();
            Self::permute(&mut this_round, &mut rng);
            twin.hands[owner].sort_by_key(|c| Card::ALL.iter().position(|a| a == c));
            for round in 1..=ROUNDS as u32 {
                let mut hidden: Vec<&mut Card> = twin
                    .never_revealed
                    .iter_mut()
                    .filter(|(r, p)| *r == round && p.owner == owner)
                    .map(|(_, p)| &mut p.card)
                    .collect();
                Self::permute(&mut hidden, &mut rng);
            }
        }
        twin
    }

    fn builtins() -> &'static [BuiltinBot<Self>] {
        const BUILTINS: &[BuiltinBot<Vabanque>] = &[
            BuiltinBot {
                name: "random",
                summary: "a uniformly random legal action",
                make: || Box::new(Random::default()),
            },
            BuiltinBot {
                name: "heuristic",
                summary: "chips where only its token reaches, traps where rivals go, moves to the best expected payout",
                make: || Box::new(Heuristic::default()),
            },
        ];
        BUILTINS
    }
}
