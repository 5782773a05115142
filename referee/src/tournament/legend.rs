//! The leaderboard's legend: what each column means, in plain words, for someone who has never
//! met a Weng-Lin rating. Every text is here, once; [`board_table`](super::board_table) pairs
//! them with the columns, and any rendering (the HTML report, the terminal) shows them from
//! there.

use super::format::candidate::CandidateStanding;

/// What the legend needs to know of the tournament.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// What the game's score is called (`money`, `points`).
    pub score_name: &'a str,
    /// Whether a higher score is better.
    pub higher_is_better: bool,
}

impl Context<'_> {
    /// `more is better` or `lower is better`, for the score.
    pub fn direction(&self) -> &'static str {
        if self.higher_is_better {
            "more is better"
        } else {
            "lower is better"
        }
    }

    /// `most` or `fewest`: which end of the score ranks first.
    pub fn best_end(&self) -> &'static str {
        if self.higher_is_better {
            "most"
        } else {
            "fewest"
        }
    }
}

/// The rank column, for a leaderboard ordered by rating.
pub const RANK: &str = "The bot's place, best first: ordered by the rating μ − 3σ (equal ratings keep the order the bots were given in).";

/// The rank column of a gauntlet.
pub const GAUNTLET_RANK: &str = "The bot's place, best first: ordered by the rating μ − 3σ, the candidate's taken with the others' σ (see the note under the table); equal ratings keep the order the bots were given in.";

/// The bot column.
pub const BOT: &str = "The bot's name, as given to the tournament.";

/// The conservative rating.
pub const CONSERVATIVE: &str = "A cautious estimate of the bot's strength: its rating μ minus three times its uncertainty σ. The bot is about 99.9% likely to be at least this strong. A bot with few matches has a large σ, so it has to prove itself before it ranks high. The leaderboard is ordered by this number.";

/// The conservative rating of a gauntlet.
pub const GAUNTLET_CONSERVATIVE: &str = "A cautious estimate of the bot's strength: its rating μ minus three times its uncertainty σ, about 99.9% likely to be below its true strength. In a gauntlet the candidate plays every match and the others a share of them, so the candidate's σ is smaller: it is measured better, not stronger. So its number here (marked *) is μ − 3σ with the others' σ (their median), which compares it with them like with like; the leaderboard is ordered by this number. To compare strengths, read μ.";

/// μ ± σ.
pub const MU_SIGMA: &str = "The bot's rating μ and its uncertainty σ (Weng-Lin, also called OpenSkill). Every bot starts at 25 ± 8.33; finishing above other bots raises μ, more so above strong ones, and every match makes σ smaller.";

/// Matches played.
pub const MATCHES: &str = "How many matches the bot played.";

/// Matches played in a gauntlet.
pub const GAUNTLET_MATCHES: &str = "How many matches the bot played: the candidate plays every match, each other bot a share of them.";

/// The note under a gauntlet's table: why the candidate's σ is smaller, and what it is ranked
/// by instead of its own μ − 3σ.
pub fn candidate_note(c: &CandidateStanding) -> String {
    let others = if c.others_matches_min == c.others_matches_max {
        c.others_matches_min.to_string()
    } else {
        format!("{} to {}", c.others_matches_min, c.others_matches_max)
    };
    format!(
        "* {} is the candidate: it plays every match, so its σ is smaller ({:.2} against the others' median {:.2}) because it played {} matches to the others' {others}: it is measured better, not stronger. It is ranked by μ − 3σ with the others' median σ, {:.2} − 3 × {:.2} = {:.2}; with its own σ it would be {:.2}. To compare strengths, read μ.",
        c.bot,
        c.sigma,
        c.others_sigma,
        c.matches,
        c.mu,
        c.others_sigma,
        c.rank_rating,
        c.own_rating
    )
}

