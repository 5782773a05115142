//! Who sits where: each seat's name as the narrative writes it, and whose point of view it is
//! told from.

use super::words::listed;
use crate::runner::LogAudience;

/// Whose story is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Everything the log holds: every event (every hand dealt, every card drawn), every action
    /// in full (the type of every face-down card), every bot's faults, timings and stderr.
    Everything,
    /// Only what this seat saw: the events told to it, its own actions in full, the others'
    /// actions only as the events told them, and only its own faults, timings and stderr.
    Seat(usize),
}

impl Perspective {
    /// Whether an event told to `to` is in the story.
    pub fn hears(self, to: LogAudience) -> bool {
        match self {
            Perspective::Everything => true,
            Perspective::Seat(seat) => to.includes(seat),
        }
    }

    /// Whether the actions, faults, timings and stderr of `seat` are in the story in full.
    pub fn knows(self, seat: usize) -> bool {
        match self {
            Perspective::Everything => true,
            Perspective::Seat(mine) => mine == seat,
        }
    }
}

/// The players' names by seat. The match's first section introduces every seat as
/// `NAME (seat K)`; after that a seat is its name alone, unless two seats share a name, which
/// then keep their seat numbers everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cast {
    names: Vec<String>,
}

impl Cast {
    /// The cast of players named `names`, by seat.
    pub fn new(names: Vec<String>) -> Self {
        let unique = |name: &String| names.iter().filter(|n| *n == name).count() == 1;
        let names = names
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                if unique(name) {
                    name.clone()
                } else {
                    format!("{name} (seat {seat})")
                }
            })
            .collect();
        Cast { names }
    }

    /// The name of `seat` (a seat the log does not have is written `seat K`).
    pub fn name(&self, seat: usize) -> String {
        self.names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    /// `seat` introduced: `NAME (seat K)`.
    pub fn introduce(&self, seat: usize) -> String {
        let name = self.name(seat);
        if name.ends_with(&format!("(seat {seat})")) {
            name
        } else {
            format!("{name} (seat {seat})")
        }
    }

    /// The names of `seats`, listed: "Alice, Bob and Carol".
    pub fn list(&self, seats: &[usize]) -> String {
        let names: Vec<String> = seats.iter().map(|&s| self.name(s)).collect();
        listed(&names)
    }

    /// `NAME value` for every seat, comma-separated: "Alice 0, Bob 90,000".
    pub fn each<T>(&self, values: &[T], show: impl Fn(&T) -> String) -> String {
        values
            .iter()
            .enumerate()
            .map(|(seat, v)| format!("{} {}", self.name(seat), show(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_introduced_once_and_shared_names_keep_their_seat() {
        let cast = Cast::new(vec!["a".into(), "b".into(), "a".into()]);
        assert_eq!(cast.name(1), "b");
        assert_eq!(cast.introduce(1), "b (seat 1)");
        assert_eq!(cast.name(2), "a (seat 2)");
        assert_eq!(cast.introduce(2), "a (seat 2)");
        assert_eq!(cast.list(&[0, 1, 2]), "a (seat 0), b and a (seat 2)");
        assert_eq!(
            cast.each(&[1, 2, 3], |v| v.to_string()),
            "a (seat 0) 1, b 2, a (seat 2) 3"
        );
    }

    #[test]
    fn a_seat_hears_its_own_and_the_public_events_only() {
        let seat = Perspective::Seat(1);
        assert!(seat.hears(LogAudience::All));
        assert!(seat.hears(LogAudience::Seat(1)));
        assert!(!seat.hears(LogAudience::Seat(0)));
        assert!(seat.knows(1) && !seat.knows(0));
        assert!(Perspective::Everything.hears(LogAudience::Seat(0)));
    }
}
