//! The page as `layout` sees it ([`Page`]): the shapes, images and ink it may
//! arrange, the frame holding each, the connectors between them, and the
//! questions the layout asks of them (what is laid out at the top, what moves,
//! what the block is anchored to, what rides along with the frames). Each is
//! answered from lists made once when the page is read, so that none costs
//! the page's size for each of its items.

use std::collections::{HashMap, HashSet};

use inkboard_core::{Board, Geom, Kind, ObjectId, PageId, Rect};

use super::{title_width, Direction};
use crate::place::Side;
use crate::{shift, ArrangeError};

/// A shape, image or ink stroke of the page, with the frame that holds it. Ink
/// is laid out only inside a frame that is (or when named in `ids`).
pub(super) struct Item {
    pub(super) id: ObjectId,
    pub(super) bounds: Rect,
    pub(super) frame: bool,
    pub(super) ink: bool,
    /// The title's width, for frames: a frame is never narrower.
    pub(super) min_w: f64,
    /// The smallest frame holding this one, as an index into the items.
    pub(super) parent: Option<usize>,
    /// Its outline, for a shape drawn unturned (where its ends land).
    pub(super) geom: Option<Geom>,
}

/// The page as the layout sees it.
pub(super) struct Page {
    pub(super) items: Vec<Item>,
    pub(super) index: HashMap<ObjectId, usize>,
    /// (from, to) item indices of the connectors between two items.
    pub(super) links: Vec<(usize, usize)>,
    /// The size of each link's label as the renderer draws it, if it shows one
    /// (the layout leaves room for it).
    pub(super) labels: Vec<Option<(f64, f64)>>,
    /// The items each frame holds directly, in page order (by item index).
    pub(super) kids: Vec<Vec<usize>>,
    /// How many links come into and go out of each item (loops aside).
    pub(super) ins: Vec<usize>,
    pub(super) outs: Vec<usize>,
}

impl Page {
    pub(super) fn read(board: &Board, page: PageId) -> Result<Page, ArrangeError> {
        let page = board.page(page).ok_or(ArrangeError::NoPage)?;
        let mut items: Vec<Item> = page
            .objects
            .iter()
            .filter_map(|o| match &o.kind {
                Kind::Shape(s) => Some(Item {
                    id: o.id.clone(),
                    bounds: s.bounds,
                    frame: s.geom == Geom::Frame,
                    ink: false,
                    min_w: if s.geom == Geom::Frame {
                        title_width(&s.text, &s.style)
                    } else {
                        0.0
                    },
                    parent: None,
                    geom: (s.rotation.is_none()).then_some(s.geom),
                }),
                Kind::Image(i) => Some(Item {
                    id: o.id.clone(),
                    bounds: i.bounds,
                    frame: false,
                    ink: false,
                    min_w: 0.0,
                    parent: None,
                    geom: None,
                }),
                Kind::Ink(_) => Some(Item {
                    id: o.id.clone(),
                    bounds: o.own_bounds()?,
                    frame: false,
                    ink: true,
                    min_w: 0.0,
                    parent: None,
                    geom: None,
                }),
                _ => None,
            })
            .collect();
        let frames: Vec<usize> = (0..items.len()).filter(|&i| items[i].frame).collect();
        for i in 0..items.len() {
            items[i].parent = innermost(&items, &frames, i);
        }
        let items = without_locked(items, |id| crate::locked::is_locked(board, id));
        let index: HashMap<ObjectId, usize> = items
            .iter()
            .enumerate()
            .map(|(i, it)| (it.id.clone(), i))
            .collect();
        let (links, labels): (Vec<_>, Vec<_>) = page
            .objects
            .iter()
            .filter_map(|o| match &o.kind {
                Kind::Connector(c) => {
                    let a = index.get(c.from.object()?)?;
                    let b = index.get(c.to.object()?)?;
                    Some(((*a, *b), inkboard_render::label_size(c)))
                }
                _ => None,
            })
            .unzip();
        // Counted once: asked for each item, a pass over the links each time
        // made a page of n shapes cost n times its links.
        let mut kids = vec![Vec::new(); items.len()];
        for (i, item) in items.iter().enumerate() {
            if let Some(p) = item.parent {
                kids[p].push(i);
            }
        }
        let (mut ins, mut outs) = (vec![0; items.len()], vec![0; items.len()]);
        for &(a, b) in links.iter().filter(|(a, b)| a != b) {
            outs[a] += 1;
            ins[b] += 1;
        }
        Ok(Page {
            items,
            index,
            links,
            labels,
            kids,
            ins,
            outs,
        })
    }

