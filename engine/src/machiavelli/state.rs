//! The Machiavelli state machine: the deal, the turns (draw, skip, play), the penalties, the end
//! of a hand and of the match.

use super::bots::{Baseline, Heuristic};
use super::cards::{Card, deck, hand_points};
use super::table::check_table;
use crate::{
    Addressed, Audience, BuiltinBot, Game, Illegal, Outcome, SetupError, Turn, seed, shared_rules,
};
use protocol::machiavelli::{Action, DrawReason, Event, Options, True, View};
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::Deserialize;
use std::ops::RangeInclusive;

/// Cards a second skip in a hand draws.
pub const SKIP_PENALTY: usize = 2;
/// Cards a refused play draws.
pub const INVALID_PLAY_PENALTY: usize = 3;

/// A match of Machiavelli in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Machiavelli {
    /// The match seed (the dealers and the deals are drawn from it).
    pub(super) seed: u64,
    pub(super) players: usize,
    pub(super) options: Options,
    /// The first hand's dealer.
    pub(super) first_dealer: usize,
    /// The hand being played, from 1; `options.hands + 1` once the match is over.
    pub(super) hand_number: u32,
    /// Each seat's cards, sorted.
    pub(super) hands: Vec<Vec<Card>>,
    /// The table, canonical.
    pub(super) table: Vec<Vec<Card>>,
    /// The stock; its top card is the last.
    pub(super) stock: Vec<Card>,
    /// The seat to play.
    pub(super) to_play: usize,
    /// Whether each seat has used its skip this hand.
    pub(super) skipped: Vec<bool>,
    /// Turns without a play since the later of the last play and the stock running out (counted
    /// only while the stock is empty); at `players` the hand ends.
    pub(super) quiet: usize,
    /// Match points, by seat.
    pub(super) totals: Vec<i64>,
    /// The hands shown at the end of the last finished hand (empty before).
    pub(super) revealed: Vec<Vec<Card>>,
    /// Every hand's deal, for the log's final state.
    pub(super) deals: Vec<Vec<Vec<Card>>>,
}

impl Machiavelli {
    /// The dealer of the current hand: one seat clockwise per hand.
    pub(super) fn dealer(&self) -> usize {
        let hand = self.hand_number.min(self.options.hands) as usize;
        (self.first_dealer + hand - 1) % self.players
    }

    pub(super) fn over(&self) -> bool {
        self.hand_number > self.options.hands
    }

    /// Deals hand `self.hand_number`: a shuffled deck from the match seed, one card at a time
    /// clockwise from the dealer's left; the rest is the stock.
    fn start_hand(&mut self, events: &mut Vec<Addressed<Event>>) {
        let dealer = self.dealer();
        let mut cards = deck(self.options.jokers);
        cards.shuffle(&mut seed::rng(
            self.seed,
            "deal",
            u64::from(self.hand_number),
        ));
        let dealt = self.options.cards as usize * self.players;
        self.stock = cards.split_off(dealt);
        self.hands = vec![Vec::with_capacity(self.options.cards as usize); self.players];
        for (i, card) in cards.into_iter().enumerate() {
            self.hands[(dealer + 1 + i) % self.players].push(card);
        }
        for hand in &mut self.hands {
            hand.sort_unstable();
        }
        self.deals.push(self.hands.clone());
        self.table.clear();
        self.skipped = vec![false; self.players];
        self.quiet = 0;
        self.to_play = (dealer + 1) % self.players;
        events.extend(self.hand_start_events());
    }

    fn hand_start_events(&self) -> Vec<Addressed<Event>> {
        let mut events = vec![Addressed {
            to: Audience::All,
            event: Event::HandStart {
                hand_number: self.hand_number,
                dealer: self.dealer(),
                first: self.to_play,
            },
        }];
        events.extend(self.hands.iter().enumerate().map(|(seat, hand)| Addressed {
            to: Audience::Seat(seat),
            event: Event::Dealt {
                cards: hand.clone(),
            },
        }));
        events
    }

    /// `seat` draws up to `count` cards from the stock, told as `reason`.
    fn draw(
        &mut self,
        seat: usize,
        count: usize,
        reason: DrawReason,
        events: &mut Vec<Addressed<Event>>,
    ) {
        let count = count.min(self.stock.len());
        let drawn: Vec<Card> = (0..count).filter_map(|_| self.stock.pop()).collect();
        let hand = &mut self.hands[seat];
        hand.extend_from_slice(&drawn);
        hand.sort_unstable();
        events.push(Addressed {
            to: Audience::All,
            event: Event::Drew {
                seat,
                count,
                reason,
            },
        });
        if !drawn.is_empty() {
            events.push(Addressed {
                to: Audience::Seat(seat),
                event: Event::YouDrew { cards: drawn },
            });
        }
    }

