//! Untrusted text in Markdown (`referee leaderboard --format markdown`): escaped as for a
//! terminal first (no line break can end a table row), then with a backslash before each
//! character that Markdown would read as markup — `|` (a table's cell border), `\`, backticks
//! (code), `*`, `_` and `~` (emphasis, strikethrough), `[` and `]` (links and images), `<` (HTML
//! tags, autolinks) and `&` (entities) — so that a cell stays one cell and shows what was
//! written. An `_` between two letters or digits is left alone (`vabanque_random`): Markdown
//! starts no emphasis there.

use super::line;

/// Whether `c` is escaped with a backslash in Markdown (an `_` only outside a word).
fn is_markup(c: char) -> bool {
    matches!(c, '\\' | '|' | '`' | '*' | '~' | '[' | ']' | '<' | '&')
}

/// `text` as Markdown text, a table's cell or a line of prose: shown as it was written,
/// with no markup of its own.
pub fn text(text: &str) -> String {
    let shown = line(text);
    let chars: Vec<char> = shown.chars().collect();
    let mut out = String::with_capacity(shown.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let in_word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let escaped =
            is_markup(c) || (c == '_' && !(in_word(i.checked_sub(1)) && in_word(Some(i + 1))));
        if escaped {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::untrusted::needs_escape;
    use proptest::prelude::*;

    #[test]
    fn markup_shows_as_text() {
        assert_eq!(text("a|b"), "a\\|b");
        assert_eq!(text("<script>x</script>"), "\\<script>x\\</script>");
        assert_eq!(
            text("`code` *em* _em_ ~~s~~"),
            "\\`code\\` \\*em\\* \\_em\\_ \\~\\~s\\~\\~"
        );
        assert_eq!(text("[link](http://x)"), "\\[link\\](http://x)");
        assert_eq!(text("&lt; C:\\bot"), "\\&lt; C:\\\\bot");
        assert_eq!(text("vabanque_random"), "vabanque_random");
        assert_eq!(
            text("bot\n| forged | row |"),
            "bot\\\\n\\| forged \\| row \\|"
        );
        assert_eq!(text("\u{1b}[2J"), "\\\\u{1b}\\[2J");
    }

    /// The cells of a Markdown table row `| a | b |`, split at each `|` that is not escaped.
    fn cells(row: &str) -> Vec<String> {
        let inner = row
            .strip_prefix('|')
            .and_then(|r| r.strip_suffix('|'))
            .expect("a row between borders");
        let mut cells = vec![String::new()];
        let mut escaped = false;
        for c in inner.chars() {
            match c {
                '|' if !escaped => cells.push(String::new()),
                _ => cells.last_mut().expect("a cell").push(c),
            }
            escaped = c == '\\' && !escaped;
        }
        cells
    }

    proptest! {
        #[test]
        fn a_cell_stays_one_cell_of_one_line(cells_in in prop::collection::vec("\\PC*|[|\\\\`*_<>\\[\\]\n\r\\u{1b}a ]*", 1..5)) {
            let shown: Vec<String> = cells_in.iter().map(|c| text(c)).collect();
            let row = format!("|{}|", shown.join("|"));
            prop_assert!(!row.chars().any(needs_escape), "{row:?}");
            prop_assert_eq!(cells(&row), shown);
        }
    }
}
