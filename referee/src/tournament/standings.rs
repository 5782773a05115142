//! The leaderboard: computed once from the results (in match-id order, so it does not depend on
//! which match finished first), rendered by many formats.
//!
//! Ratings are Weng-Lin (OpenSkill) from skillratings' multi-team API, each bot its own team,
//! tied ranks as equal outcomes, ordered by the conservative μ − 3σ. The mean score's 95%
//! confidence interval is taken over duplicate groups: a bot's scores are averaged within each
//! group first (the same deal, the bots rotated), so the luck of the deal cancels out.

use super::format::own_standings::FormatStandings;
use super::format::spec::FormatSpec;
use super::match_result::MatchResult;
use super::ratings::{Ratings, in_id_order, seats_of};
use crate::runner::TimeHistogram;
use protocol::FaultKind;
use serde::Serialize;
use std::collections::BTreeMap;

/// What the leaderboard is about.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    /// The game.
    pub game: &'a str,
    /// What the game's score is called.
    pub score_name: &'a str,
    /// The bots, in field order.
    pub bots: &'a [String],
    /// Matches in the whole schedule.
    pub scheduled: u64,
    /// The tournament seed.
    pub seed: u64,
    /// Whether a higher score is better ([`Game::HIGHER_IS_BETTER`](engine::Game::HIGHER_IS_BETTER)).
    pub higher_is_better: bool,
    /// The format the tournament is played in.
    pub format: FormatSpec,
    /// The gauntlet's candidate (none for other formats).
    pub candidate: Option<&'a str>,
}

/// One bot's line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based place by conservative rating.
    pub rank: usize,
    /// The bot.
    pub bot: String,
    /// Weng-Lin μ.
    pub mu: f64,
    /// Weng-Lin σ.
    pub sigma: f64,
    /// μ − 3σ, the ordering key.
    pub conservative: f64,
    /// Matches played.
    pub matches: u64,
    /// Wins; a first place shared by k bots counts 1/k.
    pub wins: f64,
    /// Wins per match (none before the bot's first match).
    pub win_rate: Option<f64>,
    /// Mean finishing rank.
    pub mean_rank: Option<f64>,
    /// Mean score: the mean over duplicate groups of the bot's mean score in each group.
    pub mean_score: Option<f64>,
    /// Half-width of the 95% confidence interval of the mean score: Student's t over the group
    /// means (none with fewer than two groups).
    pub score_ci95: Option<f64>,
    /// Faults by kind.
    pub faults: BTreeMap<FaultKind, u64>,
    /// Matches the bot forfeited.
    pub forfeits: u64,
    /// Mean decision time in milliseconds (the bot's own answers).
    pub mean_ms: Option<f64>,
    /// 99th-percentile decision time in milliseconds (bucketed, within ~9%).
    pub p99_ms: Option<f64>,
}

impl Standing {
    /// All faults.
    pub fn fault_total(&self) -> u64 {
        self.faults.values().sum()
    }
}

/// How often one bot finished above another when they met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct HeadToHead {
    /// Matches where both played.
    pub met: u64,
    /// Of those, the share where the row bot finished above the column bot (ties count half).
    pub above: f64,
}

/// The whole leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leaderboard {
    /// The game.
    pub game: String,
    /// What the score is called.
    pub score_name: String,
    /// Whether a higher score is better (Vabanque's money) or a lower one (the points of La
    /// Bouillabaisse and Machiavelli).
    pub higher_is_better: bool,
    /// Matches counted.
    pub matches: u64,
    /// Matches in the schedule.
    pub scheduled: u64,
    /// Best first.
    pub standings: Vec<Standing>,
    /// `head_to_head[i][j]`: bot `standings[i]` against bot `standings[j]`.
    pub head_to_head: Vec<Vec<HeadToHead>>,
    /// The format it was scored by (not written: its own standings say what they are).
    #[serde(skip)]
    pub format: FormatSpec,
    /// The format's own standings, in the order of `standings` (which then ranks by them),
    /// written under the format's key (a Nava tournament's Victory Points are `nava`); `None`
    /// for a format ranked by ratings alone.
    #[serde(flatten)]
    pub format_standings: Option<FormatStandings>,
}

impl Leaderboard {
    /// The same leaderboard with its bots in `order` (indices into `standings`, best first)
    /// and ranked `ranks`.
    pub fn reordered(mut self, order: &[usize], ranks: &[usize]) -> Leaderboard {
        let mut standings: Vec<Option<Standing>> = std::mem::take(&mut self.standings)
            .into_iter()
            .map(Some)
            .collect();
        self.standings = order
            .iter()
            .zip(ranks)
            .map(|(&i, &rank)| {
                let mut s = standings[i].take().expect("each bot once");
                s.rank = rank;
                s
            })
            .collect();
        self.head_to_head = order
            .iter()
            .map(|&i| order.iter().map(|&j| self.head_to_head[i][j]).collect())
            .collect();
        self
    }
}

#[derive(Default)]
struct Tally {
    matches: u64,
    wins: f64,
    rank_sum: f64,
    groups: BTreeMap<u64, (f64, u64)>,
    faults: BTreeMap<FaultKind, u64>,
    forfeits: u64,
    total_ms: f64,
    answered: u64,
    times: TimeHistogram,
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom.
fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    // Beyond the table, 1.96 + 2.5/df is within 0.002 of the true quantile.
    TABLE
        .get(df.wrapping_sub(1))
        .copied()
        .unwrap_or(1.96 + 2.5 / df as f64)
}