    /// A turn without a play is over: counts it toward the end of a hand with an empty stock,
    /// and passes the turn (or ends the hand).
    fn quiet_turn(&mut self, stock_before: usize, events: &mut Vec<Addressed<Event>>) {
        if !self.stock.is_empty() {
            self.quiet = 0;
        } else if stock_before > 0 {
            // The stock ran out in this turn: the cycle counts from the next turn.
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        if self.quiet >= self.players {
            self.end_hand(None, events);
        } else {
            self.to_play = (self.to_play + 1) % self.players;
        }
    }

    /// Plays a submitted table: the new table, or the penalty for a refused one.
    fn play_table(&mut self, submitted: &[Vec<String>], events: &mut Vec<Addressed<Event>>) {
        let seat = self.to_play;
        let stock_before = self.stock.len();
        let limit = self.options.jokers_per_meld as usize;
        match check_table(submitted, &self.table, &self.hands[seat], limit) {
            Ok(new) => {
                let hand = &mut self.hands[seat];
                for card in &new.from_hand {
                    let at = hand
                        .binary_search(card)
                        .expect("checked: the card is in hand");
                    hand.remove(at);
                }
                self.table = new.table;
                self.quiet = 0;
                events.push(Addressed {
                    to: Audience::All,
                    event: Event::Played {
                        seat,
                        table: self.table.clone(),
                        from_hand: new.from_hand,
                        hand_size: self.hands[seat].len(),
                    },
                });
                if self.hands[seat].is_empty() {
                    self.end_hand(Some(seat), events);
                } else {
                    self.to_play = (seat + 1) % self.players;
                }
            }
            Err(message) => {
                events.push(Addressed {
                    to: Audience::Seat(seat),
                    event: Event::PlayRefused { message },
                });
                self.draw(seat, INVALID_PLAY_PENALTY, DrawReason::InvalidPlay, events);
                self.quiet_turn(stock_before, events);
            }
        }
    }

    /// The hand is over: every seat scores the cards left in its hand; the next hand is dealt.
    fn end_hand(&mut self, closer: Option<usize>, events: &mut Vec<Addressed<Event>>) {
        let points: Vec<i64> = self.hands.iter().map(|h| hand_points(h)).collect();
        for (total, p) in self.totals.iter_mut().zip(&points) {
            *total += p;
        }
        self.revealed = self.hands.clone();
        events.push(Addressed {
            to: Audience::All,
            event: Event::HandEnd {
                hand_number: self.hand_number,
                closer,
                points,
                totals: self.totals.clone(),
                hands_left: self.revealed.clone(),
            },
        });
        self.hand_number += 1;
        if !self.over() {
            self.start_hand(events);
        }
    }
}

impl Game for Machiavelli {
    const NAME: &'static str = "machiavelli";
    const SCORE_NAME: &'static str = "points";
    const HIGHER_IS_BETTER: bool = false;
    const LISTS_ACTIONS: bool = false;
    type Options = Options;
    type View = View;
    type Action = Action;
    type Event = Event;

    fn player_counts() -> RangeInclusive<usize> {
        2..=6
    }

    fn phases() -> &'static [&'static str] {
        &["turn"]
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        shared_rules::check_player_count::<Self>(players)?;
        let refuse = |message: String| SetupError::Options {
            game: Self::NAME,
            message,
        };
        if !(10..=13).contains(&options.cards) {
            return Err(refuse(format!(
                "cards must be 10, 11, 12 or 13, not {}",
                options.cards
            )));
        }
        if options.hands == 0 {
            return Err(refuse("hands must be at least 1".into()));
        }
        if options.jokers_per_meld == 0 {
            return Err(refuse("jokers_per_meld must be at least 1".into()));
        }
        let mut game = Machiavelli {
            seed,
            players,
            options: options.clone(),
            first_dealer: seed::rng(seed, "dealer", 0).random_range(0..players),
            hand_number: 1,
            hands: Vec::new(),
            table: Vec::new(),
            stock: Vec::new(),
            to_play: 0,
            skipped: Vec::new(),
            quiet: 0,
            totals: vec![0; players],
            revealed: vec![Vec::new(); players],
            deals: Vec::new(),
        };
        game.start_hand(&mut Vec::new());
        Ok(game)
    }

    fn opening_events(&self) -> Vec<Addressed<Event>> {
        self.hand_start_events()
    }

    fn to_move(&self) -> Option<Turn> {
        (!self.over()).then_some(Turn {
            seat: self.to_play,
            phase: "turn",
        })
    }

