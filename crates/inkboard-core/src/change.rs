//! The change log's entries: what a commit did to each object and page, summed up
//! per record (first before, last after), and the same summary computed between two
//! boards, for edits that arrived as a new file rather than as steps.

use std::collections::{HashMap, HashSet};

use crate::order::moved;
use crate::{Actor, Board, Commit, Extra, Object, ObjectId, Page, PageId, Step};

/// Whether a record appeared, changed or went away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Updated,
    Removed,
}

impl ChangeKind {
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Updated => "updated",
            ChangeKind::Removed => "removed",
        }
    }
}

/// One entry of the change log. `id` is `None` when the page itself changed
/// (added, renamed or removed); then `page_name` carries its name.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub revision: u64,
    pub by: Actor,
    pub kind: ChangeKind,
    pub page: PageId,
    pub id: Option<ObjectId>,
    /// The object after the change; `None` when it was removed.
    pub object: Option<Object>,
    pub page_name: Option<String>,
}

/// Before/after of one record, and the page of each, while steps are summed up.
struct Net {
    page_before: PageId,
    page: PageId,
    before: Option<Object>,
    after: Option<Object>,
}

/// Before/after of one page itself (not its objects): its name, if it existed,
/// and its unknown fields, which change only by a page taken out and put back (as
/// `rewrite_to` does), so they are known exactly when that happened.
#[derive(Default)]
struct PageNet {
    before: Option<String>,
    after: Option<String>,
    extra_before: Option<Extra>,
    extra_after: Option<Extra>,
    inserted: bool,
}

/// One step's view of a page.
enum PageStep<'a> {
    Insert(&'a Page),
    Remove(&'a Page),
    Rename(&'a str, &'a str),
}

impl Commit {
    /// The commit summed up per record, in the order records were first touched,
    /// then the records it only moved (in the z-order, or among the pages), as
    /// updates.
    pub fn changes(&self) -> Vec<Change> {
        let mut order: Vec<ObjectId> = Vec::new();
        let mut net: HashMap<ObjectId, Net> = HashMap::new();
        // Pages are netted like records: what each was before the commit and after
        // it, in the order first touched.
        let mut page_order: Vec<PageId> = Vec::new();
        let mut page_net: HashMap<PageId, PageNet> = HashMap::new();
        let mut page_step = |id: PageId, step: PageStep<'_>| {
            let entry = page_net.entry(id).or_insert_with(|| {
                page_order.push(id);
                let before = match &step {
                    PageStep::Insert(_) => None,
                    PageStep::Remove(p) => Some(p.name.clone()),
                    PageStep::Rename(before, _) => Some(before.to_string()),
                };
                PageNet {
                    before,
                    ..PageNet::default()
                }
            });
            match step {
                PageStep::Insert(p) => {
                    entry.inserted = true;
                    entry.after = Some(p.name.clone());
                    entry.extra_after = Some(p.extra.clone());
                }
                PageStep::Remove(p) => {
                    if !entry.inserted && entry.extra_before.is_none() {
                        entry.extra_before = Some(p.extra.clone());
                    }
                    entry.after = None;
                    entry.extra_after = None;
                }
                PageStep::Rename(_, after) => entry.after = Some(after.to_string()),
            }
        };
        let mut touch = |page: PageId, before: Option<&Object>, after: Option<&Object>| {
            let id = before
                .or(after)
                .map(|o| o.id.clone())
                .expect("a step touches an object");
            let entry = net.entry(id.clone()).or_insert_with(|| {
                order.push(id);
                Net {
                    page_before: page,
                    page,
                    before: before.cloned(),
                    after: None,
                }
            });
            entry.page = page;
            entry.after = after.cloned();
        };
        for step in &self.steps {
            match step {
                Step::Insert { page, object, .. } => touch(*page, None, Some(object)),
                Step::Remove { page, object, .. } => touch(*page, Some(object), None),
                Step::Replace {
                    page,
                    before,
                    after,
                    ..
                } => touch(*page, Some(before), Some(after)),
                Step::InsertPage { page, .. } => {
                    page_step(page.id, PageStep::Insert(page));
                    for o in &page.objects {
                        touch(page.id, None, Some(o));
                    }
                }
                Step::RemovePage { page, .. } => {
                    for o in &page.objects {
                        touch(page.id, Some(o), None);
                    }
                    page_step(page.id, PageStep::Remove(page));
                }
                Step::RenamePage {
                    page,
                    before,
                    after,
                    ..
                } => page_step(*page, PageStep::Rename(before, after)),
                Step::SetTitle { .. } => {}
            }
        }
        let mut out = Vec::new();
        let entry = |kind, page: PageId, id: Option<ObjectId>, object, page_name| Change {
            revision: self.revision,
            by: self.by,
            kind,
            page,
            id,
            object,
            page_name,
        };
        let moved_pages = &self.moved.pages;
        for id in page_order {
            let p = &page_net[&id];
            let (kind, name) = match (&p.before, &p.after) {
                (None, Some(after)) => (ChangeKind::Added, after),
                (Some(before), None) => (ChangeKind::Removed, before),
                (Some(before), Some(after))
                    if before != after
                        || (p.extra_before.is_some()
                            && p.extra_after.is_some()
                            && p.extra_before != p.extra_after)
                        || moved_pages.contains(&id) =>
                {
                    (ChangeKind::Updated, after)
                }
                // Renamed back, or added and removed again: nothing to tell.
                _ => continue,
            };
            out.push(entry(kind, id, None, None, Some(name.clone())));
        }
        for id in order {
            let n = &net[&id];
            // A removal is reported on the page the record was on; anything else on
            // the page it ends on. A move between pages is an update, as in
            // `diff_boards`.
            let (kind, page) = match (&n.before, &n.after) {
                (None, Some(_)) => (ChangeKind::Added, n.page),
                (Some(_), None) => (ChangeKind::Removed, n.page_before),
                (Some(a), Some(b)) if a != b || n.page != n.page_before => {
                    (ChangeKind::Updated, n.page)
                }
                _ => continue,
            };
            out.push(entry(kind, page, Some(id.clone()), n.after.clone(), None));
        }
        // Moved only: in the z-order (the object as it is), or among the pages.
        let told: HashSet<ObjectId> = out.iter().filter_map(|c| c.id.clone()).collect();
        for (page, object) in &self.moved.objects {
            if !told.contains(&object.id) {
                out.push(entry(
                    ChangeKind::Updated,
                    *page,
                    Some(object.id.clone()),
                    Some(object.clone()),
                    None,
                ));
            }
        }
        out
    }

    /// Whether the commit leaves the board with another title than it found.
    pub fn changes_title(&self) -> bool {
        let mut titles = self.steps.iter().filter_map(|s| match s {
            Step::SetTitle { before, after } => Some((before, after)),
            _ => None,
        });
        let first = titles.next();
        let last = titles.next_back().or(first);
        matches!((first, last), (Some((before, _)), Some((_, after))) if before != after)
    }
}

