//! Vabanque told: each round under its heading with its playing order, every chip, card and
//! move, the payout table by table (the cards turned up and who received what), the cards
//! that stay face down for ever, and the money after. A card's type is written only where the
//! perspective may know it: its owner's own action, or the payout that turned it up.

use super::cast::Cast;
use super::story::{LineKind, Story};
use super::teller::{Step, Teller, events, read};
use super::words::grouped;
use protocol::vabanque::{Action, Card, Event, TablePayout, View};

/// The teller of Vabanque.
pub(crate) struct Vabanque {
    cast: Cast,
    /// The chips on each table so far.
    chips: Vec<u32>,
    /// This round's cards in the order placed: owner, table, and type where it is known.
    placed: Vec<(usize, usize, Option<Card>)>,
}

impl Vabanque {
    /// A teller naming the seats by `cast`.
    pub(crate) fn new(cast: Cast) -> Self {
        Vabanque {
            cast,
            chips: Vec::new(),
            placed: Vec::new(),
        }
    }

    /// The chip total of `table`, counted with `value` more.
    fn add_chip(&mut self, table: usize, value: u32) -> u32 {
        if self.chips.len() <= table {
            self.chips.resize(table + 1, 0);
        }
        self.chips[table] += value;
        self.chips[table]
    }

    /// `owner`'s card, as the perspective knows it: "Alice's raise" or "Alice's card".
    fn whose(&self, owner: usize, card: Option<Card>) -> String {
        let name = self.cast.name(owner);
        match card {
            Some(card) => format!("{name}'s {}", card_name(card)),
            None => format!("{name}'s card"),
        }
    }

    /// The payout of a round: each table with a token, the tables whose cards stay face down,
    /// the money after.
    fn payout(&mut self, round: u32, tables: &[TablePayout], money: &[u64], story: &mut Story) {
        story.told(format!("Payout of round {round}:"));
        for t in tables {
            story.detail(format!(
                "Table {}: {} in chips, worth {}; the {} of {}.",
                t.table,
                t.chips,
                grouped(t.value as i64),
                if t.tokens.len() == 1 {
                    "token"
                } else {
                    "tokens"
                },
                self.cast.list(&t.tokens)
            ));
            let cards: Vec<String> = t
                .cards
                .iter()
                .map(|c| self.whose(c.owner, Some(c.card)))
                .collect();
            story.line(
                LineKind::Told,
                2,
                if cards.is_empty() {
                    "No card there.".to_string()
                } else {
                    format!("Cards turned up: {}.", cards.join(", "))
                },
            );
            let mut paid: Vec<String> = (0..t.paid.len())
                .filter(|&s| t.paid[s] > 0)
                .map(|s| format!("{} {}", self.cast.name(s), grouped(t.paid[s] as i64)))
                .collect();
            paid.extend(
                t.tokens
                    .iter()
                    .filter(|&&s| t.paid.get(s) == Some(&0))
                    .map(|&s| format!("{} nothing", self.cast.name(s))),
            );
            story.line(LineKind::Told, 2, format!("Paid: {}.", paid.join(", ")));
        }
        let mut hidden: Vec<usize> = self
            .placed
            .iter()
            .map(|&(_, table, _)| table)
            .filter(|table| !tables.iter().any(|t| t.table == *table))
            .collect();
        hidden.sort_unstable();
        hidden.dedup();
        for table in hidden {
            let cards: Vec<String> = self
                .placed
                .iter()
                .filter(|&&(_, t, _)| t == table)
                .map(|&(owner, _, card)| self.whose(owner, card))
                .collect();
            story.detail(format!(
                "Table {table} has no token: its cards stay face down for ever ({}).",
                cards.join(", ")
            ));
        }
        let money: Vec<i64> = money.iter().map(|&m| m as i64).collect();
        story.told(format!(
            "Money: {}.",
            self.cast.each(&money, |m| grouped(*m))
        ));
    }
}

/// A card's name on the wire ("raise").
fn card_name(card: Card) -> &'static str {
    match card {
        Card::Raise => "raise",
        Card::Bluff => "bluff",
        Card::Trap => "trap",
    }
}

impl Teller for Vabanque {
    fn title(&self) -> &'static str {
        "Vabanque"
    }

    fn start(&mut self, view: &serde_json::Value, story: &mut Story) -> Result<(), String> {
        let view: View = read(view, "vabanque view")?;
        self.chips = vec![0; view.tables];
        let tokens: Vec<i64> = view.tokens.iter().map(|&t| t as i64).collect();
        story.told(format!(
            "{} tables in a circle, 0 to {}. The tokens start on the tables: {}.",
            view.tables,
            view.tables.saturating_sub(1),
            self.cast.each(&tokens, |t| t.to_string())
        ));
        Ok(())
    }

    fn step(&mut self, step: &Step<'_>, story: &mut Story) -> Result<(), String> {
        let action: Option<(usize, Action)> = match &step.act {
            Some(act) => act
                .action
                .map(|a| read(a, "vabanque action").map(|a| (act.seat, a)))
                .transpose()?,
            None => None,
        };
        for (_, event) in events::<Event>(step, "vabanque")? {
            match event {
                Event::RoundStart {
                    round,
                    order,
                    chip_value,
                } => {
                    self.placed.clear();
                    story.section(format!("Round {round}: chips worth {chip_value}"));
                    story.told(format!("Playing order: {}.", self.cast.list(&order)));
                }
                Event::Chip { seat, table, value } => {
                    let total = self.add_chip(table, value);
                    story.told(format!(
                        "{} puts a chip of {value} on table {table} ({total} in chips there).",
                        self.cast.name(seat)
                    ));
                }
                Event::Card { seat, table } => {
                    let card = match action {
                        Some((by, Action::Card { card, .. })) if by == seat => Some(card),
                        _ => None,
                    };
                    self.placed.push((seat, table, card));
                    let what = card.map_or("a card".to_string(), |c| format!("a {}", card_name(c)));
                    story.told(format!(
                        "{} places {what} face down at table {table}.",
                        self.cast.name(seat)
                    ));
                }
                Event::Move {
                    seat,
                    from,
                    to,
                    steps,
                } => {
                    let name = self.cast.name(seat);
                    story.told(if steps == 0 {
                        format!("{name} leaves its token on table {from}.")
                    } else {
                        format!(
                            "{name} moves its token {steps} {} clockwise, from table {from} to table {to}.",
                            if steps == 1 { "table" } else { "tables" }
                        )
                    });
                }
                Event::Payout {
                    round,
                    tables,
                    money,
                } => self.payout(round, &tables, &money, story),
            }
        }
        Ok(())
    }
}
