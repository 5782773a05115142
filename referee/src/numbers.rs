//! Numbers as people read them, for every renderer (the leaderboard, the report, the narrative).

/// An integer with thousands separators (90000 → 90,000).
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(90_000), "90,000");
        assert_eq!(grouped(-1_234_567), "-1,234,567");
    }
}
