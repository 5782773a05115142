//! What a narrative is made of — sections of lines — and how it is laid out as text for a
//! terminal. The tellers build it with [`Story`]; the CLI prints [`Narrative::to_text`].

use crate::untrusted::line;

/// A match told as a story: a section for the match and its players, one per round (manche,
/// hand) of the game, and one for the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrative {
    /// The sections, in order.
    pub sections: Vec<Section>,
}

/// One part of the story under its heading (e.g. "Round 2: chips worth 10").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// Its lines, in order.
    pub lines: Vec<Line>,
}

/// One line of the story, before it is wrapped to the terminal's width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// What kind of line it is (how it is marked).
    pub kind: LineKind,
    /// How deep it is indented under the line before it (a table of a payout under the
    /// payout): 0 or more.
    pub depth: usize,
    /// The sentence, or the bot's text as it wrote it (escaped when it is laid out:
    /// [`Narrative::to_text`]).
    pub text: String,
}

/// What a line tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// Something that happened in the game.
    Told,
    /// How a bot behaved: a fault and its message, the referee playing for it, a slow or late
    /// reply. Marked `!`.
    Conduct,
    /// One line a bot wrote to its standard error, as it wrote it. Marked `|`.
    Stderr,
}

impl Narrative {
    /// Every line of every section, without headings or layout: what tests compare.
    pub fn lines(&self) -> impl Iterator<Item = &Line> {
        self.sections.iter().flat_map(|s| &s.lines)
    }

    /// The section whose heading starts with `prefix`, if any.
    pub fn section(&self, prefix: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.heading.starts_with(prefix))
    }

    /// The narrative laid out for a terminal `width` columns wide: each heading on its own
    /// line after a blank one, each line indented under it and wrapped, conduct marked `!`,
    /// stderr marked `|`. Every heading and line is escaped ([`crate::untrusted::line`]) before
    /// it is wrapped: a log is untrusted, and a bot's name, message or stderr line holds no line
    /// break or terminal sequence of its own here — the marks and line breaks are the
    /// referee's.
    pub fn to_text(&self, width: usize) -> String {
        let mut out = String::new();
        for (i, section) in self.sections.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            push_wrapped(&mut out, &line(&section.heading), width, "", "  ");
            for text in &section.lines {
                let pad = "  ".repeat(text.depth + 1);
                let (first, rest) = match text.kind {
                    LineKind::Told => (pad.clone(), format!("{pad}    ")),
                    LineKind::Conduct => (format!("{pad}! "), format!("{pad}    ")),
                    LineKind::Stderr => (format!("{pad}| "), format!("{pad}| ")),
                };
                push_wrapped(&mut out, &line(&text.text), width, &first, &rest);
            }
        }
        out
    }
}

impl Section {
    /// The texts of its lines.
    pub fn texts(&self) -> Vec<&str> {
        self.lines.iter().map(|l| l.text.as_str()).collect()
    }
}

