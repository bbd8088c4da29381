//! The grid: nodes in the order given, in rows of about √n, each column as wide
//! as its widest node and each row as tall as its tallest, every node centred in
//! its cell. In the abstract frame a row runs along the layers, so going right the
//! "rows" are columns filled from the top. Edges play no part.

use crate::frame::{starts, thickest, Boxes, Placed};

pub(crate) fn layout(boxes: &Boxes, edges: &[(usize, usize)], spacing: (f64, f64)) -> Placed {
    let n = boxes.len();
    let cols = ((n as f64).sqrt().ceil() as usize).max(1);
    let (col, row): (Vec<usize>, Vec<usize>) = (0..n).map(|i| (i % cols, i / cols)).unzip();
    let (width, thick) = (thickest(&col, &boxes.a), thickest(&row, &boxes.d));
    let (xs, ys) = (starts(&width, spacing.0), starts(&thick, spacing.0));
    let at = (0..n)
        .map(|i| {
            let (c, r) = (col[i], row[i]);
            (
                xs[c] + (width[c] - boxes.a[i]) / 2.0,
                ys[r] + (thick[r] - boxes.d[i]) / 2.0,
            )
        })
        .collect();
    Placed::straight(at, boxes, edges)
}