/// The note under a Nava table when the movement keeps pairs of bots at one table in every
/// round (`pairs`, their names; docs/tournament.md §11).
pub fn together_note(bots: usize, rounds: usize, pairs: &[[String; 2]]) -> String {
    const SHOWN: usize = 8;
    let mut named: Vec<String> = pairs
        .iter()
        .take(SHOWN)
        .map(|[a, b]| format!("{a}·{b}"))
        .collect();
    if pairs.len() > SHOWN {
        named.push("…".into());
    }
    let count = match pairs.len() {
        1 => "1 pair".to_string(),
        n => format!("{n} pairs"),
    };
    format!(
        "note: with {bots} bots the tables' movement keeps {count} of bots at one table in all {rounds} rounds ({}): each such pair meets in every match either plays, so their head-to-head says little (docs/tournament.md §11).",
        named.join(", ")
    )
}

/// Wins, fractional when first places are shared.
pub const WINS: &str = "First places. A first place shared by k bots counts 1/k for each of them, which is why wins can be fractional: 65.5 is 65 first places alone and one shared by two bots.";

/// The win rate.
pub const WIN_RATE: &str = "Wins divided by matches: 0.250 is one win in four matches.";

/// The mean rank.
pub const MEAN_RANK: &str = "The bot's average place in its matches, 1 being first (lower is better). Tied bots share the best place they cover: two bots tied first both count 1.";

/// The mean score and its interval.
pub fn mean_score(c: &Context<'_>) -> String {
    format!(
        "The bot's average {} per match ({}), ± the margin of its 95% confidence interval: the true average is 95% likely to lie within it. Scores are first averaged over each duplicate group (one deal played with the bots rotated through the seats), so that the luck of the deal cancels out; ± - means fewer than two groups, too few to tell.",
        c.score_name,
        c.direction()
    )
}

/// The faults column.
pub const FAULTS: &str = "How often the bot broke the rules of the protocol, by kind: timeouts (no answer in time), illegal (an illegal or wrongly shaped action), protocol (a line that is not a message, or a wrong id) and crashes (the bot exited, could not start, or hit a resource limit). For each, the referee played a default move for the bot. Forfeits are matches the bot was ranked last in because of a fault.";

/// The mean decision time.
pub const MEAN_MS: &str =
    "The bot's average time to answer, in milliseconds (moves the referee played for it left out).";

/// The 99th percentile of decision times.
pub const P99_MS: &str =
    "99% of the bot's answers took at most this long, in milliseconds (rounded up, by at most 9%).";

/// The rank column of a Nava tournament.
pub fn nava_rank(c: &Context<'_>) -> String {
    format!(
        "The bot's place, best first: by Victory Points, then difference VP, then {} ({} first); bots equal on all three share the place.",
        c.score_name,
        c.best_end()
    )
}

/// Victory Points.
pub const VP: &str = "Victory Points, what a Nava tournament ranks by: in each round, 8, 6, 4 or 2 for the bot's place at its table (tied bots share), plus its difference VP.";

/// Difference VP.
pub fn difference_vp(c: &Context<'_>) -> String {
    format!(
        "Difference VP: in each round, 0 to 12 points for how far the bot's {} were ahead of those of the bots placed below it at its table. The first tie-break.",
        c.score_name
    )
}

/// Match points of a Nava tournament.
pub fn match_points(c: &Context<'_>) -> String {
    format!(
        "The bot's {} over the hands of its finished rounds ({}). The second tie-break.",
        c.score_name,
        c.direction()
    )
}

/// A round of a Nava tournament (the same words for every round, so that a legend can say them
/// once for all of them).
pub const ROUND: &str = "The VP the bot scored in that round and where it sat (T2 E: table 2, seat East); - until every hand of that round is played at its table.";

/// The head-to-head matrix.
pub const HEAD_TO_HEAD: &str = "Each cell: in the matches where both bots played, how often the row's bot finished above the column's bot (a tie counts one half), and in how many matches they met.";

/// Ratings over the course of the tournament.
pub const RATING_HISTORY: &str = "Each bot's rating μ after each match it played, in the order the leaderboard applies them (by match id), with the band μ ± 3σ; the lower edge of the band is the rating μ − 3σ, and the last point is the leaderboard's.";

/// Victory Points over the rounds of a Nava tournament.
pub const VP_HISTORY: &str = "Each bot's Victory Points added up round by round (rounds not finished at its table count nothing yet).";
