//! Choosing the tables themselves: the anchor, the size, the opponents (see the
//! [module documentation](super)).

use super::{Candidate, EXPLORE, MIN_WINDOW, Request, WINDOW, sizes};
use engine::seed;
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use referee::tournament::format::Combinations;
use referee::tournament::ratings::match_quality;
use std::collections::{BTreeSet, HashSet};

/// An opponent whose match quality with the anchor is at least this share of the best one's is
/// among the best-matched.
const NEAR_BEST: f64 = 0.8;

/// The most opponent sets tried for one anchor, size and order before giving up on them.
const MAX_TRIED: usize = 20_000;

/// The tables of `request`, each its versions (the anchor first).
pub(super) fn tables(request: &Request<'_>) -> Vec<Vec<i64>> {
    let field = request.candidates;
    let allowed = sizes(&request.players, &request.counts);
    let window_start = request
        .now
        .saturating_sub((request.settings.repeat_s as i64).saturating_mul(1000));
    let mut recent: HashSet<Vec<i64>> = request
        .recent
        .iter()
        .filter(|t| t.at > window_start)
        .map(|t| sorted(&t.versions))
        .collect();
    let mut rng = seed::rng(request.seed, "matchmaker", request.next_group);
    // Times each candidate was seated by this call.
    let mut seated = vec![0u32; field.len()];
    let mut tables = Vec::new();
    while tables.len() < request.tables {
        let mut order: Vec<usize> = (0..field.len()).collect();
        order.sort_by_key(|&i| {
            let c = &field[i];
            (
                seated[i],
                !c.is_new,
                c.last_played.is_some(),
                c.last_played,
                c.version,
            )
        });
        let explore = rng.random_bool(EXPLORE);
        let owners = field
            .iter()
            .map(|c| &c.owner)
            .collect::<BTreeSet<_>>()
            .len();
        let fillable: Vec<usize> = allowed.clone().filter(|&p| p <= owners).collect();
        let Some(&first) = fillable.get(rng.random_range(0..fillable.len().max(1))) else {
            break;
        };
        // The drawn size first, then the others from the largest down.
        let mut size_order = vec![first];
        size_order.extend(fillable.iter().rev().filter(|&&p| p != first));
        let table = order.iter().find_map(|&anchor| {
            size_order
                .iter()
                .find_map(|&p| seat(field, anchor, p, explore, &recent, &seated, &mut rng))
        });
        // A field too small to avoid the repeat window: the window yields (the owner rule
        // does not).
        let no_window = HashSet::new();
        let table = table.or_else(|| {
            order.iter().find_map(|&anchor| {
                size_order
                    .iter()
                    .find_map(|&p| seat(field, anchor, p, explore, &no_window, &seated, &mut rng))
            })
        });
        let Some(table) = table else { break };
        for &i in &table {
            seated[i] += 1;
        }
        let versions: Vec<i64> = table.iter().map(|&i| field[i].version).collect();
        recent.insert(sorted(&versions));
        tables.push(versions);
    }
    tables
}

/// A table of `p` for `anchor` (indices into `field`, the anchor first) that breaks no rule,
/// if there is one; `seated` counts the tables each candidate has in this call.
fn seat(
    field: &[Candidate],
    anchor: usize,
    p: usize,
    explore: bool,
    recent: &HashSet<Vec<i64>>,
    seated: &[u32],
    rng: &mut ChaCha8Rng,
) -> Option<Vec<usize>> {
    let a = &field[anchor];
    let mut others: Vec<usize> = (0..field.len())
        .filter(|&i| i != anchor && field[i].owner != a.owner)
        .collect();
    if explore {
        others.shuffle(rng);
        return first_allowed(field, anchor, &others, p, recent);
    }
    let quality = |i: usize| match_quality(&[(a.mu, a.sigma), (field[i].mu, field[i].sigma)]);
    others.sort_by(|&x, &y| quality(y).total_cmp(&quality(x)).then(x.cmp(&y)));
    // The best-matched: at least the window's count, and every version whose quality is
    // near the best (a field of equals is one window, not its first few by id).
    let best = others.first().map_or(0.0, |&i| quality(i));
    let near_best = others
        .iter()
        .take_while(|&&i| quality(i) >= NEAR_BEST * best)
        .count();
    let window = (WINDOW * (p - 1))
        .max(MIN_WINDOW)
        .max(near_best)
        .min(others.len());
    // Among them, the least recently seated first (the sort keeps the quality order among
    // equals): by quality alone the same few — those of the smallest σ, who played the most —
    // would be seated again and again.
    let mut near = others[..window].to_vec();
    near.sort_by_key(|&i| {
        (
            seated[i],
            field[i].last_played.is_some(),
            field[i].last_played,
        )
    });
    first_allowed(field, anchor, &near, p, recent)
        .or_else(|| first_allowed(field, anchor, &others, p, recent))
}

/// The first set of `p − 1` of `others` (in their order's lexicographic order) that seats no
/// two versions of one owner and is no recent table, with `anchor`.
fn first_allowed(
    field: &[Candidate],
    anchor: usize,
    others: &[usize],
    p: usize,
    recent: &HashSet<Vec<i64>>,
) -> Option<Vec<usize>> {
    Combinations::new(others.len(), p - 1)
        .take(MAX_TRIED)
        .map(|pick| {
            std::iter::once(anchor)
                .chain(pick.iter().map(|&k| others[k]))
                .collect::<Vec<usize>>()
        })
        .find(|table| {
            let owners: BTreeSet<&str> = table.iter().map(|&i| field[i].owner.as_str()).collect();
            let versions: Vec<i64> = table.iter().map(|&i| field[i].version).collect();
            owners.len() == table.len() && !recent.contains(&sorted(&versions))
        })
}

fn sorted(versions: &[i64]) -> Vec<i64> {
    let mut v = versions.to_vec();
    v.sort_unstable();
    v
}
