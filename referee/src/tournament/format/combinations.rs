//! The `k`-subsets of `0..n` in lexicographic order, made one at a time (a cycle can be far
//! longer than the tournament).

/// The `k`-subsets of `0..n`, in lexicographic order.
pub struct Combinations {
    n: usize,
    next: Option<Vec<usize>>,
}

impl Combinations {
    /// Every `k`-subset of `0..n`; none when `k` is 0 or above `n`.
    pub fn new(n: usize, k: usize) -> Self {
        Combinations {
            n,
            next: (k > 0 && k <= n).then(|| (0..k).collect()),
        }
    }
}

impl Iterator for Combinations {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.next.take()?;
        let k = current.len();
        if let Some(i) = (0..k).rev().find(|&i| current[i] < self.n - k + i) {
            let mut following = current.clone();
            following[i] += 1;
            for j in i + 1..k {
                following[j] = following[j - 1] + 1;
            }
            self.next = Some(following);
        }
        Some(current)
    }
}