    /// The items laid out at the outer level, in order.
    pub(super) fn top_level(
        &self,
        board: &Board,
        ids: Option<&[ObjectId]>,
    ) -> Result<Vec<usize>, ArrangeError> {
        let Some(ids) = ids else {
            return Ok((0..self.items.len())
                .filter(|&i| self.items[i].parent.is_none() && !self.items[i].ink)
                .collect());
        };
        // Groups stand for their members (each group once, however often it is
        // reached); connectors are not laid out.
        let mut chosen: Vec<usize> = Vec::new();
        let mut once: HashSet<usize> = HashSet::new();
        let mut groups: HashSet<ObjectId> = HashSet::new();
        let mut stack: Vec<ObjectId> = ids.iter().rev().cloned().collect();
        while let Some(id) = stack.pop() {
            if let Some(&i) = self.index.get(&id) {
                if once.insert(i) {
                    chosen.push(i);
                }
            } else if let Some(Kind::Group(g)) = board.object(&id).map(|o| &o.kind) {
                if groups.insert(id) {
                    stack.extend(g.members.iter().rev().cloned());
                }
            }
        }
        if chosen.is_empty() {
            return Err(ArrangeError::NothingToLayOut);
        }
        // What a chosen frame holds is laid out with it.
        let within_chosen = |i: usize| {
            let mut p = self.items[i].parent;
            while let Some(f) = p {
                if once.contains(&f) {
                    return true;
                }
                p = self.items[f].parent;
            }
            false
        };
        Ok(chosen
            .iter()
            .copied()
            .filter(|&i| !within_chosen(i))
            .collect())
    }

    /// Where the shapes that stay and are linked to moving ones lie: the union of
    /// those that lead into the moving ones and of those the moving ones lead
    /// into, in the frames that hold the block. None when no connector joins
    /// the two (frames holding the moving shapes do not count: the block
    /// belongs in them).
    pub(super) fn pinned_anchor(&self, moving: &[bool], holders: &[usize]) -> Option<Anchor> {
        // Only what lies in the same frames as the block: a block laid out in a
        // frame stays in it rather than reach for a shape outside.
        let beside = |i: usize| {
            let mut chain = Vec::new();
            let mut p = self.items[i].parent;
            while let Some(f) = p {
                chain.push(f);
                p = self.items[f].parent;
            }
            holders.iter().all(|f| chain.contains(f))
        };
        let stays = |i: usize| !moving[i] && !holders.contains(&i) && beside(i);
        let mut anchor = Anchor::default();
        for &(a, b) in &self.links {
            if stays(a) && moving[b] {
                anchor.before = Some(union(anchor.before, self.items[a].bounds));
            } else if moving[a] && stays(b) {
                anchor.after = Some(union(anchor.after, self.items[b].bounds));
            }
        }
        (anchor.before.is_some() || anchor.after.is_some()).then_some(anchor)
    }

    /// Sorts `units` in reading order by where they lie now: rows from the top
    /// (a unit starting above the bottom of the row's first unit is in that row),
    /// each row from the left.
    pub(super) fn reading_order(&self, units: &mut [usize]) {
        let b = |i: usize| self.items[i].bounds;
        units.sort_by(|&p, &q| b(p).y.total_cmp(&b(q).y).then(b(p).x.total_cmp(&b(q).x)));
        let mut start = 0;
        while start < units.len() {
            let first = b(units[start]);
            let end = (start + 1..units.len())
                .find(|&k| b(units[k]).y >= first.bottom())
                .unwrap_or(units.len());
            units[start..end].sort_by(|&p, &q| b(p).x.total_cmp(&b(q).x).then(p.cmp(&q)));
            start = end;
        }
    }

    /// The items a frame holds directly, in page order.
    pub(super) fn children(&self, frame: usize) -> Vec<usize> {
        self.kids[frame].clone()
    }

    /// Which items move: `top` and everything inside the frames among them.
    pub(super) fn moving(&self, top: &[usize]) -> Vec<bool> {
        let mut on_top = vec![false; self.items.len()];
        for &i in top {
            on_top[i] = true;
        }
        (0..self.items.len())
            .map(|i| {
                let mut p = Some(i);
                while let Some(f) = p {
                    if on_top[f] {
                        return true;
                    }
                    p = self.items[f].parent;
                }
                false
            })
            .collect()
    }

    /// The frames that hold every one of `top` (innermost first): they are not
    /// in the way of the block, which belongs in them.
    pub(super) fn ancestors_of(&self, top: &[usize]) -> Vec<usize> {
        let chain = |i: usize| {
            let mut out = Vec::new();
            let mut p = self.items[i].parent;
            while let Some(f) = p {
                out.push(f);
                p = self.items[f].parent;
            }
            out
        };
        let Some((&first, rest)) = top.split_first() else {
            return Vec::new();
        };
        let mut common = chain(first);
        for &i in rest {
            let c = chain(i);
            common.retain(|f| c.contains(f));
        }
        common
    }

