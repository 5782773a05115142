//! La Bouillabaisse told: each manche under its heading with its dealer, its leader, the
//! chosen suit, face rank and card (as drawn for that manche) and what scores; the cards
//! removed; each hand dealt (to its owner only); each trick's cards, its winner and its points;
//! the manche's points, what it handed out in all, and the totals.

use super::cast::Cast;
use super::story::Story;
use super::teller::{Step, Teller, events};
use super::words::{grouped, spaced};
use crate::runner::LogAudience;
use protocol::bouillabaisse::{Chosen, Event, Played, Scoring, Suit};

/// The teller of La Bouillabaisse.
pub(crate) struct Bouillabaisse {
    cast: Cast,
    /// The trick being played in the manche, from 1.
    trick: u32,
}

impl Bouillabaisse {
    /// A teller naming the seats by `cast`.
    pub(crate) fn new(cast: Cast) -> Self {
        Bouillabaisse { cast, trick: 0 }
    }

    /// "Alice 7H, Bob QH".
    fn plays(&self, cards: &[Played]) -> String {
        cards
            .iter()
            .map(|p| format!("{} {}", self.cast.name(p.seat), p.card))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A suit's name ("heart").
fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "club",
        Suit::Diamonds => "diamond",
        Suit::Hearts => "heart",
        Suit::Spades => "spade",
    }
}

/// A face rank's name ("queen").
fn face_name(rank: u8) -> String {
    match rank {
        11 => "jack".into(),
        12 => "queen".into(),
        13 => "king".into(),
        other => format!("rank {other}"),
    }
}

/// What scores in a manche: "10 a heart, 50 a queen"; "nothing" when nothing does.
fn scoring(scoring: &Scoring, chosen: &Chosen) -> String {
    let items = [
        (scoring.trick, "trick".to_string()),
        (scoring.suit, suit_name(chosen.suit).to_string()),
        (scoring.rank, face_name(chosen.rank)),
        (scoring.card, chosen.card.to_string()),
    ];
    let scored: Vec<String> = items
        .iter()
        .filter(|(points, _)| *points != 0)
        .map(|(points, item)| format!("{points} a {item}"))
        .collect();
    if scored.is_empty() {
        "nothing".into()
    } else {
        scored.join(", ")
    }
}

impl Teller for Bouillabaisse {
    fn title(&self) -> &'static str {
        "La Bouillabaisse"
    }

    fn start(&mut self, _view: &serde_json::Value, _story: &mut Story) -> Result<(), String> {
        Ok(())
    }

    fn step(&mut self, step: &Step<'_>, story: &mut Story) -> Result<(), String> {
        for (to, event) in events::<Event>(step, "bouillabaisse")? {
            match event {
                Event::MancheStart {
                    manche,
                    dealer,
                    leader,
                    chosen,
                    scoring: items,
                    removed,
                } => {
                    self.trick = 0;
                    story.section(format!("Manche {manche}"));
                    story.told(format!(
                        "{} deals; {} leads.",
                        self.cast.name(dealer),
                        self.cast.name(leader)
                    ));
                    story.told(format!(
                        "Chosen: the suit {}s, the face rank {}, the card {}.",
                        suit_name(chosen.suit),
                        face_name(chosen.rank),
                        chosen.card,
                    ));
                    story.told(format!("Scoring: {}.", scoring(&items, &chosen)));
                    if !removed.is_empty() {
                        story.told(format!("Removed before the deal: {}.", spaced(&removed)));
                    }
                }
                Event::Dealt { hand } => {
                    let whose = match to {
                        LogAudience::Seat(seat) => format!("{}'s hand", self.cast.name(seat)),
                        LogAudience::All => "A hand".to_string(),
                    };
                    story.told(format!("{whose}: {}.", spaced(&hand)));
                }
                // Told with its trick.
                Event::CardPlayed { .. } => {}
                Event::TrickWon {
                    seat,
                    cards,
                    points,
                } => {
                    self.trick += 1;
                    let points = match points {
                        0 => "no points".to_string(),
                        1 | -1 => format!("{points} point"),
                        _ => format!("{} points", grouped(points)),
                    };
                    story.told(format!(
                        "Trick {}: {}. {} takes it: {points}.",
                        self.trick,
                        self.plays(&cards),
                        self.cast.name(seat)
                    ));
                }
                Event::MancheScored {
                    manche,
                    points,
                    all_or_nothing,
                    totals,
                } => {
                    let all: i64 = points.iter().sum();
                    story.told(format!(
                        "Manche {manche} scores: {} ({} in all).",
                        self.cast.each(&points, |p| grouped(*p)),
                        grouped(all)
                    ));
                    if let Some(seat) = all_or_nothing {
                        story.told(format!(
                            "{} took every scoring item: its points are subtracted (all or nothing).",
                            self.cast.name(seat)
                        ));
                    }
                    story.told(format!(
                        "Totals: {}.",
                        self.cast.each(&totals, |t| grouped(*t))
                    ));
                }
            }
        }
        Ok(())
    }
}
