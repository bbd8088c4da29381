//! Choosing one candidate per label for the whole page, so that no two chosen
//! boxes overlap: greedy over the conflict graph (two candidates of different
//! labels conflict when their boxes come closer than [`APART`]), the label with
//! the fewest free candidates first, each taking its cheapest free one; then
//! local repair for a label left with none: one of its candidates blocked by a
//! single placed label is freed by moving that label to another free candidate of
//! its own. A label with no free candidate after that takes the least bad one it
//! has: covering the fewest other labels, then the least of the page, then the
//! cheapest.
//!
//! Only candidates that cover nothing on the page ([`Candidate::bad`] zero) are
//! free to start with, so a label is only ever placed over something when it has
//! no clear place at all.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use inkboard_core::Rect;

use super::candidates::Candidate;
use crate::deadline::{Deadline, Stopped};
use crate::route::buckets::Buckets;

/// Room kept between two labels, in px.
const APART: f64 = 2.0;
/// Candidates of a stuck label tried for repair.
const REPAIR_TRIES: usize = 16;

/// A candidate of the page: its label, and its place in that label's list.
type Id = (usize, usize);

/// The boxes chosen for each label of `all` (each label's candidates, cheapest
/// first), in the same order: `None` for a label without candidates.
pub(super) fn choose(
    all: &[Vec<Candidate>],
    deadline: &Deadline,
) -> Result<Vec<Option<Rect>>, Stopped> {
    let mut page = Choice::new(all);
    // A label with no clear place at all goes last, to take what the others leave.
    let stuck: Vec<bool> = page.free.iter().map(|&n| n == 0).collect();
    // The labels left, the most constrained first and, of equals, the first on
    // the page: a heap whose entries are taken again when their label's count of
    // free candidates changed since (each change pushes a fresh entry), so each
    // turn costs a logarithm, not a scan of every label left.
    let key = |page: &Choice, i: usize| Reverse((stuck[i], page.free[i], i));
    let mut left: BinaryHeap<Reverse<(bool, usize, usize)>> = (0..all.len())
        .filter(|&i| !all[i].is_empty())
        .map(|i| key(&page, i))
        .collect();
    let mut done = vec![false; all.len()];
    while let Some(Reverse((_, free, i))) = left.pop() {
        if done[i] || free != page.free[i] {
            continue;
        }
        deadline.check()?;
        done[i] = true;
        match page.cheapest_free(i) {
            Some(j) => page.place((i, j)),
            None => {
                if !page.repair(i) {
                    let j = page.least_bad(i);
                    page.place((i, j));
                }
            }
        }
        for c in std::mem::take(&mut page.changed) {
            if !done[c] {
                left.push(key(&page, c));
            }
        }
    }
    Ok(all
        .iter()
        .enumerate()
        .map(|(i, cands)| page.chosen[i].and_then(|j| cands.get(j)).map(|c| c.rect))
        .collect())
}

/// The choice being made.
struct Choice<'a> {
    all: &'a [Vec<Candidate>],
    /// Every candidate's box grown by half of [`APART`], bucketed by id.
    ids: Vec<Id>,
    cells: Buckets,
    /// For each candidate, how many placed labels' boxes (other than its own
    /// label's) it comes too close to; kept for placed labels too, so that a
    /// label moved by a repair knows where it is free to go.
    blocked: Vec<Vec<u32>>,
    /// For each label, how many of its clear candidates nothing blocks.
    free: Vec<usize>,
    /// The labels whose `free` changed since the chooser last looked.
    changed: Vec<usize>,
    chosen: Vec<Option<usize>>,
    near: Vec<u32>,
}

impl<'a> Choice<'a> {
    fn new(all: &'a [Vec<Candidate>]) -> Self {
        let ids: Vec<Id> = all
            .iter()
            .enumerate()
            .flat_map(|(i, c)| (0..c.len()).map(move |j| (i, j)))
            .collect();
        let area = all
            .iter()
            .flatten()
            .map(|c| c.rect)
            .reduce(|a, b| a.union(&b))
            .unwrap_or_default();
        let mut cells = Buckets::new(area, ids.len());
        for (k, &(i, j)) in ids.iter().enumerate() {
            cells.insert(all[i][j].rect.grown(APART / 2.0), k as u32);
        }
        Choice {
            all,
            ids,
            cells,
            blocked: all.iter().map(|c| vec![0; c.len()]).collect(),
            free: all
                .iter()
                .map(|c| c.iter().filter(|c| c.bad == 0.0).count())
                .collect(),
            changed: Vec::new(),
            chosen: vec![None; all.len()],
            near: Vec::new(),
        }
    }

