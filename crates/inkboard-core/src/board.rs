//! The board: a title and pages of z-ordered objects, with a derived index from
//! object id to place. Read it freely; change it only through a
//! [`Transaction`](crate::Transaction).

use std::collections::{HashMap, HashSet};

use crate::{Extra, IdKind, Kind, ModelError, Object, ObjectId, PageId, Rect, Rotation};

/// A page: a name and its objects, back to front.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    pub id: PageId,
    pub name: String,
    pub objects: Vec<Object>,
    pub extra: Extra,
}

impl Page {
    pub fn new(id: PageId, name: impl Into<String>) -> Self {
        Page {
            id,
            name: name.into(),
            objects: Vec::new(),
            extra: Extra::new(),
        }
    }
}

/// A whole board.
///
/// Limitations: lookups by id are O(1), but changes other than appending an object
/// rebuild the index of the page they touch, so they cost O(objects on the page).
#[derive(Clone, Debug)]
pub struct Board {
    pub(crate) title: String,
    pub(crate) pages: Vec<Page>,
    pub(crate) next_object: u64,
    pub(crate) next_page: u32,
    pub(crate) revision: u64,
    pub(crate) extra: Extra,
    /// Derived: where each object is. Never saved.
    index: HashMap<ObjectId, (PageId, usize)>,
}

impl PartialEq for Board {
    /// Boards are equal when their content is; the revision and the id counters are
    /// bookkeeping and do not count.
    fn eq(&self, other: &Self) -> bool {
        self.title == other.title && self.pages == other.pages && self.extra == other.extra
    }
}

