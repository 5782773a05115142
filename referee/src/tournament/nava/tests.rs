//! Unit tests of the Nava format: seating and movement, who meets whom, Victory Points.

mod seating;
mod vp;
