//! Untrusted text for a terminal: every dangerous character ([`needs_escape`]) written as Rust
//! writes it in a string literal — `\u{1b}`, `\r`, `\n`, `\t`, `\u{202e}` — and everything else
//! as it is.
//!
//! The escaping is idempotent: what it writes holds no dangerous character, so escaping it again
//! changes nothing. A fault message is escaped where the referee makes it (it quotes the bot's
//! line or stderr, and the match log keeps it as shown) and again where it is printed (the log
//! it is read from may have been edited): it is never escaped twice over. The price is that a
//! backslash is not itself escaped: a bot that writes the six characters `\u{1b}` shows the same
//! as one that writes ESC. That ambiguity is the bot's own text made to look like an escape; it
//! can never make the text hold one, and each escape names one character only.

use std::borrow::Cow;
use std::fmt;

/// The format characters (Unicode category Cf, as of Unicode 15.1) and the line and paragraph
/// separators (Zl, Zp), in ranges — all but the zero-width non-joiner and joiner (U+200C,
/// U+200D), which emoji and several scripts need and which move and hide nothing.
const FORMAT: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),   // soft hyphen
    (0x0600, 0x0605),   // Arabic number signs
    (0x061C, 0x061C),   // Arabic letter mark (bidi)
    (0x06DD, 0x06DD),   // Arabic end of ayah
    (0x070F, 0x070F),   // Syriac abbreviation mark
    (0x0890, 0x0891),   // Arabic pound and piastre marks above
    (0x08E2, 0x08E2),   // Arabic disputed end of ayah
    (0x180E, 0x180E),   // Mongolian vowel separator
    (0x200B, 0x200B),   // zero-width space
    (0x200E, 0x200F),   // left-to-right and right-to-left marks (bidi)
    (0x2028, 0x202E),   // line and paragraph separators; bidi embeddings and overrides
    (0x2060, 0x2064),   // word joiner, invisible operators
    (0x2066, 0x206F),   // bidi isolates; deprecated format characters
    (0xFEFF, 0xFEFF),   // zero-width no-break space (byte order mark)
    (0xFFF9, 0xFFFB),   // interlinear annotation
    (0x110BD, 0x110BD), // Kaithi number sign
    (0x110CD, 0x110CD), // Kaithi number sign above
    (0x13430, 0x1343F), // Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3), // shorthand format controls
    (0x1D173, 0x1D17A), // musical symbol format controls
    (0xE0001, 0xE0001), // language tag
    (0xE0020, 0xE007F), // tag characters (invisible ASCII)
];

/// Whether `c` is shown escaped: a control character (C0, including TAB, LF, CR and ESC; DEL;
/// C1), which a terminal obeys, or a format character (bidi controls, zero-width and invisible
/// characters, line and paragraph separators), which reorders or hides text.
pub fn needs_escape(c: char) -> bool {
    c.is_control() || (!c.is_ascii() && is_format(c))
}

fn is_format(c: char) -> bool {
    let c = u32::from(c);
    FORMAT
        .iter()
        .any(|&(first, last)| (first..=last).contains(&c))
}

/// Writes `text` to `out`, each dangerous character but those `kept` escaped.
fn write_escaped(out: &mut impl fmt::Write, text: &str, kept: fn(char) -> bool) -> fmt::Result {
    let mut plain = 0;
    for (i, c) in text.char_indices() {
        if needs_escape(c) && !kept(c) {
            out.write_str(&text[plain..i])?;
            // None of the dangerous characters is a quote or a backslash, so this is `\t`,
            // `\r`, `\n` or `\u{…}`.
            for e in c.escape_default() {
                out.write_char(e)?;
            }
            plain = i + c.len_utf8();
        }
    }
    out.write_str(&text[plain..])
}

fn escaped(text: &str, kept: fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| needs_escape(c) && !kept(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    write_escaped(&mut out, text, kept).expect("writing to a String");
    Cow::Owned(out)
}

fn nothing(_: char) -> bool {
    false
}

/// `text` as one line: every dangerous character escaped, line breaks and tabs included. For a
/// name, a message, a line a bot wrote; unchanged (borrowed) when it holds none.
pub fn line(text: &str) -> Cow<'_, str> {
    escaped(text, nothing)
}

/// A text of many lines (a bot's standard error) as lines the referee lays out: split at each
/// line break (`\n` or `\r\n`), each line's content escaped as by [`line`]. The caller marks
/// each as the bot's where it prints it (`| `).
pub fn lines(text: &str) -> impl Iterator<Item = Cow<'_, str>> {
    text.lines().map(line)
}

/// The referee's own output, which it lays out in lines and columns: its line breaks and tabs
/// kept, every other dangerous character escaped. The last guard before standard output or
/// error: a text that went through [`line`] is left as it is.
pub fn layout(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n' || c == '\t')
}

/// `text` between double quotes, escaped as by [`line`] and its own quotes as `\"`, as
/// `referee check` has always quoted a bot's line: `"{\"x\":1}"`.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", line(text).replace('"', "\\\""))
}

