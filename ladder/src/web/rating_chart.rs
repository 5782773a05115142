//! A bot's rating over time as an SVG: μ after each ranked match as a line, the interval
//! μ ± 3σ as a band around it, on a scale of the history's own lowest and highest.

use crate::service::RatingPointView;
use maud::{Markup, html};

/// Points drawn at most: a longer history is thinned evenly (its last point always kept).
const MAX_POINTS: usize = 400;

/// The chart's width in its own units.
const WIDTH: f64 = 600.0;
/// Its height.
const HEIGHT: f64 = 160.0;

/// The chart of `history` (oldest first); nothing when it is empty.
pub fn chart(history: &[RatingPointView]) -> Markup {
    if history.is_empty() {
        return html! {};
    }
    let step = history.len().div_ceil(MAX_POINTS);
    let mut points: Vec<&RatingPointView> = history.iter().step_by(step).collect();
    if let Some(last) = history.last()
        && !std::ptr::eq(*points.last().expect("at least one"), last)
    {
        points.push(last);
    }
    let low = points
        .iter()
        .map(|p| p.mu - 3.0 * p.sigma)
        .fold(f64::INFINITY, f64::min);
    let high = points
        .iter()
        .map(|p| p.mu + 3.0 * p.sigma)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (high - low).max(1e-9);
    let x = |i: usize| {
        if points.len() == 1 {
            WIDTH / 2.0
        } else {
            i as f64 * WIDTH / (points.len() - 1) as f64
        }
    };
    let y = |v: f64| HEIGHT - (v - low) / span * HEIGHT;
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.mu)))
        .collect();
    let band: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.mu + 3.0 * p.sigma)))
        .chain(
            points
                .iter()
                .enumerate()
                .rev()
                .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.mu - 3.0 * p.sigma))),
        )
        .collect();
    let last = history.last().expect("not empty");
    let label = format!(
        "μ after each of {} ranked matches, from {:.2} to {:.2}; the band is μ ± 3σ ({:.2} to {:.2})",
        history.len(),
        history[0].mu,
        last.mu,
        low,
        high
    );
    html! {
        figure.rating {
            svg viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) preserveAspectRatio="none" role="img" aria-label=(label) {
                polygon.band points=(band.join(" ")) {}
                polyline.mu points=(line.join(" ")) {}
            }
            figcaption {
                (format!("{:.2}", high)) " at the top, " (format!("{:.2}", low)) " at the bottom. "
                "The line is μ after each ranked match (oldest left), the band μ − 3σ to μ + 3σ: it narrows as the ladder grows sure of the bot."
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(i: i64) -> RatingPointView {
        RatingPointView {
            match_id: i,
            finished_ms: i,
            version: 1,
            mu: 25.0 + i as f64 * 0.01,
            sigma: 8.0 - i as f64 * 0.001,
        }
    }

    #[test]
    fn a_long_history_is_thinned_and_keeps_its_ends() {
        let history: Vec<RatingPointView> = (0..5000).map(point).collect();
        let svg = chart(&history).into_string();
        let line = svg
            .split("points=\"")
            .nth(2)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let n = line.split(' ').count();
        assert!(n <= MAX_POINTS + 1, "{n}");
        assert!(
            line.starts_with("0.0,") && line.contains(&format!("{WIDTH:.1},")),
            "{line}"
        );
        assert!(svg.contains("of 5000 ranked matches"));
        assert_eq!(chart(&[]).into_string(), "");
        assert!(chart(&history[..1]).into_string().contains("300.0,"));
    }
}