/// What changed from `old` to `new`, as if one commit of `by` at `revision` had
/// done it. Used when a board changed outside this process (another program
/// rewrote the file), where no steps exist.
pub fn diff_boards(old: &Board, new: &Board, revision: u64, by: Actor) -> Vec<Change> {
    let mut out = Vec::new();
    let entry =
        |kind, page: PageId, id: Option<ObjectId>, object: Option<Object>, page_name| Change {
            revision,
            by,
            kind,
            page,
            id,
            object,
            page_name,
        };
    let page_ids = |b: &Board| b.pages().iter().map(|p| p.id).collect::<Vec<_>>();
    let moved_pages = moved(&page_ids(old), &page_ids(new));
    for page in new.pages() {
        match old.page(page.id) {
            None => out.push(entry(
                ChangeKind::Added,
                page.id,
                None,
                None,
                Some(page.name.clone()),
            )),
            Some(before)
                if before.name != page.name
                    || before.extra != page.extra
                    || moved_pages.contains(&page.id) =>
            {
                out.push(entry(
                    ChangeKind::Updated,
                    page.id,
                    None,
                    None,
                    Some(page.name.clone()),
                ))
            }
            _ => {}
        }
        // Objects that stayed on this page but changed place in its z-order.
        let z_moved: HashSet<&ObjectId> = match old.page(page.id) {
            Some(before) => moved(&object_ids(before), &object_ids(page))
                .into_iter()
                .collect(),
            None => HashSet::new(),
        };
        for object in &page.objects {
            match old.object(&object.id) {
                None => out.push(entry(
                    ChangeKind::Added,
                    page.id,
                    Some(object.id.clone()),
                    Some(object.clone()),
                    None,
                )),
                Some(before)
                    if before != object
                        || old.locate(&object.id).map(|l| l.0) != Some(page.id)
                        || z_moved.contains(&object.id) =>
                {
                    out.push(entry(
                        ChangeKind::Updated,
                        page.id,
                        Some(object.id.clone()),
                        Some(object.clone()),
                        None,
                    ))
                }
                _ => {}
            }
        }
    }
    for page in old.pages() {
        for object in &page.objects {
            if new.locate(&object.id).is_none() {
                out.push(entry(
                    ChangeKind::Removed,
                    page.id,
                    Some(object.id.clone()),
                    None,
                    None,
                ));
            }
        }
        if new.page(page.id).is_none() {
            out.push(entry(
                ChangeKind::Removed,
                page.id,
                None,
                None,
                Some(page.name.clone()),
            ));
        }
    }
    out
}

fn object_ids(page: &Page) -> Vec<&ObjectId> {
    page.objects.iter().map(|o| &o.id).collect()
}