    fn view(&self, seat: usize) -> View {
        self.view_for(seat)
    }

    fn legal_actions(&self) -> Option<Vec<Action>> {
        None
    }

    /// Every action is legal while the match goes on: a play that does not hold is a penalty
    /// of the rules (the player draws 3), not an illegal action, and so is a second skip.
    fn check(&self, _action: &Action) -> Result<(), Illegal> {
        if self.over() {
            return Err(Illegal("the match is over".into()));
        }
        Ok(())
    }

    fn play(&mut self, action: &Action, events: &mut Vec<Addressed<Event>>) -> Result<(), Illegal> {
        self.check(action)?;
        let seat = self.to_play;
        let stock_before = self.stock.len();
        match action {
            Action::Draw(True) if self.stock.is_empty() => {
                events.push(Addressed {
                    to: Audience::All,
                    event: Event::Passed { seat },
                });
                self.quiet_turn(stock_before, events);
            }
            Action::Draw(True) => {
                self.draw(seat, 1, DrawReason::Draw, events);
                self.quiet_turn(stock_before, events);
            }
            Action::Skip(True) if !self.skipped[seat] => {
                self.skipped[seat] = true;
                events.push(Addressed {
                    to: Audience::All,
                    event: Event::Skipped { seat },
                });
                self.quiet_turn(stock_before, events);
            }
            Action::Skip(True) => {
                self.draw(seat, SKIP_PENALTY, DrawReason::SkipPenalty, events);
                self.quiet_turn(stock_before, events);
            }
            Action::Play(table) => self.play_table(table, events),
        }
        Ok(())
    }

    fn action_shape(&self) -> &'static str {
        r#"{"draw": true}, {"skip": true} or {"play": [["QH", "QS", "QD"], ["9S", "10S", "JS"]]} (the whole new table)"#
    }

    fn parse_action(&self, value: &serde_json::Value) -> Result<Action, String> {
        Action::deserialize(value).map_err(|_| format!("expected {}", self.action_shape()))
    }

    /// 10 cards each: the guide's tournaments deal 10 (a match deals 13 by default).
    fn event_option_defaults() -> Vec<(&'static str, serde_json::Value)> {
        vec![("cards", serde_json::json!(10))]
    }

    /// The `play_refused` event's message.
    fn refusal(event: &Event) -> Option<&str> {
        match event {
            Event::PlayRefused { message } => Some(message),
            _ => None,
        }
    }

    /// `{"draw": true}`: always allowed (a pass with an empty stock).
    fn baseline_action(_view: &View) -> Action {
        Action::Draw(True)
    }

    /// For a seat that faulted: `{"draw": true}`.
    fn default_action(&self) -> Action {
        Action::Draw(True)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over()
            .then(|| Outcome::from_scores(self.totals.clone(), Self::HIGHER_IS_BETTER))
    }

    /// The points of the hands finished so far.
    fn scores(&self) -> Vec<i64> {
        self.totals.clone()
    }

    fn truth(&self) -> serde_json::Value {
        serde_json::json!({
            "first_dealer": self.first_dealer,
            "hand_number": self.hand_number,
            "deals": self.deals,
            "hands": self.hands,
            "table": self.table,
            "stock": self.stock,
            "to_play": self.to_play,
            "skipped": self.skipped,
            "quiet": self.quiet,
            "totals": self.totals,
        })
    }

    /// The other seats' hands and the stock are dealt anew from the cards they hold between
    /// them, each hand keeping its size. The deals of later hands (drawn from the seed) stay.
    fn resample_hidden(&self, seat: usize, seed: u64) -> Self {
        let mut twin = self.clone();
        twin.stock = shared_rules::redeal_others(&mut twin.hands, seat, &self.stock, seed, |h| {
            h.sort_unstable()
        });
        twin
    }

    fn builtins() -> &'static [BuiltinBot<Self>] {
        const BUILTINS: &[BuiltinBot<Machiavelli>] = &[
            BuiltinBot {
                name: "baseline",
                summary: "lays the sets and runs of its own hand, largest first; else draws",
                make: || Box::new(Baseline),
            },
            BuiltinBot {
                name: "heuristic",
                summary: "also attaches to and rearranges the table (bounded search), shedding the most points; else draws",
                make: || Box::new(Heuristic),
            },
        ];
        BUILTINS
    }

    fn option_variants() -> Vec<Options> {
        vec![
            Options::default(),
            Options {
                jokers: true,
                cards: 10,
                hands: 2,
                jokers_per_meld: 1,
            },
            Options {
                jokers: true,
                cards: 11,
                hands: 1,
                jokers_per_meld: 2,
            },
        ]
    }
}
