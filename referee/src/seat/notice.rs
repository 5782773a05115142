//! What the referee says at start-up about how its bots run — the sandbox, the control groups,
//! the users — each said once per run: one short line that links to the section of
//! `docs/security.md` that explains it, and a long form (the reasons, the fixes, what a bot can
//! do then) for `--verbose`. A class tournament of twenty bots that all run as root gets one line,
//! not twenty paragraphs.

/// The longest a short line should be, in characters (without the `referee: ` prefix).
pub const SHORT_MAX: usize = 160;

/// One thing said at start-up, in its two forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    short: String,
    long: Vec<String>,
}

impl Notice {
    /// A notice of one short line and a long form of one line or more.
    pub fn new(short: impl Into<String>, long: Vec<String>) -> Self {
        Notice {
            short: short.into(),
            long,
        }
    }

    /// A notice that is short already: the same line in both forms.
    pub fn plain(line: impl Into<String>) -> Self {
        let line = line.into();
        Notice {
            long: vec![line.clone()],
            short: line,
        }
    }

    /// The short line.
    pub fn short(&self) -> &str {
        &self.short
    }

    /// The lines to print: the long form when `verbose`, else the short line.
    pub fn lines(&self, verbose: bool) -> Vec<&str> {
        if verbose {
            self.long.iter().map(String::as_str).collect()
        } else {
            vec![self.short.as_str()]
        }
    }
}

/// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`, or `'a', 'b' and 3 more`: the names of `names` that
/// fit in about `budget` characters (at least the first), the others counted.
pub fn some_names(names: &[&str], budget: usize) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let mut shown = 1;
    while shown < quoted.len() {
        let width: usize = quoted[..=shown].iter().map(|q| q.len() + 2).sum();
        let rest = if shown + 1 < quoted.len() { 12 } else { 0 };
        if width + rest > budget {
            break;
        }
        shown += 1;
    }
    let (head, tail) = quoted.split_at(shown);
    match tail.len() {
        0 => match head {
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        },
        more => format!("{} and {more} more", head.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_listed_while_they_fit_and_the_rest_counted() {
        assert_eq!(some_names(&["a"], 40), "'a'");
        assert_eq!(some_names(&["a", "b"], 40), "'a' and 'b'");
        assert_eq!(some_names(&["a", "b", "c"], 40), "'a', 'b' and 'c'");
        let many = ["alpha", "beta", "gamma", "delta", "epsilon"];
        assert_eq!(some_names(&many, 30), "'alpha', 'beta' and 3 more");
        let long = "x".repeat(64);
        assert_eq!(
            some_names(&[&long, &long, "c"], 40),
            format!("'{long}' and 2 more")
        );
    }

    #[test]
    fn verbose_gives_the_long_form() {
        let notice = Notice::new("short", vec!["long 1".into(), "long 2".into()]);
        assert_eq!(notice.lines(false), ["short"]);
        assert_eq!(notice.lines(true), ["long 1", "long 2"]);
        assert_eq!(Notice::plain("x").lines(true), ["x"]);
    }
}
