use inkboard_layout::*;
use std::time::Instant;

fn graph(n: usize, m: usize, seed: u64, cycles: bool, chain: bool) -> Graph {
    let mut s = seed;
    let mut next = |k: u64| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) % k
    };
    let nodes = (0..n)
        .map(|i| Size::new(100.0 + (i % 5) as f64 * 20.0, 60.0))
        .collect();
    let mut edges = Vec::new();
    for i in 1..n {
        edges.push((
            if chain {
                i - 1
            } else {
                next(i as u64) as usize
            },
            i,
        ));
    }
    while edges.len() < m {
        let a = next(n as u64) as usize;
        let b = next(n as u64) as usize;
        if a == b {
            continue;
        }
        if cycles {
            edges.push((a, b));
        } else {
            edges.push((a.min(b), a.max(b)));
        }
    }
    Graph { nodes, edges }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let m: usize = args[2].parse().unwrap();
    let cycles = args.get(3).is_some_and(|a| a == "cycles");
    let chain = args.get(4).is_some_and(|a| a == "chain");
    let g = graph(n, m, 7, cycles, chain);
    let t = Instant::now();
    let out = layout(&g, &Options::default()).unwrap();
    let cr = if n < 600 {
        metrics::crossings(&out.edges, &g.edges)
    } else {
        0
    };
    let b = metrics::bends(&out.edges, 1.0);
    println!(
        "{n}/{m} cycles={cycles}: {:.3} s, {}x{} crossings {cr} bends {b} area {:.1}M",
        t.elapsed().as_secs_f64(),
        out.width,
        out.height,
        metrics::area(&out.nodes, &g.nodes) / 1e6
    );
}