    /// What moves with the frames laid out without being laid out: the
    /// free-ended connectors inside them (as `move` moves them with a frame,
    /// [`shift::moving_set`]), each as far as the innermost such frame's corner.
    pub(super) fn riders(
        &self,
        board: &Board,
        order: &[usize],
        target: &HashMap<usize, Rect>,
    ) -> Vec<(ObjectId, f64, f64)> {
        let mut frames: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| self.items[i].frame)
            .collect();
        // Outermost first, so that an inner frame's move is the one that stays
        // (among frames of one size the one further forward is the inner).
        let area = |i: usize| self.items[i].bounds.w * self.items[i].bounds.h;
        frames.sort_by(|&f, &g| area(g).total_cmp(&area(f)).then(f.cmp(&g)));
        let mut out: Vec<(ObjectId, f64, f64)> = Vec::new();
        for f in frames {
            let (old, new) = (self.items[f].bounds, target[&f]);
            let (dx, dy) = (new.x - old.x, new.y - old.y);
            for id in shift::moving_set(board, std::slice::from_ref(&self.items[f].id)) {
                if !matches!(board.object(&id).map(|o| &o.kind), Some(Kind::Connector(_))) {
                    continue;
                }
                match out.iter_mut().find(|r| r.0 == id) {
                    Some(r) => (r.1, r.2) = (dx, dy),
                    None => out.push((id, dx, dy)),
                }
            }
        }
        out
    }
}

/// `items` without the locked ones and what lies in a locked frame: a lock keeps
/// an object where it is, and a frame's contents in it (`locked.rs`). What stays
/// is in the way of the laid-out block like anything not laid out. The parents
/// left are still the innermost frames: an item whose frame goes goes with it.
fn without_locked(items: Vec<Item>, locked: impl Fn(&ObjectId) -> bool) -> Vec<Item> {
    let gone = |i: usize| {
        let mut p = Some(i);
        while let Some(f) = p {
            if locked(&items[f].id) {
                return true;
            }
            p = items[f].parent;
        }
        false
    };
    let kept: Vec<bool> = (0..items.len()).map(|i| !gone(i)).collect();
    let mut new_index = vec![0; items.len()];
    let mut n = 0;
    for (i, k) in kept.iter().enumerate() {
        new_index[i] = n;
        n += usize::from(*k);
    }
    items
        .into_iter()
        .zip(kept)
        .filter(|(_, k)| *k)
        .map(|(mut item, _)| {
            item.parent = item.parent.map(|p| new_index[p]);
            item
        })
        .collect()
}

/// The smallest of `frames` (other than item `me`) that holds item `me`. A frame
/// only holds frames smaller than itself, or of its size and further forward, so
/// no two frames hold each other; among frames of one size the one further
/// forward (held by the others) is the innermost.
fn innermost(items: &[Item], frames: &[usize], me: usize) -> Option<usize> {
    let area = |f: usize| items[f].bounds.w * items[f].bounds.h;
    let b = &items[me].bounds;
    frames
        .iter()
        .copied()
        .filter(|&f| f != me && items[f].bounds.contains(b))
        .filter(|&f| !items[me].frame || area(f) > area(me) || (area(f) == area(me) && f < me))
        .min_by(|&f, &g| area(f).total_cmp(&area(g)).then(g.cmp(&f)))
}

/// The shapes that stay around a block laid out among them: those leading into
/// it and those it leads into.
#[derive(Default)]
pub(super) struct Anchor {
    pub(super) before: Option<Rect>,
    pub(super) after: Option<Rect>,
}

impl Anchor {
    /// The first place to try for a `block` laid out `direction`, `layer` away
    /// from the anchor (after what leads into it, or else before what it leads
    /// into, centred across the flow), and the way to move on from there.
    pub(super) fn place(
        &self,
        block: (f64, f64),
        direction: Direction,
        layer: f64,
    ) -> (Rect, Side) {
        let (w, h) = block;
        let (near, after) = match (self.before, self.after) {
            (Some(b), _) => (b, true),
            (None, Some(a)) => (a, false),
            (None, None) => return (Rect::new(0.0, 0.0, w, h), Side::Right),
        };
        let c = near.center();
        let (ahead, behind) = match direction {
            Direction::Down | Direction::Up => (near.bottom() + layer, near.y - layer - h),
            Direction::Right | Direction::Left => (near.right() + layer, near.x - layer - w),
        };
        // Going up or left, what leads in lies below or right of the block.
        let forward = after == matches!(direction, Direction::Down | Direction::Right);
        let deep = if forward { ahead } else { behind };
        match direction {
            Direction::Down | Direction::Up => (Rect::new(c.x - w / 2.0, deep, w, h), Side::Right),
            Direction::Right | Direction::Left => {
                (Rect::new(deep, c.y - h / 2.0, w, h), Side::Below)
            }
        }
    }
}

fn union(a: Option<Rect>, b: Rect) -> Rect {
    a.map_or(b, |a| a.union(&b))
}
