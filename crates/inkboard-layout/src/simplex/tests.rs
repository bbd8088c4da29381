//! The solver's tests: optimal on small problems (against trying every
//! assignment), cut values kept equal to fresh ones after every pivot, a start
//! kept, and a spent budget or a stop leaving a feasible answer.

use super::*;

fn cost(edges: &[Edge], r: &[i64]) -> i64 {
    edges
        .iter()
        .map(|e| e.weight * (r[e.head] - r[e.tail]))
        .sum()
}

/// The least cost by trying every assignment in a small range.
fn brute(n: usize, edges: &[Edge], range: i64) -> i64 {
    let mut best = i64::MAX;
    let mut r = vec![0i64; n];
    loop {
        if edges.iter().all(|e| r[e.head] - r[e.tail] >= e.minlen) {
            best = best.min(cost(edges, &r));
        }
        let mut i = 0;
        loop {
            if i == n {
                return best;
            }
            r[i] += 1;
            if r[i] <= range {
                break;
            }
            r[i] = 0;
            i += 1;
        }
    }
}

/// A simple deterministic generator, so the tests need no crate.
fn generator(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    }
}

fn never() -> bool {
    false
}

#[test]
fn optimal_on_small_dags() {
    let mut next = generator(12345);
    for _ in 0..40 {
        let n = 2 + next(4) as usize;
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if next(3) == 0 {
                    edges.push(Edge {
                        tail: a,
                        head: b,
                        minlen: next(3) as i64,
                        weight: next(4) as i64,
                    });
                }
            }
        }
        let r = solve(n, &edges, None, &Watch::new(&never)).rank;
        assert!(edges.iter().all(|e| r[e.head] - r[e.tail] >= e.minlen));
        let want = brute(n, &edges, 2 * n as i64);
        assert_eq!(cost(&edges, &r), want, "{edges:?} → {r:?}");
    }
}

/// A random constraint graph on `n` nodes: a chain of layers' worth of
/// edges forward and cross edges between far nodes, several components.
fn random_problem(n: usize, m: usize, seed: u64) -> Vec<Edge> {
    let mut next = generator(seed);
    let mut edges = Vec::new();
    while edges.len() < m {
        let a = next(n as u64) as usize;
        let b = next(n as u64) as usize;
        if a == b {
            continue;
        }
        edges.push(Edge {
            tail: a.min(b),
            head: a.max(b),
            minlen: next(3) as i64,
            weight: 1 + next(8) as i64,
        });
    }
    edges
}

#[test]
fn kept_cut_values_match_fresh_ones_after_every_pivot() {
    for seed in 0..30 {
        let n = 5 + (seed as usize * 7) % 60;
        let edges = random_problem(n, n * 3 / 2, seed);
        let mut s = Simplex::new(n, &edges);
        assert!(!s.run(None, &Watch::new(&never), u64::MAX, true));
    }
}

#[test]
fn a_spent_budget_keeps_a_valid_layering() {
    // Layers for a random graph of 300 nodes and 420 edges (minlen 1):
    // with no budget for pivots the values are those of the first
    // feasible tree, with a little some pivots, with enough the optimum;
    // every one is a valid layering and none costs less than the optimum.
    let mut next = generator(3);
    let n = 300;
    let mut edges: Vec<Edge> = (1..n)
        .map(|v| Edge {
            tail: next(v as u64) as usize,
            head: v,
            minlen: 1,
            weight: 1,
        })
        .collect();
    while edges.len() < 420 {
        let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
        if a != b {
            edges.push(Edge {
                tail: a.min(b),
                head: a.max(b),
                minlen: 1,
                weight: 1,
            });
        }
    }
    let best = solve(n, &edges, None, &Watch::new(&never));
    assert!(!best.cut_short);
    let optimum = cost(&edges, &best.rank);
    let mut costs = Vec::new();
    for budget in [0, 1_000, 3_000] {
        let watch = Watch::new(&never);
        let s = solve_within(n, &edges, None, &watch, budget);
        assert!(s.cut_short, "budget {budget} runs out");
        assert_eq!(watch.cut_short(), 1);
        for e in &edges {
            assert!(s.rank[e.head] - s.rank[e.tail] >= 1, "{e:?} in layers");
        }
        costs.push(cost(&edges, &s.rank));
    }
    assert!(
        costs[0] > optimum,
        "{costs:?} vs {optimum}: the budget mattered"
    );
    assert!(costs.windows(2).all(|c| c[0] >= c[1]), "{costs:?}");
    assert!(costs.iter().all(|&c| c >= optimum));
}

#[test]
fn a_stop_keeps_a_feasible_answer() {
    let edges = random_problem(60, 120, 11);
    let stop = || true;
    let s = solve(60, &edges, None, &Watch::new(&stop));
    assert!(s.cut_short);
    assert!(edges
        .iter()
        .all(|e| s.rank[e.head] - s.rank[e.tail] >= e.minlen));
}

#[test]
fn a_start_given_is_kept_feasible_and_improved() {
    let edges = random_problem(40, 80, 7);
    let plain = solve(40, &edges, None, &Watch::new(&never)).rank;
    // A feasible start far from the optimum: longest paths times ten.
    let mut start = vec![0i64; 40];
    for _ in 0..40 {
        for e in &edges {
            start[e.head] = start[e.head].max(start[e.tail] + 10 * e.minlen);
        }
    }
    let from = solve(40, &edges, Some(start), &Watch::new(&never)).rank;
    assert!(edges
        .iter()
        .all(|e| from[e.head] - from[e.tail] >= e.minlen));
    assert_eq!(cost(&edges, &from), cost(&edges, &plain));
}