/// Appends `text` wrapped at `width`, its first line after `first`, the others after `rest`;
/// a group in brackets (a meld, `[6C 6D 6H]`) is kept on one line.
fn push_wrapped(out: &mut String, text: &str, width: usize, first: &str, rest: &str) {
    let options = textwrap::Options::new(width.max(rest.len() + 8))
        .initial_indent(first)
        .subsequent_indent(rest)
        .word_separator(textwrap::WordSeparator::Custom(words_outside_brackets))
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    if text.is_empty() {
        out.push_str(first.trim_end());
        out.push('\n');
        return;
    }
    for line in textwrap::wrap(text, options) {
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// The words of `line` for wrapping: split at the spaces outside brackets, each word with the
/// spaces after it, and before each backslash outside brackets (with no space: a long run of a
/// bot's escaped characters, `\u{1b}[2J\u{202e}`, is wrapped between two escapes, not inside
/// one). A `[` opens a group only when a `]` closes it: a bot's lone `[` does not keep the rest
/// of the line from wrapping.
fn words_outside_brackets(line: &str) -> Box<dyn Iterator<Item = textwrap::core::Word<'_>> + '_> {
    let mut words = Vec::new();
    let (mut unclosed, mut groups) = (Vec::new(), Vec::new());
    for (i, c) in line.char_indices() {
        match c {
            '[' => unclosed.push(i),
            ']' => groups.extend(unclosed.pop()),
            _ => {}
        }
    }
    groups.sort_unstable();
    let (mut start, mut depth, mut in_space) = (0, 0usize, false);
    for (i, c) in line.char_indices() {
        match c {
            ' ' if depth == 0 => in_space = true,
            _ if in_space => {
                words.push(textwrap::core::Word::from(&line[start..i]));
                (start, in_space) = (i, false);
            }
            '\\' if depth == 0 && i > start => {
                words.push(textwrap::core::Word::from(&line[start..i]));
                start = i;
            }
            _ => {}
        }
        match c {
            '[' if groups.binary_search(&i).is_ok() => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if start < line.len() {
        words.push(textwrap::core::Word::from(&line[start..]));
    }
    Box::new(words.into_iter())
}

/// A narrative being written: sections are opened and lines added to the last one.
#[derive(Debug, Default)]
pub(crate) struct Story {
    sections: Vec<Section>,
}

impl Story {
    /// Opens a section under `heading`.
    pub(crate) fn section(&mut self, heading: impl Into<String>) {
        self.sections.push(Section {
            heading: heading.into(),
            lines: Vec::new(),
        });
    }

    /// Adds a line of `kind` at `depth` to the last section (opening an untitled one first if
    /// there is none).
    pub(crate) fn line(&mut self, kind: LineKind, depth: usize, text: impl Into<String>) {
        if self.sections.is_empty() {
            self.section("");
        }
        let section = self.sections.last_mut().expect("a section");
        section.lines.push(Line {
            kind,
            depth,
            text: text.into(),
        });
    }

    /// Tells something that happened in the game.
    pub(crate) fn told(&mut self, text: impl Into<String>) {
        self.line(LineKind::Told, 0, text);
    }

    /// Tells a detail of the line before, one level deeper.
    pub(crate) fn detail(&mut self, text: impl Into<String>) {
        self.line(LineKind::Told, 1, text);
    }

    /// Tells how a bot behaved.
    pub(crate) fn conduct(&mut self, text: impl Into<String>) {
        self.line(LineKind::Conduct, 0, text);
    }

    /// The finished narrative.
    pub(crate) fn finish(self) -> Narrative {
        Narrative {
            sections: self.sections,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_wrapped_indented_and_marked() {
        let mut story = Story::default();
        story.section("Round 1: chips worth 5");
        story.told("Alice puts a chip of 5 on table 3, where there are now 15 in chips.");
        story.detail("Table 3");
        story.conduct("Bob: timeout: no reply within the time limit of 100 ms.");
        story.line(LineKind::Stderr, 1, "thinking...");
        story.section("Result");
        let text = story.finish().to_text(40);
        assert_eq!(
            text,
            "Round 1: chips worth 5\n  Alice puts a chip of 5 on table 3,\n      where there are now 15 in chips.\n    Table 3\n  ! Bob: timeout: no reply within the\n      time limit of 100 ms.\n    | thinking...\n\nResult\n"
        );
        assert!(text.lines().all(|l| l.chars().count() <= 40));
    }

    #[test]
    fn a_bots_text_makes_no_line_and_no_terminal_sequence() {
        let mut story = Story::default();
        story.section("Round 1\u{1b}[2J");
        story.told("x\u{202e}, which calls itself \"\u{1b}]0;title\u{7}\".");
        story.conduct("a: fault malformed: x\n! a: fault timeout");
        story.line(LineKind::Stderr, 1, "\r| forged");
        let text = story.finish().to_text(200);
        assert_eq!(
            text,
            "Round 1\\u{1b}[2J\n  x\\u{202e}, which calls itself \"\\u{1b}]0;title\\u{7}\".\n  ! a: fault malformed: x\\n! a: fault timeout\n    | \\r| forged\n"
        );
    }

    #[test]
    fn a_run_of_escapes_is_wrapped_between_escapes() {
        let mut story = Story::default();
        story.section("");
        story.line(
            LineKind::Stderr,
            1,
            "turn 1 \u{1b}[2J\u{1b}[H\u{1b}]0;pwned\u{7}\u{9b}31m\u{202e}DESREVER\u{202c}\u{2066}",
        );
        let text = story.finish().to_text(40);
        assert_eq!(
            text,
            "\n    | turn 1 \\u{1b}[2J\n    | \\u{1b}[H\\u{1b}]0;pwned\\u{7}\n    | \\u{9b}31m\\u{202e}DESREVER\\u{202c}\n    | \\u{2066}\n"
        );
    }

    #[test]
    fn a_group_in_brackets_is_not_broken() {
        let mut story = Story::default();
        story.section("Hand 1");
        story.told("The table: [2C 2H 2S] [3C 4C 5C 6C] [3C 3D 3H] [5C 5D 5H].");
        assert_eq!(
            story.finish().to_text(40),
            "Hand 1\n  The table: [2C 2H 2S] [3C 4C 5C 6C]\n      [3C 3D 3H] [5C 5D 5H].\n"
        );
    }
}
