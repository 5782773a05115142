//! Small pieces of English the narrative is written with: numbers with their thousands
//! grouped, lists joined with "and", plurals.

pub use crate::numbers::grouped;

/// `items` joined as a person lists them: "A", "A and B", "A, B and C"; "nobody" when empty.
pub(crate) fn listed<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => "nobody".to_string(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

/// "1 card", "3 cards": `count` and `noun`, with an `s` unless the count is one.
pub(crate) fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// `items` each formatted by `Display` and separated by spaces ("7H QS AC").
pub(crate) fn spaced<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_english() {
        assert_eq!(listed::<&str>(&[]), "nobody");
        assert_eq!(listed(&["A"]), "A");
        assert_eq!(listed(&["A", "B"]), "A and B");
        assert_eq!(listed(&["A", "B", "C"]), "A, B and C");
        assert_eq!(counted(1, "card"), "1 card");
        assert_eq!(counted(3, "card"), "3 cards");
        assert_eq!(spaced(&[1, 2, 3]), "1 2 3");
    }
}
