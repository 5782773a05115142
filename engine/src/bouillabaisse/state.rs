//! The La Bouillabaisse state machine.

use super::MANCHES;
use super::deck::{deal, default_decks, draw_chosen, trim};
use super::heuristic::Heuristic;
use super::scoring::{Sweep, scoring, sweep, trick_points};
use super::trick::{suit_to_follow, winning};
use crate::random::Random;
use crate::{
    Addressed, Audience, BuiltinBot, Game, Illegal, Outcome, SetupError, Turn, seed, shared_rules,
};
use protocol::bouillabaisse::{Action, Card, Chosen, Event, Played, View};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// Game options (the `[options]` table of a match or tournament file; echoed to bots).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// 1 or 2 decks; by default one for 2 to 6 players and two for 7 to 12.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decks: Option<u8>,
    /// Draw a new chosen suit, face rank and card at the start of every manche.
    #[serde(default)]
    pub redraw: bool,
    /// The all-or-nothing variant: a seat that takes every scoring item of manche 1, 2, 3 or 5
    /// has that manche's points subtracted instead of added.
    #[serde(default)]
    pub all_or_nothing: bool,
}

/// A match of La Bouillabaisse in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Bouillabaisse {
    /// The match seed (deals, chosen items and default actions are drawn from it).
    pub(super) seed: u64,
    /// Decisions taken so far in the match.
    pub(super) decisions: u64,
    pub(super) players: usize,
    pub(super) decks: u8,
    pub(super) options: Options,
    /// Cards removed before every deal (public).
    pub(super) removed: Vec<Card>,
    /// Cards dealt every manche, in removal order.
    pub(super) in_play: Vec<Card>,
    /// The first manche's dealer.
    pub(super) first_dealer: usize,
    /// 1 to 6; `MANCHES + 1` once the match is over.
    pub(super) manche: u32,
    pub(super) chosen: Chosen,
    pub(super) hands: Vec<Vec<Card>>,
    /// Every manche's deal, for the log's final state.
    pub(super) deals: Vec<Vec<Vec<Card>>>,
    /// The seat that led the current trick.
    pub(super) leader: usize,
    pub(super) trick: Vec<Played>,
    /// Cards of this manche's finished tricks, in the order played.
    pub(super) played: Vec<Played>,
    pub(super) tricks_taken: Vec<u32>,
    /// Cards each seat has taken this manche.
    pub(super) taken: Vec<Vec<Card>>,
    /// Points each seat has taken this manche (before any all-or-nothing reversal).
    pub(super) points: Vec<i64>,
    pub(super) totals: Vec<i64>,
}

impl Bouillabaisse {
    /// The dealer of the current manche: one seat clockwise per manche.
    pub(super) fn dealer(&self) -> usize {
        (self.first_dealer + (self.manche.min(MANCHES) as usize - 1)) % self.players
    }

    /// The seat to play next (valid while the match is not over).
    fn current_seat(&self) -> usize {
        (self.leader + self.trick.len()) % self.players
    }

    fn over(&self) -> bool {
        self.manche > MANCHES
    }

    /// Starts manche `self.manche`: draws the chosen items if due, deals, and tells everyone.
    fn start_manche(&mut self, events: &mut Vec<Addressed<Event>>) {
        if self.options.redraw && self.manche > 1 {
            self.chosen = draw_chosen(&self.in_play, self.seed, u64::from(self.manche));
        }
        let dealer = self.dealer();
        self.hands = deal(&self.in_play, self.players, dealer, self.seed, self.manche);
        self.deals.push(self.hands.clone());
        self.leader = (dealer + 1) % self.players;
        self.trick.clear();
        self.played.clear();
        self.tricks_taken = vec![0; self.players];
        self.taken = vec![Vec::new(); self.players];
        self.points = vec![0; self.players];
        events.extend(self.manche_start_events());
    }

    fn manche_start_events(&self) -> Vec<Addressed<Event>> {
        let mut events = vec![Addressed {
            to: Audience::All,
            event: Event::MancheStart {
                manche: self.manche,
                dealer: self.dealer(),
                leader: self.leader,
                chosen: self.chosen,
                scoring: scoring(self.manche),
                removed: self.removed.clone(),
            },
        }];
        events.extend(self.hands.iter().enumerate().map(|(seat, hand)| Addressed {
            to: Audience::Seat(seat),
            event: Event::Dealt { hand: hand.clone() },
        }));
        events
    }

