//! Untrusted text in CSV (`referee leaderboard --format csv`): a text cell is escaped as for a
//! terminal (no line break or control character in it, so a CSV printed to a terminal is safe
//! too), and one that a spreadsheet would take for a formula — starting with `=`, `+`, `-`, `@`,
//! a tab or a carriage return — gets a leading `'`, which spreadsheets read as "this is text"
//! (OWASP's advice against CSV injection). Numbers are not text cells: a negative score stays a
//! number. The `csv` crate writes the rows, quoting a cell where RFC 4180 needs it (a comma, a
//! quote, a line break).

use super::line;

/// The characters that make a spreadsheet read a cell as a formula when it starts with one.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `cell`, a text cell (a name, a command, a file name), ready for [`table`]: escaped as by
/// [`line`], with a `'` before it when it would start a formula.
pub fn text(cell: &str) -> String {
    let shown = line(cell);
    if cell.starts_with(FORMULA_STARTS) {
        format!("'{shown}")
    } else {
        shown.into_owned()
    }
}

/// `rows` as CSV: each row a line ending in `\n`, each cell quoted where it holds a comma, a
/// quote or a line break. Text cells must have been through [`text`]; numbers are written as
/// they are.
pub fn table<R, C>(rows: impl IntoIterator<Item = R>) -> String
where
    R: IntoIterator<Item = C>,
    C: AsRef<[u8]>,
{
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    for row in rows {
        writer
            .write_record(row)
            .expect("writing CSV to memory cannot fail");
    }
    let bytes = writer
        .into_inner()
        .expect("writing CSV to memory cannot fail");
    String::from_utf8(bytes).expect("UTF-8 cells make UTF-8 CSV")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::untrusted::needs_escape;
    use proptest::prelude::*;

    #[test]
    fn formulas_become_text_and_numbers_stay_numbers() {
        assert_eq!(
            text("=HYPERLINK(\"http://x\")"),
            "'=HYPERLINK(\"http://x\")"
        );
        assert_eq!(text("+1"), "'+1");
        assert_eq!(text("-cmd|' /C calc'!A0"), "'-cmd|' /C calc'!A0");
        assert_eq!(text("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(text("\tx"), "'\\tx");
        assert_eq!(text("a\nb"), "a\\nb");
        assert_eq!(text("vabanque_random"), "vabanque_random");
        let csv = table([
            vec![text("bot"), "score".into()],
            vec![text("=1+1, \"quoted\""), "-12.5".into()],
        ]);
        assert_eq!(csv, "bot,score\n\"'=1+1, \"\"quoted\"\"\",-12.5\n");
    }

    proptest! {
        #[test]
        fn a_text_cell_reads_back_as_one_cell_that_is_no_formula(cells in prop::collection::vec("\\PC*|[,\"\n\r\t=+@\\-a\\u{1b}\\u{202e}]*", 1..5)) {
            let row: Vec<String> = cells.iter().map(|c| text(c)).collect();
            let written = table([row.clone(), row.clone()]);
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(written.as_bytes());
            let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
            prop_assert_eq!(records.len(), 2);
            for record in &records {
                prop_assert_eq!(record.iter().collect::<Vec<_>>(), row.iter().map(String::as_str).collect::<Vec<_>>());
                for cell in record {
                    prop_assert!(!cell.starts_with(['=', '+', '-', '@']) , "{cell:?}");
                    prop_assert!(!cell.chars().any(needs_escape), "{cell:?}");
                }
            }
        }
    }
}
