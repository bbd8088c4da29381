//! The change log's entries: what a commit did to each object and page, summed up
//! per record (first before, last after), and the same summary computed between two
//! boards, for edits that arrived as a new file rather than as steps.

use std::collections::HashMap;

use crate::{Actor, Board, Commit, Object, ObjectId, PageId, Step};

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

impl Commit {
    /// The commit summed up per record, in the order records were first touched.
    pub fn changes(&self) -> Vec<Change> {
        let mut order: Vec<ObjectId> = Vec::new();
        let mut net: HashMap<ObjectId, Net> = HashMap::new();
        // Pages are netted like records: what each was before the commit (name, if
        // it existed) and after it, in the order first touched.
        let mut page_order: Vec<PageId> = Vec::new();
        let mut page_net: HashMap<PageId, (Option<String>, Option<String>)> = HashMap::new();
        let mut page_step = |id: PageId, before: Option<&str>, after: Option<&str>| {
            let entry = page_net.entry(id).or_insert_with(|| {
                page_order.push(id);
                (before.map(str::to_owned), None)
            });
            entry.1 = after.map(str::to_owned);
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
                    page_step(page.id, None, Some(&page.name));
                    for o in &page.objects {
                        touch(page.id, None, Some(o));
                    }
                }
                Step::RemovePage { page, .. } => {
                    for o in &page.objects {
                        touch(page.id, Some(o), None);
                    }
                    page_step(page.id, Some(&page.name), None);
                }
                Step::RenamePage {
                    page,
                    before,
                    after,
                    ..
                } => page_step(*page, Some(before), Some(after)),
                Step::SetTitle { .. } => {}
            }
        }
        let mut out = Vec::new();
        for id in page_order {
            let (kind, name) = match &page_net[&id] {
                (None, Some(after)) => (ChangeKind::Added, after),
                (Some(before), None) => (ChangeKind::Removed, before),
                (Some(before), Some(after)) if before != after => (ChangeKind::Updated, after),
                // Renamed back, moved, or added and removed again: nothing to tell.
                _ => continue,
            };
            out.push(Change {
                revision: self.revision,
                by: self.by,
                kind,
                page: id,
                id: None,
                object: None,
                page_name: Some(name.clone()),
            });
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
            out.push(Change {
                revision: self.revision,
                by: self.by,
                kind,
                page,
                id: Some(id.clone()),
                object: n.after.clone(),
                page_name: None,
            });
        }
        out
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
    for page in new.pages() {
        match old.page(page.id) {
            None => out.push(entry(
                ChangeKind::Added,
                page.id,
                None,
                None,
                Some(page.name.clone()),
            )),
            Some(before) if before.name != page.name => out.push(entry(
                ChangeKind::Updated,
                page.id,
                None,
                None,
                Some(page.name.clone()),
            )),
            _ => {}
        }
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
                    if before != object || old.locate(&object.id).map(|l| l.0) != Some(page.id) =>
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