    /// The winner of the complete current trick: the highest card of the led suit; of identical
    /// winning cards (two decks), the one played first.
    pub(super) fn trick_winner(&self) -> usize {
        winning(&self.trick).expect("a complete trick").seat
    }

    fn finish_trick(&mut self, events: &mut Vec<Addressed<Event>>) {
        let winner = self.trick_winner();
        let scoring = scoring(self.manche);
        let points = trick_points(self.trick.iter().map(|p| p.card), &self.chosen, &scoring);
        self.points[winner] += points;
        self.tricks_taken[winner] += 1;
        self.taken[winner].extend(self.trick.iter().map(|p| p.card));
        self.played.extend_from_slice(&self.trick);
        events.push(Addressed {
            to: Audience::All,
            event: Event::TrickWon {
                seat: winner,
                cards: std::mem::take(&mut self.trick),
                points,
            },
        });
        self.leader = winner;
        if self.hands.iter().all(Vec::is_empty) {
            self.finish_manche(events);
        }
    }

    /// The seat that took every item of the manche's sweep, if the variant is on and one did.
    fn sweeper(&self) -> Option<usize> {
        if !self.options.all_or_nothing {
            return None;
        }
        let kind = sweep(self.manche)?;
        let tricks = self.in_play.len() / self.players;
        (0..self.players).find(|&seat| {
            let (took, all) = match kind {
                Sweep::Tricks => (self.tricks_taken[seat] as usize, tricks),
                Sweep::Suit => self.count_taken(seat, |c| c.suit == self.chosen.suit),
                Sweep::Rank => self.count_taken(seat, |c| c.rank == self.chosen.rank),
            };
            all > 0 && took == all
        })
    }

    /// How many cards matching `kind` `seat` took this manche, and how many are in play.
    fn count_taken(&self, seat: usize, kind: impl Fn(&Card) -> bool) -> (usize, usize) {
        (
            self.taken[seat].iter().filter(|c| kind(c)).count(),
            self.in_play.iter().filter(|c| kind(c)).count(),
        )
    }

    pub(super) fn finish_manche(&mut self, events: &mut Vec<Addressed<Event>>) {
        let sweeper = self.sweeper();
        let mut points = self.points.clone();
        if let Some(seat) = sweeper {
            points[seat] = -points[seat];
        }
        for (total, p) in self.totals.iter_mut().zip(&points) {
            *total += p;
        }
        events.push(Addressed {
            to: Audience::All,
            event: Event::MancheScored {
                manche: self.manche,
                points,
                all_or_nothing: sweeper,
                totals: self.totals.clone(),
            },
        });
        self.manche += 1;
        if !self.over() {
            self.start_manche(events);
        }
    }
}

impl Game for Bouillabaisse {
    const NAME: &'static str = "bouillabaisse";
    const SCORE_NAME: &'static str = "points";
    const HIGHER_IS_BETTER: bool = false;
    const LISTS_ACTIONS: bool = true;
    type Options = Options;
    type View = protocol::bouillabaisse::View;
    type Action = Action;
    type Event = Event;

    fn player_counts() -> RangeInclusive<usize> {
        2..=12
    }

