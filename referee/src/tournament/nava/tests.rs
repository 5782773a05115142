//! Unit tests of the Nava format: seating and movement, who meets whom, the schedule, Victory
//! Points.

mod schedule;
mod seating;
mod vp;
