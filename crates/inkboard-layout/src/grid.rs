//! The grid: nodes in the order given, in rows of about √n, each column as wide
//! as its widest node and each row as tall as its tallest, every node centred in
//! its cell. In the abstract frame a row runs along the layers, so going right the
//! "rows" are columns filled from the top. Edges play no part.

use crate::frame::{Boxes, Placed};

pub(crate) fn layout(boxes: &Boxes, edges: &[(usize, usize)], spacing: (f64, f64)) -> Placed {
    let n = boxes.len();
    let cols = ((n as f64).sqrt().ceil() as usize).max(1);
    let rows = n.div_ceil(cols);
    let mut width = vec![0.0f64; cols];
    let mut thick = vec![0.0f64; rows];
    for i in 0..n {
        width[i % cols] = width[i % cols].max(boxes.a[i]);
        thick[i / cols] = thick[i / cols].max(boxes.d[i]);
    }
    let starts = |sizes: &[f64]| {
        let mut at = 0.0;
        sizes
            .iter()
            .map(|s| {
                let here = at;
                at += s + spacing.0;
                here
            })
            .collect::<Vec<f64>>()
    };
    let (xs, ys) = (starts(&width), starts(&thick));
    let at = (0..n)
        .map(|i| {
            let (c, r) = (i % cols, i / cols);
            (
                xs[c] + (width[c] - boxes.a[i]) / 2.0,
                ys[r] + (thick[r] - boxes.d[i]) / 2.0,
            )
        })
        .collect();
    let mut placed = Placed {
        at,
        paths: Vec::new(),
    };
    placed.straight_paths(boxes, edges);
    placed
}