/// `text` escaped as by [`line`] when formatted (`format!("{}", shown(name))`), without
/// allocating.
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a>(&'a str);

/// `text`, to be formatted escaped as by [`line`].
pub fn shown(text: &str) -> Shown<'_> {
    Shown(text)
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, self.0, nothing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The text `escaped` stands for, reading each escape `line` writes as its character.
    fn decoded(escaped: &str) -> String {
        let mut out = String::new();
        let mut rest = escaped;
        while let Some(at) = rest.find('\\') {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            let (c, len) = match rest.as_bytes().get(1) {
                Some(b'n') => ('\n', 2),
                Some(b'r') => ('\r', 2),
                Some(b't') => ('\t', 2),
                Some(b'u') => {
                    let end = rest.find('}').expect("a closing brace");
                    let code = u32::from_str_radix(&rest[3..end], 16).expect("hex digits");
                    (char::from_u32(code).expect("a character"), end + 1)
                }
                _ => panic!("not an escape: {rest:?}"),
            };
            out.push(c);
            rest = &rest[len..];
        }
        out + rest
    }

    /// Any text, with the characters that matter here often: controls, bidi and invisible
    /// characters, backslashes and braces, and ordinary Unicode.
    fn texts() -> impl Strategy<Value = String> {
        let special = prop::sample::select(vec![
            '\u{1b}',
            '\n',
            '\r',
            '\t',
            '\0',
            '\u{7}',
            '\u{7f}',
            '\u{85}',
            '\u{9b}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{200b}',
            '\u{200d}',
            '\u{feff}',
            '\u{2028}',
            '\u{e0041}',
            '\\',
            '{',
            '}',
            'u',
            'é',
            '日',
            '🙂',
        ]);
        prop::collection::vec(prop_oneof![special, any::<char>()], 0..40)
            .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        #[test]
        fn no_dangerous_character_survives_and_plain_text_is_unchanged(text in texts()) {
            let shown = line(&text);
            prop_assert!(!shown.chars().any(needs_escape), "{shown:?}");
            prop_assert_eq!(shown.as_ref(), format!("{}", super::shown(&text)));
            let plain = !text.chars().any(needs_escape);
            prop_assert_eq!(matches!(shown, Cow::Borrowed(_)), plain);
            if plain {
                prop_assert_eq!(shown.as_ref(), text.as_str());
            }
            // Escaping twice is escaping once: a message escaped where it was made and again
            // where it is printed reads the same.
            let again = line(&shown);
            prop_assert_eq!(again.as_ref(), shown.as_ref());
        }

        #[test]
        fn every_escape_names_one_character(text in texts()) {
            // Without the bot's own backslashes, the escaped text gives back the text: two
            // texts never show the same.
            let text: String = text.chars().filter(|&c| c != '\\').collect();
            prop_assert_eq!(decoded(&line(&text)), text);
        }

        #[test]
        fn the_referee_decides_the_line_breaks(text in texts()) {
            let shown: Vec<Cow<'_, str>> = lines(&text).collect();
            prop_assert_eq!(shown.len(), text.lines().count());
            for l in &shown {
                prop_assert!(!l.chars().any(needs_escape), "{l:?}");
            }
            let laid_out = layout(&text);
            prop_assert!(!laid_out.chars().any(|c| needs_escape(c) && c != '\n' && c != '\t'));
            prop_assert_eq!(laid_out.matches('\n').count(), text.matches('\n').count());
        }
    }

    #[test]
    fn terminal_sequences_and_forged_lines_are_shown_inert() {
        assert_eq!(line("\u{1b}[2Jclear"), "\\u{1b}[2Jclear");
        assert_eq!(line("\u{1b}]0;title\u{7}"), "\\u{1b}]0;title\\u{7}");
        assert_eq!(
            line("bot\n! a: fault timeout\r"),
            "bot\\n! a: fault timeout\\r"
        );
        assert_eq!(line("a\tb\u{7f}\u{9b}"), "a\\tb\\u{7f}\\u{9b}");
        assert_eq!(line("abc\u{202e}fed\u{2069}"), "abc\\u{202e}fed\\u{2069}");
        assert_eq!(
            line("a\u{200b}b\u{feff}\u{2028}"),
            "a\\u{200b}b\\u{feff}\\u{2028}"
        );
        assert_eq!(quoted("x\ny"), "\"x\\ny\"");
        assert_eq!(quoted("{\"x\":1}"), r#""{\"x\":1}""#);
        assert_eq!(layout("a\tb\n\u{1b}c\r\n"), "a\tb\n\\u{1b}c\\r\n");
        let split: Vec<Cow<'_, str>> = lines("one\r\ntwo\u{1b}\rthree\n").collect();
        assert_eq!(split, ["one", "two\\u{1b}\\rthree"]);
    }

    #[test]
    fn ordinary_unicode_is_kept() {
        for text in [
            "héllo wörld",
            "日本語のボット",
            "ﻣﺮﺣﺒﺎ",
            "👩\u{200d}👩\u{200d}👧 family",
            "स्\u{200c}त",
            "❤\u{fe0f}",
            "C:\\bots\\new",
            "{\"type\":\"hello\"}",
        ] {
            assert!(
                matches!(line(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
    }
}