    fn rect(&self, (i, j): Id) -> Rect {
        self.all[i][j].rect
    }

    fn clear(&self, (i, j): Id) -> bool {
        self.all[i][j].bad == 0.0 && self.blocked[i][j] == 0
    }

    /// Whether two candidates of different labels come too close.
    fn conflict(&self, a: Id, b: Id) -> bool {
        a.0 != b.0
            && self
                .rect(a)
                .grown(APART / 2.0)
                .overlaps(&self.rect(b).grown(APART / 2.0))
    }

    /// The candidates of other labels that `c` conflicts with.
    fn conflicting(&mut self, c: Id) -> Vec<Id> {
        self.cells
            .query(&self.rect(c).grown(APART / 2.0), &mut self.near);
        let near: Vec<Id> = self.near.iter().map(|&k| self.ids[k as usize]).collect();
        near.into_iter().filter(|&d| self.conflict(c, d)).collect()
    }

    fn cheapest_free(&self, i: usize) -> Option<usize> {
        (0..self.all[i].len()).find(|&j| self.clear((i, j)))
    }

    /// Places label `c.0` at its candidate `c.1`, blocking what it conflicts with.
    fn place(&mut self, c: Id) {
        for d in self.conflicting(c) {
            self.block(d, true);
        }
        self.chosen[c.0] = Some(c.1);
    }

    /// Takes label `i` off its place, freeing what it blocked.
    fn lift(&mut self, i: usize) {
        let Some(j) = self.chosen[i].take() else {
            return;
        };
        for d in self.conflicting((i, j)) {
            self.block(d, false);
        }
    }

    fn block(&mut self, (i, j): Id, on: bool) {
        let was = self.clear((i, j));
        let n = &mut self.blocked[i][j];
        *n = if on { *n + 1 } else { n.saturating_sub(1) };
        let is = self.clear((i, j));
        match (was, is) {
            (true, false) => self.free[i] -= 1,
            (false, true) => self.free[i] += 1,
            _ => return,
        }
        self.changed.push(i);
    }

    /// The placed labels whose boxes candidate `c` comes too close to.
    fn blockers(&mut self, c: Id) -> Vec<usize> {
        self.conflicting(c)
            .into_iter()
            .filter(|&(k, m)| self.chosen[k] == Some(m))
            .map(|(k, _)| k)
            .collect()
    }

    /// Frees a clear candidate of label `i`, blocked by one placed label only,
    /// by moving that label to another clear candidate of its own that keeps off
    /// it; places both and says whether it could.
    fn repair(&mut self, i: usize) -> bool {
        let tries: Vec<usize> = (0..self.all[i].len())
            .filter(|&j| self.all[i][j].bad == 0.0 && self.blocked[i][j] == 1)
            .take(REPAIR_TRIES)
            .collect();
        for j in tries {
            let [b] = self.blockers((i, j))[..] else {
                continue;
            };
            let Some(old) = self.chosen[b] else {
                continue;
            };
            self.lift(b);
            // Its other candidates, cheapest first, clear of the rest and of `i`.
            let other = (0..self.all[b].len())
                .find(|&m| m != old && self.clear((b, m)) && !self.conflict((i, j), (b, m)));
            match other {
                Some(m) => {
                    self.place((b, m));
                    self.place((i, j));
                    return true;
                }
                None => self.place((b, old)),
            }
        }
        false
    }

    /// The least bad candidate of label `i`: over the fewest things (placed
    /// labels, and shapes, lines or arrowheads), then covering the least of the
    /// page, then the cheapest.
    fn least_bad(&self, i: usize) -> usize {
        (0..self.all[i].len())
            .min_by(|&x, &y| {
                let (a, b) = (&self.all[i][x], &self.all[i][y]);
                (self.blocked[i][x] + a.covers)
                    .cmp(&(self.blocked[i][y] + b.covers))
                    .then(a.bad.total_cmp(&b.bad))
                    .then(a.cost.total_cmp(&b.cost))
            })
            .unwrap_or(0)
    }
}