impl Board {
    /// A new board with the named pages ("Page 1" when none is given).
    pub fn new(title: impl Into<String>, page_names: &[String]) -> Self {
        let mut names: Vec<String> = page_names.to_vec();
        if names.is_empty() {
            names.push("Page 1".to_string());
        }
        let pages = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| Page::new(PageId(i as u32 + 1), name))
            .collect::<Vec<_>>();
        let next_page = pages.len() as u32 + 1;
        Board {
            title: title.into(),
            pages,
            next_object: 1,
            next_page,
            revision: 0,
            extra: Extra::new(),
            index: HashMap::new(),
        }
    }

    /// Builds a board from saved parts, checking the invariants: unique page and
    /// object ids, connector ends and group members on their own page, no group
    /// holding itself, and everything within the [`limits`](crate::limits). `next_object` is raised past every id already in use, so new
    /// ids never collide.
    pub fn from_parts(
        title: String,
        pages: Vec<Page>,
        next_object: u64,
        revision: u64,
        extra: Extra,
    ) -> Result<Board, ModelError> {
        let mut pages = pages;
        if pages.is_empty() {
            pages.push(Page::new(PageId(1), "Page 1"));
        }
        let mut board = Board {
            title,
            next_page: pages
                .iter()
                .map(|p| p.id.0)
                .max()
                .unwrap_or(0)
                .saturating_add(1),
            pages,
            next_object,
            revision,
            extra,
            index: HashMap::new(),
        };
        // First, so that a board far over a limit is not indexed in vain.
        crate::limits::check_board(&board)?;
        let mut seen_pages = HashSet::new();
        for page in &board.pages {
            if !seen_pages.insert(page.id) {
                return Err(ModelError::DuplicatePage(page.id));
            }
            for (i, object) in page.objects.iter().enumerate() {
                if board
                    .index
                    .insert(object.id.clone(), (page.id, i))
                    .is_some()
                {
                    return Err(ModelError::DuplicateId(object.id.clone()));
                }
                if let Some(n) = object.id.counter() {
                    // A file may hold any id, the largest counter included.
                    board.next_object = board.next_object.max(n.saturating_add(1));
                }
            }
        }
        for page in &board.pages {
            board.check_references(page.id, page.objects.iter())?;
        }
        Ok(board)
    }

    pub fn title(&self) -> &str {
        &self.title
    }
    pub fn pages(&self) -> &[Page] {
        &self.pages
    }
    /// The revision: how many commits this board has seen. Saved with it.
    pub fn revision(&self) -> u64 {
        self.revision
    }
    /// The counter the next new object id is made from. Saved with the board.
    pub fn next_object(&self) -> u64 {
        self.next_object
    }
    /// The counter the next new page id is made from. Saved with the board when
    /// it says more than the pages do (see [`Board::page_counter_of_pages`]).
    pub fn next_page(&self) -> u32 {
        self.next_page
    }
    /// What the page counter would be from the pages alone: one more than the
    /// largest page id. A deleted page that had the largest id is what makes the
    /// real counter higher.
    pub fn page_counter_of_pages(&self) -> u32 {
        self.pages
            .iter()
            .map(|p| p.id.0)
            .max()
            .unwrap_or(0)
            .saturating_add(1)
    }
    /// The board with its page counter at least `next_page` (as saved): ids of
    /// deleted pages are never handed out again. Never lowers it, so that ids in
    /// use stay out of reach too.
    pub fn with_next_page(mut self, next_page: u32) -> Board {
        self.next_page = self.next_page.max(next_page);
        self
    }
    /// Raises the id counters to at least `next_object` and `next_page` (never
    /// lowers them): a change made by another process on a shared board, replayed
    /// here step by step, may have handed out ids this copy never counted, and
    /// they must never be handed out again.
    pub fn advance_counters(&mut self, next_object: u64, next_page: u32) {
        self.next_object = self.next_object.max(next_object);
        self.next_page = self.next_page.max(next_page);
    }
    pub fn extra(&self) -> &Extra {
        &self.extra
    }
    /// The board with the unknown field `key` set to `value` (raw JSON text), as a
    /// file's unknown fields are kept: outside any transaction, for a board being
    /// made whole (an import notes there what it could not keep).
    pub fn with_extra(mut self, key: impl Into<String>, value: impl Into<String>) -> Board {
        self.extra.insert(key.into(), value.into());
        self
    }
    /// The board without the unknown field `key`, outside any transaction, as
    /// [`Board::with_extra`] sets one (a picture's board is given back without
    /// the import note it carried, which was no import of this one's).
    pub fn without_extra(mut self, key: &str) -> Board {
        self.extra.remove(key);
        self
    }
    /// The number of objects on all pages.
    pub fn object_count(&self) -> usize {
        self.index.len()
    }

    pub fn page(&self, id: PageId) -> Option<&Page> {
        self.pages.iter().find(|p| p.id == id)
    }
    /// The position of a page, from 0.
    pub fn page_position(&self, id: PageId) -> Option<usize> {
        self.pages.iter().position(|p| p.id == id)
    }
    pub(crate) fn page_mut(&mut self, id: PageId) -> Result<&mut Page, ModelError> {
        self.pages
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or(ModelError::NoSuchPage(id))
    }

    /// The page and z-position of an object.
    pub fn locate(&self, id: &ObjectId) -> Option<(PageId, usize)> {
        self.index.get(id).copied()
    }
    pub fn object(&self, id: &ObjectId) -> Option<&Object> {
        let (page, i) = self.locate(id)?;
        self.page(page)?.objects.get(i)
    }

    /// The extent of an object: its own bounds, the union of a group's members, or
    /// the box around a connector's ends.
    pub fn bounds(&self, id: &ObjectId) -> Option<Rect> {
        self.bounds_depth(id, 0)
    }

    fn bounds_depth(&self, id: &ObjectId, depth: usize) -> Option<Rect> {
        let object = self.object(id)?;
        if let Some(b) = object.own_bounds() {
            return Some(b);
        }
        if depth > 16 {
            return None;
        }
        match &object.kind {
            Kind::Group(g) => g
                .members
                .iter()
                .filter_map(|m| self.bounds_depth(m, depth + 1))
                .reduce(|a, b| a.union(&b)),
            Kind::Connector(c) => {
                let point = |end: &crate::End| match end {
                    crate::End::Point(p) => Some(*p),
                    crate::End::Object(o) => self.bounds_depth(o, depth + 1).map(|b| b.center()),
                };
                Rect::around([point(&c.from)?, point(&c.to)?])
            }
            _ => None,
        }
    }

    /// The connectors on `page` with an end on one of `ids`. Derived on demand:
    /// records hold no back-links.
    pub fn connectors_touching(&self, page: PageId, ids: &[ObjectId]) -> Vec<ObjectId> {
        let Some(page) = self.page(page) else {
            return Vec::new();
        };
        page.objects
            .iter()
            .filter(|o| match &o.kind {
                Kind::Connector(c) => [&c.from, &c.to]
                    .iter()
                    .any(|e| e.object().is_some_and(|id| ids.contains(id))),
                _ => false,
            })
            .map(|o| o.id.clone())
            .collect()
    }

    /// The groups on `page` that name `id` as a member.
    pub fn groups_holding(&self, page: PageId, id: &ObjectId) -> Vec<ObjectId> {
        let Some(page) = self.page(page) else {
            return Vec::new();
        };
        page.objects
            .iter()
            .filter(|o| matches!(&o.kind, Kind::Group(g) if g.members.contains(id)))
            .map(|o| o.id.clone())
            .collect()
    }

    /// The objects lying wholly inside a frame (by geometry: frames hold no list):
    /// those with a box of their own (shapes, images, ink) that
    /// [`frame_holds`](Board::frame_holds).
    pub fn frame_contents(&self, frame: &ObjectId) -> Vec<ObjectId> {
        let Some((page, _)) = self.locate(frame) else {
            return Vec::new();
        };
        let Some(page) = self.page(page) else {
            return Vec::new();
        };
        page.objects
            .iter()
            .filter(|o| o.own_bounds().is_some() && self.frame_holds(frame, &o.id))
            .map(|o| o.id.clone())
            .collect()
    }

    /// Whether the object `id` lies wholly inside the frame `frame`, on its page.
    /// Inside a turned frame means inside in the frame's own, unturned place: the
    /// object seen with the frame's turn undone about the frame's centre (a box
    /// keeps its size, its centre turned back; ink and a connector's ends turned
    /// back point by point). So what a frame held it still holds once it has turned
    /// and its contents with it (`update`), and turning it back finds them again.
    pub fn frame_holds(&self, frame: &ObjectId, id: &ObjectId) -> bool {
        let (Some(f), Some(o)) = (self.object(frame), self.object(id)) else {
            return false;
        };
        if frame == id
            || !f.is_frame()
            || self.locate(frame).map(|l| l.0) != self.locate(id).map(|l| l.0)
        {
            return false;
        }
        let Some(area) = f.own_bounds() else {
            return false;
        };
        let turn = f.rotation();
        if turn.is_none() {
            return self.bounds(id).is_some_and(|b| area.contains(&b));
        }
        let back = Rotation::degrees(-turn.deg()).unwrap_or(Rotation::NONE);
        let c = area.center();
        let seen = match &o.kind {
            Kind::Shape(_) | Kind::Image(_) => o.own_bounds().map(|b| {
                let m = b.center().rotated(back, c);
                Rect::new(m.x - b.w / 2.0, m.y - b.h / 2.0, b.w, b.h)
            }),
            Kind::Ink(k) => Rect::around(k.points.iter().map(|p| p.rotated(back, c))),
            Kind::Connector(k) => {
                // Its ends, as `bounds` takes them: a bound end at its object's centre.
                let end = |e: &crate::End| match e {
                    crate::End::Point(p) => Some(*p),
                    crate::End::Object(o) => self.bounds(o).map(|b| b.center()),
                };
                let ends = [end(&k.from), end(&k.to)];
                ends.iter()
                    .all(Option::is_some)
                    .then(|| Rect::around(ends.into_iter().flatten().map(|p| p.rotated(back, c))))
                    .flatten()
            }
            // A group is judged member by member.
            Kind::Group(_) => None,
        };
        // Turned and turned back, a position may be off by the rounding of a
        // hundredth that files keep: an object on the frame's edge stays inside.
        const SLACK: f64 = 0.02;
        let grown = Rect::new(
            area.x - SLACK,
            area.y - SLACK,
            area.w + 2.0 * SLACK,
            area.h + 2.0 * SLACK,
        );
        seen.is_some_and(|b| grown.contains(&b))
    }

    /// Checks that every reference on `page` resolves there (connector ends, group
    /// members) and that no group holds itself: what a commit checks of a page it
    /// took something from, asked ahead of it by a caller that would rather leave
    /// one change out than fail whole (the selective undo of a shared board).
    pub fn check_page(&self, page: PageId) -> Result<(), ModelError> {
        match self.page(page) {
            Some(p) => self.check_references(page, p.objects.iter()),
            None => Err(ModelError::NoSuchPage(page)),
        }
    }

    /// Checks that the references of `objects` resolve on `page`, and that no group
    /// among them holds itself.
    pub(crate) fn check_references<'a>(
        &'a self,
        page: PageId,
        objects: impl Iterator<Item = &'a Object>,
    ) -> Result<(), ModelError> {
        // Groups whose nesting an earlier object's check walked: none leads to a
        // cycle, so none is walked again.
        let mut settled = HashSet::new();
        for object in objects {
            for target in object.references() {
                let here = self.locate(target).is_some_and(|(p, _)| p == page);
                if !here {
                    return Err(match &object.kind {
                        Kind::Group(_) => ModelError::DanglingMember {
                            group: object.id.clone(),
                            member: target.clone(),
                        },
                        _ => ModelError::DanglingConnector {
                            connector: object.id.clone(),
                            end: target.clone(),
                        },
                    });
                }
            }
            if let Kind::Group(g) = &object.kind {
                self.check_group_cycle(&object.id, g, &mut settled)?;
            }
        }
        Ok(())
    }

    /// Refuses a group that is among its own members, directly or through nested
    /// groups: it would be moved, ordered and deleted as part of itself. Depth
    /// first from `group`, past the groups `settled` by earlier calls, which it
    /// adds to: checking every group of a page walks each once (walking each
    /// group's nesting anew cost a chain of nested groups its length squared:
    /// 12,000 of them, imported from Excalidraw, took 26 s).
    fn check_group_cycle<'a>(
        &'a self,
        id: &'a ObjectId,
        group: &'a crate::Group,
        settled: &mut HashSet<&'a ObjectId>,
    ) -> Result<(), ModelError> {
        if settled.contains(id) {
            return Ok(());
        }
        let mut path: HashSet<&ObjectId> = HashSet::from([id]);
        let mut stack = vec![(id, group.members.iter())];
        while let Some((at, members)) = stack.last_mut() {
            let Some(member) = members.next() else {
                path.remove(*at);
                settled.insert(*at);
                stack.pop();
                continue;
            };
            if path.contains(member) {
                return Err(ModelError::GroupCycle(member.clone()));
            }
            if settled.contains(member) {
                continue;
            }
            match self.object(member) {
                Some(Object {
                    kind: Kind::Group(inner),
                    ..
                }) => {
                    path.insert(member);
                    stack.push((member, inner.members.iter()));
                }
                _ => {
                    settled.insert(member);
                }
            }
        }
        Ok(())
    }

    /// Hands out a new id. Only transactions call this; they restore the counter
    /// when they roll back.
    pub(crate) fn allocate(&mut self, kind: IdKind) -> ObjectId {
        loop {
            let id = ObjectId::new(kind, self.next_object);
            // Wrapping only matters for a file that set the counter to its largest
            // value; the check below still keeps ids unique.
            self.next_object = self.next_object.wrapping_add(1);
            if !self.index.contains_key(&id) {
                return id;
            }
        }
    }

    /// Hands out a new page id, as [`allocate`](Self::allocate) does object ids.
    pub(crate) fn allocate_page(&mut self) -> PageId {
        loop {
            let id = PageId(self.next_page);
            self.next_page = self.next_page.wrapping_add(1).max(1);
            if self.page(id).is_none() {
                return id;
            }
        }
    }

    // Raw edits used by `Step::apply`. They keep the index right and nothing else:
    // invariants are the transaction's business. Positions are taken as they are,
    // never clamped, so that the inverse of an edit undoes exactly that edit.

    pub(crate) fn raw_insert(
        &mut self,
        page: PageId,
        index: usize,
        object: Object,
    ) -> Result<(), ModelError> {
        if self.index.contains_key(&object.id) {
            return Err(ModelError::DuplicateId(object.id.clone()));
        }
        let p = self.page_mut(page)?;
        let len = p.objects.len();
        if index > len {
            return Err(ModelError::NoSuchPosition { index, len });
        }
        let append = index == len;
        let id = object.id.clone();
        p.objects.insert(index, object);
        if append {
            self.index.insert(id, (page, index));
        } else {
            self.reindex(page);
        }
        Ok(())
    }

    pub(crate) fn raw_remove(&mut self, page: PageId, index: usize) -> Result<Object, ModelError> {
        let p = self.page_mut(page)?;
        let len = p.objects.len();
        if index >= len {
            return Err(ModelError::NoSuchPosition { index, len });
        }
        let object = p.objects.remove(index);
        let last = index == p.objects.len();
        self.index.remove(&object.id);
        if !last {
            self.reindex(page);
        }
        Ok(object)
    }

    pub(crate) fn raw_replace(
        &mut self,
        page: PageId,
        index: usize,
        object: Object,
    ) -> Result<Object, ModelError> {
        let p = self.page_mut(page)?;
        let len = p.objects.len();
        let current = &p
            .objects
            .get(index)
            .ok_or(ModelError::NoSuchPosition { index, len })?
            .id;
        // The same id in the same place is the rule; another id must be new.
        let renamed = *current != object.id;
        if renamed && self.index.contains_key(&object.id) {
            return Err(ModelError::DuplicateId(object.id));
        }
        let id = object.id.clone();
        let before = std::mem::replace(&mut self.page_mut(page)?.objects[index], object);
        if renamed {
            self.index.remove(&before.id);
            self.index.insert(id, (page, index));
        }
        Ok(before)
    }

    pub(crate) fn raw_insert_page(&mut self, index: usize, page: Page) -> Result<(), ModelError> {
        let len = self.pages.len();
        if index > len {
            return Err(ModelError::NoSuchPosition { index, len });
        }
        if self.page(page.id).is_some() {
            return Err(ModelError::DuplicatePage(page.id));
        }
        let mut ids = HashSet::new();
        for o in &page.objects {
            if self.index.contains_key(&o.id) || !ids.insert(&o.id) {
                return Err(ModelError::DuplicateId(o.id.clone()));
            }
        }
        let id = page.id;
        self.next_page = self.next_page.max(id.0.saturating_add(1));
        self.pages.insert(index, page);
        self.reindex(id);
        Ok(())
    }

    pub(crate) fn raw_remove_page(&mut self, index: usize) -> Result<Page, ModelError> {
        let len = self.pages.len();
        if index >= len {
            return Err(ModelError::NoSuchPosition { index, len });
        }
        if len == 1 {
            return Err(ModelError::LastPage);
        }
        let page = self.pages.remove(index);
        for o in &page.objects {
            self.index.remove(&o.id);
        }
        Ok(page)
    }

    fn reindex(&mut self, page: PageId) {
        if let Some(p) = self.pages.iter().find(|p| p.id == page) {
            for (i, o) in p.objects.iter().enumerate() {
                self.index.insert(o.id.clone(), (page, i));
            }
        }
    }
}
