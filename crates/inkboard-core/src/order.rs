//! Which records changed place in an order (the z-order of a page's objects, the
//! order of a board's pages) between two versions of it. The change log names
//! them, so that a change of order alone is never a revision that lists nothing.
//!
//! Only the records present in both versions count, and of those the fewest that
//! explain the difference: the ones outside a longest subsequence kept in the same
//! relative order. Bringing one object to the front names that object; swapping
//! two neighbours names one of them (which one is a tie, decided the same way for
//! a commit and for [`diff_boards`](crate::diff_boards), since both call
//! [`moved`] on the same two orders).

use std::collections::HashMap;
use std::hash::Hash;

use crate::{Board, Object, ObjectId, PageId, Step};

/// What a commit moved: objects whose place in their page's z-order changed, and
/// pages whose place among the pages changed, whatever else happened to them.
/// Worked out when the transaction commits, from the board after it and the steps
/// walked back, since a step records only a position at its own moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moved {
    pub pages: Vec<PageId>,
    /// Each object with its page, as it is after the commit.
    pub objects: Vec<(PageId, Object)>,
}

impl Moved {
    /// What `steps`, just applied, moved on `board`.
    pub(crate) fn by(board: &Board, steps: &[Step]) -> Moved {
        let mut out = Moved::default();
        if steps
            .iter()
            .any(|s| matches!(s, Step::InsertPage { .. } | Step::RemovePage { .. }))
        {
            let after: Vec<PageId> = board.pages.iter().map(|p| p.id).collect();
            let mut before = after.clone();
            for step in steps.iter().rev() {
                match step {
                    Step::InsertPage { index, .. } if *index < before.len() => {
                        before.remove(*index);
                    }
                    Step::RemovePage { index, page } if *index <= before.len() => {
                        before.insert(*index, page.id)
                    }
                    _ => {}
                }
            }
            out.pages = moved(&before, &after);
        }
        // Objects keep their order unless one that stays on its page was taken out
        // and put back (a removal that is not undone, an insertion, a replacement
        // changes no one else's order): only those pages are walked back.
        let mut pages: Vec<PageId> = Vec::new();
        for step in steps {
            let page = match step {
                Step::Remove { page, object, .. }
                    if board.locate(&object.id).map(|l| l.0) == Some(*page) =>
                {
                    *page
                }
                Step::RemovePage { page, .. } if board.page(page.id).is_some() => page.id,
                _ => continue,
            };
            if !pages.contains(&page) {
                pages.push(page);
            }
        }
        for page in pages {
            let Some(now) = board.page(page) else {
                continue;
            };
            let after: Vec<ObjectId> = now.objects.iter().map(|o| o.id.clone()).collect();
            let Some(before) = objects_before(page, after.clone(), steps) else {
                continue;
            };
            for id in moved(&before, &after) {
                if let Some(object) = board.object(&id) {
                    out.objects.push((page, object.clone()));
                }
            }
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty() && self.objects.is_empty()
    }
}

/// The ids on `page` before `steps`, from `after`, its ids once they were applied;
/// `None` when the page did not exist before.
fn objects_before(page: PageId, after: Vec<ObjectId>, steps: &[Step]) -> Option<Vec<ObjectId>> {
    let mut ids = Some(after);
    for step in steps.iter().rev() {
        match (step, ids.as_mut()) {
            (Step::Insert { page: p, index, .. }, Some(ids))
                if *p == page && *index < ids.len() =>
            {
                ids.remove(*index);
            }
            (
                Step::Remove {
                    page: p,
                    index,
                    object,
                },
                Some(ids),
            ) if *p == page && *index <= ids.len() => ids.insert(*index, object.id.clone()),
            (Step::InsertPage { page: p, .. }, _) if p.id == page => ids = None,
            (Step::RemovePage { page: p, .. }, _) if p.id == page => {
                ids = Some(p.objects.iter().map(|o| o.id.clone()).collect())
            }
            _ => {}
        }
    }
    ids
}

/// The items of `after` that were also in `before` but no longer keep their place
/// relative to the others, in `after`'s order. Items only in one of the two lists
/// (added or removed) are left out. O(n log n).
pub(crate) fn moved<T: Clone + Eq + Hash>(before: &[T], after: &[T]) -> Vec<T> {
    let was: HashMap<&T, usize> = before.iter().enumerate().map(|(i, t)| (t, i)).collect();
    // The common items in `after`'s order, each with its position in `before`.
    let common: Vec<(&T, usize)> = after
        .iter()
        .filter_map(|t| was.get(t).map(|&i| (t, i)))
        .collect();
    if common.windows(2).all(|w| w[0].1 < w[1].1) {
        return Vec::new();
    }
    let keep = longest_increasing(&common.iter().map(|c| c.1).collect::<Vec<_>>());
    common
        .iter()
        .enumerate()
        .filter(|(i, _)| !keep[*i])
        .map(|(_, c)| c.0.clone())
        .collect()
}

/// Marks the members of one longest strictly increasing subsequence of `seq`
/// (patience sorting, with the predecessor of each element kept to walk it back).
fn longest_increasing(seq: &[usize]) -> Vec<bool> {
    // tails[k]: the index in `seq` of the smallest last element of an increasing
    // subsequence of length k + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; seq.len()];
    for (i, &v) in seq.iter().enumerate() {
        let k = tails.partition_point(|&t| seq[t] < v);
        before[i] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut keep = vec![false; seq.len()];
    let mut at = tails.last().copied();
    while let Some(i) = at {
        keep[i] = true;
        at = before[i];
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::moved;

    #[test]
    fn the_same_order_moves_nothing() {
        assert_eq!(moved(&[1, 2, 3], &[1, 2, 3]), Vec::<i32>::new());
        // Added and removed items do not count.
        assert_eq!(moved(&[1, 2, 3], &[0, 1, 3, 4]), Vec::<i32>::new());
    }

    #[test]
    fn one_item_brought_to_the_front_is_the_one_named() {
        assert_eq!(moved(&[1, 2, 3, 4], &[2, 3, 4, 1]), [1]);
        assert_eq!(moved(&[1, 2, 3, 4], &[4, 1, 2, 3]), [4]);
        assert_eq!(moved(&[1, 2, 3, 4, 5], &[1, 4, 2, 3, 5]), [4]);
    }

    #[test]
    fn a_reversal_names_all_but_one() {
        assert_eq!(moved(&[1, 2, 3], &[3, 2, 1]).len(), 2);
        assert_eq!(moved(&[1, 2], &[2, 1]).len(), 1);
    }
}
