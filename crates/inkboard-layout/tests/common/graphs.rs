//! Random graphs with cross edges, for the cost tests (`src/cost_tests.rs`)
//! and the benchmark: plain edge lists and sizes, so that the crate's own unit
//! tests can include this file as well as the integration tests.
//!
//! - [`rows`]: rows of eight nodes, each fed from the row before, with cross
//!   edges a few rows on (and, with cycles, loops back to the row before): a
//!   flowchart's shape, its layers as many as its rows at any size;
//! - [`links`]: each node linked from a random earlier one, and cross edges
//!   between random nodes (with cycles, either way): "random links";
//! - [`chain`]: a chain through every node with cross edges between random
//!   nodes along it, the kind of graph of issue 29's finding: each cross edge
//!   passes many layers, so the layers hold many more places than nodes.

#![allow(dead_code)]

/// A simple deterministic generator, so the graphs need no crate.
pub fn generator(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    }
}

/// The sizes of `n` nodes, of the kind shapes have (width, height).
pub fn sizes(n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|i| (100.0 + (i % 5) as f64 * 20.0, 60.0))
        .collect()
}

/// `n` nodes in rows of eight, 1.4 edges a node; with `cycles` every third
/// cross edge runs back to the row before (a loop like "retry").
pub fn rows(n: usize, seed: u64, cycles: bool) -> Vec<(usize, usize)> {
    const WIDTH: usize = 8;
    let mut next = generator(seed);
    let mut edges = Vec::new();
    for v in WIDTH..n {
        let row = v / WIDTH;
        edges.push(((row - 1) * WIDTH + next(WIDTH as u64) as usize, v));
    }
    let mut k = 0;
    while edges.len() < n * 7 / 5 {
        k += 1;
        let back = cycles && k % 3 == 0;
        let a = next(n as u64) as usize;
        let rows_on = if back { 1 } else { 1 + next(3) as usize };
        let b = (a / WIDTH + rows_on) * WIDTH + next(WIDTH as u64) as usize;
        if b < n {
            edges.push(if back { (b, a) } else { (a, b) });
        }
    }
    edges
}

/// `n` nodes and `m` edges: each node linked from a random earlier one, the
/// rest between random nodes, forward or (with `cycles`) either way.
pub fn links(n: usize, m: usize, seed: u64, cycles: bool) -> Vec<(usize, usize)> {
    let mut next = generator(seed);
    let mut edges: Vec<(usize, usize)> = (1..n).map(|v| (next(v as u64) as usize, v)).collect();
    while edges.len() < m {
        let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
        if a != b {
            edges.push(if cycles { (a, b) } else { (a.min(b), a.max(b)) });
        }
    }
    edges
}

/// A chain of `n` nodes with cross edges between random nodes along it, `m`
/// edges in all.
pub fn chain(n: usize, m: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut next = generator(seed);
    let mut edges: Vec<(usize, usize)> = (1..n).map(|v| (v - 1, v)).collect();
    while edges.len() < m {
        let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
        if a != b {
            edges.push((a.min(b), a.max(b)));
        }
    }
    edges
}