    fn phases() -> &'static [&'static str] {
        &["play"]
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        shared_rules::check_player_count::<Self>(players)?;
        let decks = options.decks.unwrap_or_else(|| default_decks(players));
        if !(1..=2).contains(&decks) {
            return Err(SetupError::Options {
                game: Self::NAME,
                message: format!("decks must be 1 or 2, not {decks}"),
            });
        }
        let (removed, in_play) = trim(decks, players);
        let first_dealer = seed::rng(seed, "dealer", 0).random_range(0..players);
        let chosen = draw_chosen(&in_play, seed, if options.redraw { 1 } else { 0 });
        let mut game = Bouillabaisse {
            seed,
            decisions: 0,
            players,
            decks,
            options: options.clone(),
            removed,
            in_play,
            first_dealer,
            manche: 1,
            chosen,
            hands: Vec::new(),
            deals: Vec::new(),
            leader: 0,
            trick: Vec::new(),
            played: Vec::new(),
            tricks_taken: Vec::new(),
            taken: Vec::new(),
            points: Vec::new(),
            totals: vec![0; players],
        };
        game.start_manche(&mut Vec::new());
        Ok(game)
    }

    fn opening_events(&self) -> Vec<Addressed<Event>> {
        self.manche_start_events()
    }

    fn to_move(&self) -> Option<Turn> {
        (!self.over()).then(|| Turn {
            seat: self.current_seat(),
            phase: "play",
        })
    }

    fn view(&self, seat: usize) -> View {
        self.view_for(seat)
    }

    fn legal_actions(&self) -> Option<Vec<Action>> {
        if self.over() {
            return Some(Vec::new());
        }
        let hand = &self.hands[self.current_seat()];
        let follow = suit_to_follow(&self.trick, hand);
        let mut cards: Vec<Card> = hand
            .iter()
            .copied()
            .filter(|c| follow.is_none_or(|suit| c.suit == suit))
            .collect();
        cards.dedup();
        Some(cards.into_iter().map(|card| Action { card }).collect())
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        if self.over() {
            return Err(Illegal("the match is over".into()));
        }
        let hand = &self.hands[self.current_seat()];
        let card = action.card;
        if !hand.contains(&card) {
            return Err(Illegal(format!("{card} is not in your hand")));
        }
        match suit_to_follow(&self.trick, hand) {
            Some(led) if card.suit != led => Err(Illegal(format!(
                "{card} does not follow the led suit {}, and your hand holds {}",
                led.letter(),
                led.letter()
            ))),
            _ => Ok(()),
        }
    }

    fn play(&mut self, action: &Action, events: &mut Vec<Addressed<Event>>) -> Result<(), Illegal> {
        self.check(action)?;
        let seat = self.current_seat();
        let hand = &mut self.hands[seat];
        let at = hand
            .iter()
            .position(|&c| c == action.card)
            .expect("checked: the card is in hand");
        hand.remove(at);
        self.trick.push(Played {
            seat,
            card: action.card,
        });
        events.push(Addressed {
            to: Audience::All,
            event: Event::CardPlayed {
                seat,
                card: action.card,
            },
        });
        self.decisions += 1;
        if self.trick.len() == self.players {
            self.finish_trick(events);
        }
        Ok(())
    }

    fn action_shape(&self) -> &'static str {
        r#"{"card": "QS"} (rank 2-9, T, J, Q, K or A, then suit C, D, H or S)"#
    }

    fn parse_action(&self, value: &serde_json::Value) -> Result<Action, String> {
        Action::deserialize(value).map_err(|_| format!("expected {}", self.action_shape()))
    }

    /// The first card of the hand that may be played: of the led suit if the hand holds one.
    fn baseline_action(view: &View) -> Action {
        let follow = suit_to_follow(&view.trick, &view.hand);
        let card = view
            .hand
            .iter()
            .copied()
            .find(|c| follow.is_none_or(|suit| c.suit == suit))
            .expect("a seat to move holds a card");
        Action { card }
    }

    /// For a seat that faulted: a uniformly random legal card, drawn from the match seed and
    /// the decision number (uniform like `builtin:random`, from a stream of its own; the same on
    /// every run).
    fn default_action(&self) -> Action {
        shared_rules::seeded_legal_action(self, self.seed, self.decisions)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over()
            .then(|| Outcome::from_scores(self.totals.clone(), Self::HIGHER_IS_BETTER))
    }

    /// The totals of the manches scored so far (a manche in play counts once it is scored).
    fn scores(&self) -> Vec<i64> {
        self.totals.clone()
    }

    fn truth(&self) -> serde_json::Value {
        serde_json::json!({
            "decks": self.decks,
            "first_dealer": self.first_dealer,
            "removed": self.removed,
            "chosen": self.chosen,
            "deals": self.deals,
            "hands": self.hands,
            "totals": self.totals,
        })
    }

    /// The other seats' hands are dealt anew among themselves, each keeping its size. The deals
    /// of later manches (chance still to come, drawn from the seed) stay as they are.
    fn resample_hidden(&self, seat: usize, seed: u64) -> Self {
        let mut twin = self.clone();
        shared_rules::redeal_others(&mut twin.hands, seat, &[], seed, super::deck::sort_hand);
        twin
    }

    fn builtins() -> &'static [BuiltinBot<Self>] {
        const BUILTINS: &[BuiltinBot<Bouillabaisse>] = &[
            BuiltinBot {
                name: "random",
                summary: "a uniformly random legal card",
                make: || Box::new(Random::default()),
            },
            BuiltinBot {
                name: "heuristic",
                summary: "ducks and dumps dangerous cards (takes points in manche 6)",
                make: || Box::new(Heuristic),
            },
        ];
        BUILTINS
    }

    fn option_variants() -> Vec<Options> {
        vec![
            Options::default(),
            Options {
                decks: Some(2),
                redraw: true,
                all_or_nothing: true,
            },
            Options {
                decks: Some(1),
                redraw: false,
                all_or_nothing: true,
            },
        ]
    }
}
