//! Untrusted text in JSON (`--format json`, a bot's action quoted in a fault message): serde_json
//! already escapes the C0 controls; this writer escapes the rest of what
//! [`needs_escape`] names — DEL, the C1 controls, the bidi and invisible format characters — as
//! `\u007f`, `\u202e` (a pair of surrogates above U+FFFF), so that the JSON reads back the same
//! and a terminal it is printed to obeys none of it.

use super::needs_escape;
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};
use std::io::{self, Write};

/// `value` as pretty JSON (two-space indents, as `serde_json::to_string_pretty`) with every
/// dangerous character of its strings escaped.
///
/// # Errors
/// When `value`'s `Serialize` fails (a map with keys that are not strings).
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    written(value, PrettyFormatter::new())
}

/// `value` as compact JSON (as `serde_json::to_string`) with every dangerous character of its
/// strings escaped: a bot's action quoted in a fault message.
///
/// # Errors
/// When `value`'s `Serialize` fails (a map with keys that are not strings).
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    written(value, CompactFormatter)
}

fn written<T: Serialize + ?Sized>(value: &T, layout: impl Formatter) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, Escaping { layout });
    value.serialize(&mut serializer)?;
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

/// serde_json's formatter `F` (pretty or compact), with the string fragments it writes searched
/// for dangerous characters.
struct Escaping<F> {
    layout: F,
}

impl<F: Formatter> Formatter for Escaping<F> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut plain = 0;
        for (i, c) in fragment.char_indices() {
            if needs_escape(c) {
                writer.write_all(&fragment.as_bytes()[plain..i])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                plain = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[plain..])
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.layout.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.layout.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.layout.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.layout.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.layout.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.layout.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.layout.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.layout.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.layout.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn plain_values_are_written_as_serde_json_writes_them() {
        let value = json!({"name": "vabanque_random", "scores": [1, -2, 3.5], "nested": {"a": [], "b": {}}, "ok": true, "none": null});
        assert_eq!(
            to_string_pretty(&value).unwrap(),
            serde_json::to_string_pretty(&value).unwrap()
        );
    }

    #[test]
    fn compact_values_are_written_as_serde_json_writes_them() {
        let value = json!({"table": 3, "cards": ["2C", "AH"], "x": {"y": null}});
        assert_eq!(to_string(&value).unwrap(), value.to_string());
        assert_eq!(to_string(&json!("\u{9b}")).unwrap(), "\"\\u009b\"");
    }

    #[test]
    fn dangerous_characters_are_json_escapes() {
        let text =
            to_string_pretty(&json!({"n\u{202e}": "\u{1b}[2J\u{7f}\u{9b}\u{2066}\u{e0041}é"}))
                .unwrap();
        assert_eq!(
            text,
            "{\n  \"n\\u202e\": \"\\u001b[2J\\u007f\\u009b\\u2066\\udb40\\udc41é\"\n}"
        );
    }

    proptest! {
        #[test]
        fn it_reads_back_the_same_and_holds_no_dangerous_character(text in "\\PC*|[\\x00-\\x7f\\u{80}-\\u{9f}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}\\u{e0000}-\\u{e007f}a]*") {
            let value = json!({ "text": text.clone(), text.clone(): [text.clone()] });
            let written = to_string_pretty(&value).unwrap();
            prop_assert!(!written.chars().any(|c| needs_escape(c) && c != '\n'), "{written:?}");
            let read: serde_json::Value = serde_json::from_str(&written).unwrap();
            prop_assert_eq!(read, value);
        }
    }
}