/// The mean of `samples` and the half-width of its 95% confidence interval (none with fewer
/// than two samples).
fn mean_and_ci(samples: &[f64]) -> (Option<f64>, Option<f64>) {
    let n = samples.len();
    if n == 0 {
        return (None, None);
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (Some(mean), None);
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (Some(mean), Some(t95(n - 1) * (var / n as f64).sqrt()))
}

/// Computes the leaderboard of `field`'s bots from `results` (any order; they are applied by
/// id).
pub fn compute(field: &Field<'_>, results: &[&MatchResult]) -> Leaderboard {
    let bots = field.bots;
    let index: BTreeMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let mut tallies: Vec<Tally> = bots.iter().map(|_| Tally::default()).collect();
    let mut ratings = Ratings::new(bots.len());
    let mut meetings = Meetings::new(bots.len());
    for result in in_id_order(results) {
        let r = &result.record;
        let seats = seats_of(&index, result);
        ratings.apply(&seats, &r.ranks);
        for (seat, &b) in seats.iter().enumerate() {
            tallies[b].count(result, seat);
        }
        meetings.count(&seats, &r.ranks);
        for fault in &r.faults {
            *tallies[seats[fault.seat]]
                .faults
                .entry(fault.fault)
                .or_default() += 1;
        }
    }
    let mut standings: Vec<(usize, Standing)> = tallies
        .into_iter()
        .enumerate()
        .map(|(b, t)| (b, t.standing(&bots[b], ratings.of(b))))
        .collect();
    // Bots that have not played yet (a shard, a short run) come last, whatever their prior.
    standings.sort_by(|(a, x), (b, y)| {
        (y.matches > 0)
            .cmp(&(x.matches > 0))
            .then(y.conservative.total_cmp(&x.conservative))
            .then(a.cmp(b))
    });
    let order: Vec<usize> = standings.iter().map(|(b, _)| *b).collect();
    Leaderboard {
        game: field.game.to_string(),
        score_name: field.score_name.to_string(),
        higher_is_better: field.higher_is_better,
        matches: results.len() as u64,
        scheduled: field.scheduled,
        standings: standings
            .into_iter()
            .enumerate()
            .map(|(i, (_, mut s))| {
                s.rank = i + 1;
                s
            })
            .collect(),
        head_to_head: meetings.table(&order),
        format: field.format,
        format_standings: None,
    }
}

impl Tally {
    /// Counts the bot's match `result`, where it sat at `seat` (all but its rating and faults).
    fn count(&mut self, result: &MatchResult, seat: usize) {
        let r = &result.record;
        let firsts = r.ranks.iter().filter(|&&k| k == 1).count() as f64;
        self.matches += 1;
        if r.ranks[seat] == 1 {
            self.wins += 1.0 / firsts;
        }
        self.rank_sum += f64::from(r.ranks[seat]);
        let score = r.scores[seat] as f64;
        let g = self.groups.entry(result.group).or_default();
        g.0 += score;
        g.1 += 1;
        let stats = &r.stats[seat];
        self.total_ms += stats.total_ms;
        self.answered += stats.decisions - stats.substituted;
        self.forfeits += u64::from(stats.forfeited);
        self.times.merge(&stats.times);
    }

    /// The bot's line of the leaderboard with its rating `(μ, σ)`, ranked later.
    fn standing(self, bot: &str, (mu, sigma): (f64, f64)) -> Standing {
        let group_means: Vec<f64> = self
            .groups
            .values()
            .map(|(sum, n)| sum / *n as f64)
            .collect();
        let (mean_score, ci) = mean_and_ci(&group_means);
        let per_match = |total: f64| (self.matches > 0).then(|| total / self.matches as f64);
        Standing {
            rank: 0,
            bot: bot.to_string(),
            mu,
            sigma,
            conservative: mu - 3.0 * sigma,
            matches: self.matches,
            wins: self.wins,
            win_rate: per_match(self.wins),
            mean_rank: per_match(self.rank_sum),
            mean_score,
            score_ci95: ci,
            faults: self.faults,
            forfeits: self.forfeits,
            mean_ms: (self.answered > 0).then(|| self.total_ms / self.answered as f64),
            p99_ms: self.times.quantile_ms(0.99),
        }
    }
}

/// Head-to-head counts between every two bots, by bot index: `above` is a sum here (a win 1, a
/// tie 0.5) until [`Meetings::table`] makes it a share.
struct Meetings(Vec<Vec<HeadToHead>>);

impl Meetings {
    fn new(bots: usize) -> Self {
        Meetings(vec![vec![HeadToHead::default(); bots]; bots])
    }

    /// Counts one match: the bots at `seats` finished at `ranks`.
    fn count(&mut self, seats: &[usize], ranks: &[u32]) {
        for (seat, &b) in seats.iter().enumerate() {
            for (other_seat, &o) in seats.iter().enumerate() {
                if o != b {
                    let cell = &mut self.0[b][o];
                    cell.met += 1;
                    cell.above += match ranks[seat].cmp(&ranks[other_seat]) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    };
                }
            }
        }
    }

    /// The head-to-head table with rows and columns in `order` (bot indices), `above` as shares.
    fn table(&self, order: &[usize]) -> Vec<Vec<HeadToHead>> {
        order
            .iter()
            .map(|&a| {
                order
                    .iter()
                    .map(|&b| {
                        let cell = self.0[a][b];
                        HeadToHead {
                            met: cell.met,
                            above: if cell.met > 0 {
                                cell.above / cell.met as f64
                            } else {
                                0.0
                            },
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "standings_tests.rs"]
mod tests;
