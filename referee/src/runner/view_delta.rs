//! A seat's view sent as changes, for a bot that asked for it ([`protocol::ViewMode::Delta`]).
//!
//! The view's top-level members are serialized one by one, and each is compared, byte for byte,
//! with the same member of the view in the seat's previous request of the match. The request then
//! carries only those that changed, as a JSON Merge Patch (RFC 7386): a member that changed is
//! sent whole, a member that is gone is sent as `null`. The first request of a match carries the
//! whole view. The referee's cost is the same serialization as a whole view plus a comparison;
//! the line (and what the bot reads) is smaller.

use serde::Serialize;
use serde::ser::{self, Impossible};
use std::ops::Range;

/// The members of the views a seat was last sent, kept for the next comparison.
#[derive(Default)]
pub(crate) struct ViewDelta {
    /// The previous view's members (empty before the match's first request).
    sent: Members,
    /// The view being serialized (kept to reuse its buffers).
    next: Members,
    /// Whether a view was sent in this match.
    started: bool,
}

/// A view's top-level members: their JSON one after another, and where each lies.
#[derive(Default)]
struct Members {
    json: Vec<u8>,
    at: Vec<(&'static str, Range<usize>)>,
}

impl Members {
    /// The JSON of member `key`, looked for first at `hint` (a struct's members come in the
    /// same order every time).
    fn get(&self, key: &str, hint: usize) -> Option<&[u8]> {
        // The same `&'static str` each time, for a struct: the same address is the same key.
        let at = match self.at.get(hint) {
            Some((k, _)) if std::ptr::eq(k.as_ptr(), key.as_ptr()) || *k == key => hint,
            _ => self.at.iter().position(|(k, _)| *k == key)?,
        };
        Some(&self.json[self.at[at].1.clone()])
    }
}

/// What to write as a request's `view`.
pub(crate) struct DeltaView {
    /// The JSON: the whole view, or the merge patch.
    pub json: Vec<u8>,
    /// Whether `json` is a patch (the request says `"delta": true`).
    pub patch: bool,
}

impl ViewDelta {
    /// The `view` of the next request: the whole view the first time in the match, then what
    /// changed. `None` when the view is not a JSON object of named members (a struct): such a
    /// view is always sent whole.
    pub(crate) fn next<V: Serialize>(&mut self, view: &V) -> Option<DeltaView> {
        self.next.json.clear();
        self.next.at.clear();
        view.serialize(Splitter {
            members: &mut self.next,
        })
        .ok()?;
        let patch = self.started;
        let mut out = Vec::with_capacity(if patch {
            256
        } else {
            self.next.json.len() + 256
        });
        out.push(b'{');
        // Whether every member of the last view is in this one at its place: then none is gone.
        let mut aligned = self.next.at.len() == self.sent.at.len();
        for (i, (key, range)) in self.next.at.iter().enumerate() {
            let value = &self.next.json[range.clone()];
            if patch {
                aligned &= self.sent.at.get(i).is_some_and(|(k, _)| k == key);
                if self.sent.get(key, i) == Some(value) {
                    continue;
                }
            }
            member(&mut out, key, value);
        }
        if patch && !aligned {
            for (i, (key, _)) in self.sent.at.iter().enumerate() {
                if self.next.get(key, i).is_none() {
                    member(&mut out, key, b"null");
                }
            }
        }
        if out.len() > 1 {
            out.pop(); // the last comma
        }
        out.push(b'}');
        std::mem::swap(&mut self.sent, &mut self.next);
        self.started = true;
        Some(DeltaView { json: out, patch })
    }
}

/// Appends the request line of a bot that takes its view as changes: [`protocol::Request`] as
/// serde writes it (the same members in the same order; a test compares the two), with `view`
/// the JSON of `changes`, written as it is rather than parsed and written again.
pub(crate) fn append_request<A: Serialize>(
    line: &mut Vec<u8>,
    id: u64,
    phase: &str,
    changes: &DeltaView,
    legal: Option<&[A]>,
    time_left_ms: u64,
) {
    line.extend_from_slice(br#"{"type":"request","id":"#);
    json(line, &id);
    line.extend_from_slice(br#","phase":"#);
    json(line, phase);
    line.extend_from_slice(br#","view":"#);
    line.extend_from_slice(&changes.json);
    if changes.patch {
        line.extend_from_slice(br#","delta":true"#);
    }
    if let Some(legal) = legal {
        line.extend_from_slice(br#","legal":"#);
        json(line, legal);
    }
    line.extend_from_slice(br#","time_left_ms":"#);
    json(line, &time_left_ms);
    line.extend_from_slice(b"}\n");
}

/// Appends `value` as JSON.
fn json<T: Serialize + ?Sized>(line: &mut Vec<u8>, value: &T) {
    serde_json::to_writer(&mut *line, value).expect("protocol values serialize");
}

impl ViewDelta {
    /// Forgets what was sent: the next view is sent whole.
    pub(crate) fn forget(&mut self) {
        self.started = false;
    }
}

/// Appends `"key":value,` to `out`.
fn member(out: &mut Vec<u8>, key: &str, value: &[u8]) {
    serde_json::to_writer(&mut *out, key).expect("a string serializes");
    out.push(b':');
    out.extend_from_slice(value);
    out.push(b',');
}

/// A serializer that takes a struct's members apart into [`Members`]; anything else is an error.
struct Splitter<'a> {
    members: &'a mut Members,
}

/// What [`Splitter`] refuses: a view that is not a struct.
fn not_a_struct() -> serde_json::Error {
    ser::Error::custom("a view sent as changes must be a struct")
}

macro_rules! refuse {
    ($($name:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $name(self, $(_: $arg),*) -> Result<Self::Ok, Self::Error> {
            Err(not_a_struct())
        })*
    };
}

impl<'a> ser::Serializer for Splitter<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<(), serde_json::Error>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Impossible<(), serde_json::Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Self::Error> {
        Err(not_a_struct())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Self::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Self::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Self::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Self::Error> {
        Err(not_a_struct())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Self::Error> {
        Err(not_a_struct())
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Self::Error> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Self::Error> {
        Err(not_a_struct())
    }
}

impl<'a> ser::SerializeStruct for Splitter<'a> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        let start = self.members.json.len();
        serde_json::to_writer(&mut self.members.json, value)?;
        let end = self.members.json.len();
        self.members.at.push((key, start..end));
        Ok(())
    }

    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
