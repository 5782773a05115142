//! A bot's output read as lines: newline-delimited, with a hard length cap, blank lines skipped
//! in bulk and counted, and what the bot has already written taken without waiting.
//!
//! Blank lines cost the referee almost nothing, whatever their number: a run of them (and of
//! whitespace-only lines) is skipped in one pass over the buffer and only counted, never made
//! into lines one by one ([`buffer`]), and the reads take up to 64 KiB at a time ([`reader`]).
//! The wire arms an alarm while a request is pending ([`LineReader::watch_blank`]): past its
//! allowance, the reader says so once ([`Piece::Blanks`]), and the wire makes that the fault.
//!
//! [`LineReader::next_buffered`] takes what the bot has written so far — the bytes already
//! read and those waiting in the pipe — without waiting
//! ([`PipeRead::read_now`](crate::seat::pipe::PipeRead::read_now)): the wire calls it just
//! before it writes a request, so that it can tell the lines written before the request from
//! those written after it.
//!
//! Reads are paced ([`super::pace`]): after [`REQUEST_BURST`] small reads (given back at each
//! request, [`LineReader::refill_pace`]), the next read waits for the pace's gap, so that a
//! line written a byte at a time costs the referee a read per gap, not one per byte.

mod buffer;
mod reader;

pub(crate) use buffer::Piece;
pub(crate) use reader::LineReader;
#[cfg(test)]
pub(crate) use reader::REQUEST_BURST;
