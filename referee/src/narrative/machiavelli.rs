//! Machiavelli told: each hand under its heading with its dealer and first player; each deal
//! (to its owner only); every play with the cards that came from the hand and the table it
//! made; every draw (the cards only to the drawer), skip and pass; every refused play with
//! its reason (to the player only), the table it tried (where the player's action may be known)
//! and its penalty; and the hand's end with the cards left, their points and the totals.

use super::cast::Cast;
use super::story::Story;
use super::teller::{Step, Teller, events, read};
use super::words::{counted, grouped, spaced};
use crate::runner::LogAudience;
use protocol::machiavelli::{Action, Card, DrawReason, Event, View};

/// The teller of Machiavelli.
pub(crate) struct Machiavelli {
    cast: Cast,
}

impl Machiavelli {
    /// A teller naming the seats by `cast`.
    pub(crate) fn new(cast: Cast) -> Self {
        Machiavelli { cast }
    }
}

/// A table written meld by meld: "[6C 6D 6H] [6S 7S 8S]"; "empty" without melds.
fn table<T: std::fmt::Display>(melds: &[Vec<T>]) -> String {
    if melds.is_empty() {
        return "empty".into();
    }
    melds
        .iter()
        .map(|meld| format!("[{}]", spaced(meld)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `cards` after a colon, or nothing when they are not known.
fn which(cards: Option<&Vec<Card>>) -> String {
    match cards {
        Some(cards) if !cards.is_empty() => format!(": {}", spaced(cards)),
        _ => String::new(),
    }
}

impl Teller for Machiavelli {
    fn title(&self) -> &'static str {
        "Machiavelli"
    }

    /// A match set up from a position (a test, a puzzle) starts with melds on the table: they
    /// are told, as everyone sees them.
    fn start(&mut self, view: &serde_json::Value, story: &mut Story) -> Result<(), String> {
        let view: View = read(view, "machiavelli view")?;
        if !view.table.is_empty() {
            story.told(format!("The table at the start: {}.", table(&view.table)));
        }
        Ok(())
    }

    fn step(&mut self, step: &Step<'_>, story: &mut Story) -> Result<(), String> {
        let told = events::<Event>(step, "machiavelli")?;
        let action: Option<Action> = step
            .act
            .as_ref()
            .and_then(|act| act.action)
            .map(|a| read(a, "machiavelli action"))
            .transpose()?;
        // What only the drawer is told, and the refusal only the player hears, complete the
        // public `drew` of the same step.
        let drawn = told.iter().find_map(|(_, e)| match e {
            Event::YouDrew { cards } => Some(cards),
            _ => None,
        });
        let refused = told
            .iter()
            .any(|(_, e)| matches!(e, Event::PlayRefused { .. }));
        for (to, event) in &told {
            match event {
                Event::HandStart {
                    hand_number,
                    dealer,
                    first,
                } => {
                    story.section(format!("Hand {hand_number}"));
                    story.told(format!(
                        "{} deals; {} plays first.",
                        self.cast.name(*dealer),
                        self.cast.name(*first)
                    ));
                }
                Event::Dealt { cards } => {
                    let whose = match to {
                        LogAudience::Seat(seat) => self.cast.name(*seat),
                        LogAudience::All => "A player".to_string(),
                    };
                    story.told(format!(
                        "{whose} is dealt {}: {}.",
                        counted(cards.len(), "card"),
                        spaced(cards)
                    ));
                }
                Event::Played {
                    seat,
                    table: melds,
                    from_hand,
                    hand_size,
                } => {
                    let left = match hand_size {
                        0 => "and has no card left".to_string(),
                        n => format!("({} left)", counted(*n, "card")),
                    };
                    story.told(format!(
                        "{} lays {} {left}.",
                        self.cast.name(*seat),
                        spaced(from_hand)
                    ));
                    story.detail(format!("The table: {}.", table(melds)));
                }
                Event::PlayRefused { message } => {
                    let name = step
                        .act
                        .as_ref()
                        .map_or("A player".to_string(), |a| self.cast.name(a.seat));
                    story.told(format!("{name}'s play is refused: {message}."));
                    if let Some(Action::Play(melds)) = &action {
                        story.detail(format!("The table it tried: {}.", table(melds)));
                    }
                }
                Event::Drew {
                    seat,
                    count,
                    reason,
                } => {
                    let name = self.cast.name(*seat);
                    let cards = which(drawn);
                    story.told(match reason {
                        DrawReason::Draw => match drawn {
                            Some(drawn) if !drawn.is_empty() => {
                                format!("{name} draws {}.", spaced(drawn))
                            }
                            _ => format!("{name} draws {}.", counted(*count, "card")),
                        },
                        DrawReason::SkipPenalty => format!(
                            "{name} skips a second time in the hand and draws {} as the penalty{cards}.",
                            counted(*count, "card")
                        ),
                        DrawReason::InvalidPlay if refused => format!(
                            "{name} draws {} as the penalty{cards}.",
                            counted(*count, "card")
                        ),
                        DrawReason::InvalidPlay => format!(
                            "{name}'s play is refused; {name} draws {} as the penalty.",
                            counted(*count, "card")
                        ),
                    });
                }
                // Told with its `drew`.
                Event::YouDrew { .. } => {}
                Event::Passed { seat } => {
                    story.told(format!(
                        "{} passes: the stock is empty.",
                        self.cast.name(*seat)
                    ));
                }
                Event::Skipped { seat } => {
                    story.told(format!(
                        "{} skips (its one skip of the hand).",
                        self.cast.name(*seat)
                    ));
                }
                Event::HandEnd {
                    hand_number,
                    closer,
                    points,
                    totals,
                    hands_left,
                } => {
                    story.told(match closer {
                        Some(seat) => format!(
                            "{} has closed: hand {hand_number} is over.",
                            self.cast.name(*seat)
                        ),
                        None => format!(
                            "Hand {hand_number} is over: the stock is empty and a whole round of turns passed without a play."
                        ),
                    });
                    for (seat, left) in hands_left.iter().enumerate() {
                        let points = points.get(seat).copied().unwrap_or_default();
                        story.detail(if left.is_empty() {
                            format!("{}: no card left, 0 points.", self.cast.name(seat))
                        } else {
                            format!(
                                "{} keeps {}: {} points.",
                                self.cast.name(seat),
                                spaced(left),
                                grouped(points)
                            )
                        });
                    }
                    story.told(format!(
                        "Totals: {}.",
                        self.cast.each(totals, |t| grouped(*t))
                    ));
                }
            }
        }
        Ok(())
    }
}
