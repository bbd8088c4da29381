//! [`Buckets`]: a uniform grid of cells over an area, each listing the boxes that
//! meet it, for finding what lies near a box without looking at everything. Routing
//! uses it for obstacles and routes near a search window, labels for the shapes,
//! lines and labels near a candidate place.

use inkboard_core::Rect;

/// Boxes bucketed by a uniform grid of cells over an area.
pub(crate) struct Buckets {
    x0: f64,
    y0: f64,
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
}

impl Buckets {
    /// Buckets over `area`, sized for about `count` boxes.
    pub fn new(area: Rect, count: usize) -> Self {
        let cells_wanted = (count * 2).clamp(16, 16_384) as f64;
        let cell = ((area.w.max(1.0) * area.h.max(1.0)) / cells_wanted)
            .sqrt()
            .max(48.0);
        let cols = ((area.w / cell).ceil() as usize).max(1);
        let rows = ((area.h / cell).ceil() as usize).max(1);
        Buckets {
            x0: area.x,
            y0: area.y,
            cell,
            cols,
            rows,
            cells: vec![Vec::new(); cols * rows],
        }
    }

    /// The cell ranges a box covers, clamped to the grid.
    fn span(&self, r: &Rect) -> (usize, usize, usize, usize) {
        let at =
            |v: f64, o: f64, n: usize| (((v - o) / self.cell).floor().max(0.0) as usize).min(n - 1);
        (
            at(r.x, self.x0, self.cols),
            at(r.y, self.y0, self.rows),
            at(r.right(), self.x0, self.cols),
            at(r.bottom(), self.y0, self.rows),
        )
    }

    pub fn insert(&mut self, r: Rect, id: u32) {
        let (c0, r0, c1, r1) = self.span(&r);
        for row in r0..=r1 {
            for col in c0..=c1 {
                self.cells[row * self.cols + col].push(id);
            }
        }
    }

    /// The ids of boxes that may meet `r`, each once, ascending.
    pub fn query(&self, r: &Rect, out: &mut Vec<u32>) {
        out.clear();
        let (c0, r0, c1, r1) = self.span(r);
        for row in r0..=r1 {
            for col in c0..=c1 {
                out.extend_from_slice(&self.cells[row * self.cols + col]);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}
