//! Merging two versions of a board made from one base, when they changed different
//! records: how the application takes in a file another program changed while the
//! board on screen had unsaved changes of its own, without asking the person.
//!
//! A record is the title, a page (its name, unknown fields and place among the
//! pages), or an object (its content and its page). Two versions conflict when both
//! changed the same record differently, when one changed the pages while the other
//! changed anything on a page the first removed, or when "theirs" reordered objects
//! on a page (the order of a page is one record, and the person's side is not
//! compared for it). Anything else is merged: "theirs"' changes are applied on top
//! of the board as steps, and the commit checks that references still hold.

use std::collections::HashSet;

use crate::{Board, ModelError, ObjectId, PageId, Step, Transaction};

/// Why two versions could not be merged (then the caller keeps both).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overlap(pub String);

/// The object ids whose record differs from `base` to `other`.
fn changed_objects(base: &Board, other: &Board) -> HashSet<ObjectId> {
    let mut out = HashSet::new();
    for page in other.pages() {
        for object in &page.objects {
            let same = base.object(&object.id) == Some(object)
                && base.locate(&object.id).map(|l| l.0) == Some(page.id);
            if !same {
                out.insert(object.id.clone());
            }
        }
    }
    for page in base.pages() {
        for object in &page.objects {
            if other.locate(&object.id).is_none() {
                out.insert(object.id.clone());
            }
        }
    }
    out
}

/// Whether the pages themselves (ids, order, names, unknown fields) differ.
fn pages_differ(base: &Board, other: &Board) -> bool {
    base.pages().len() != other.pages().len()
        || base
            .pages()
            .iter()
            .zip(other.pages())
            .any(|(a, b)| a.id != b.id || a.name != b.name || a.extra != b.extra)
}

/// Whether `other` put objects that both versions hold in another order on a page.
fn reordered(base: &Board, other: &Board) -> bool {
    other.pages().iter().any(|page| {
        let Some(before) = base.page(page.id) else {
            return false;
        };
        let kept: HashSet<&ObjectId> = page.objects.iter().map(|o| &o.id).collect();
        let a = before
            .objects
            .iter()
            .map(|o| &o.id)
            .filter(|id| kept.contains(id));
        let in_base: HashSet<&ObjectId> = before.objects.iter().map(|o| &o.id).collect();
        let b = page
            .objects
            .iter()
            .map(|o| &o.id)
            .filter(|id| in_base.contains(id));
        !a.eq(b)
    })
}

impl Transaction<'_> {
    /// Applies the changes `theirs` made to `base` on top of this board (which
    /// is `base` with changes of its own), if the two changed different records.
    /// On [`Overlap`] nothing is changed. A board over a limit or a dangling
    /// reference made by the two together is left to the commit to refuse.
    pub fn merge_from(&mut self, base: &Board, theirs: &Board) -> Result<(), MergeError> {
        let mine_board = self.board().clone();
        if theirs.title() != base.title()
            && mine_board.title() != base.title()
            && theirs.title() != mine_board.title()
        {
            return Err(MergeError::Overlap(Overlap(
                "both changed the title".into(),
            )));
        }
        let theirs_pages = pages_differ(base, theirs);
        let mine_pages = pages_differ(base, &mine_board);
        if theirs_pages && mine_pages {
            return Err(MergeError::Overlap(Overlap(
                "both changed the pages".into(),
            )));
        }
        if reordered(base, theirs) {
            return Err(MergeError::Overlap(Overlap(
                "the other version reordered objects".into(),
            )));
        }
        let theirs_changed = changed_objects(base, theirs);
        let mine_changed = changed_objects(base, &mine_board);
        if let Some(id) = theirs_changed
            .intersection(&mine_changed)
            .find(|id| theirs.object(id) != mine_board.object(id))
        {
            return Err(MergeError::Overlap(Overlap(format!(
                "both changed object {id}"
            ))));
        }
        // Pages the other version removed must hold nothing the person changed.
        let gone: Vec<PageId> = base
            .pages()
            .iter()
            .filter(|p| theirs.page(p.id).is_none())
            .map(|p| p.id)
            .collect();
        if mine_changed.iter().any(|id| {
            mine_board
                .locate(id)
                .is_some_and(|(page, _)| gone.contains(&page))
        }) {
            return Err(MergeError::Overlap(Overlap(
                "the other version removed a page the person changed".into(),
            )));
        }
        self.set_title(if theirs.title() != base.title() {
            theirs.title()
        } else {
            mine_board.title()
        })?;
        // Objects first leave (removed, or moving to another page), so that pages
        // can go and ids are free for their new place.
        for id in &theirs_changed {
            if mine_changed.contains(id) {
                continue;
            }
            let Some((page, index)) = self.board().locate(id) else {
                continue;
            };
            let Some(object) = self.board().object(id).cloned() else {
                continue;
            };
            let stays = theirs.locate(id).map(|l| l.0) == Some(page);
            match theirs.object(id) {
                Some(after) if stays => self.record(Step::Replace {
                    page,
                    index,
                    before: object,
                    after: after.clone(),
                })?,
                _ => self.record(Step::Remove {
                    page,
                    index,
                    object,
                })?,
            }
        }
        if theirs_pages {
            // The person did not touch the pages: take the other version's, with
            // the objects each holds here.
            let mut pages = Vec::new();
            for page in theirs.pages() {
                let mut p = page.clone();
                p.objects = match self.board().page(page.id) {
                    Some(here) => here.objects.clone(),
                    None => Vec::new(),
                };
                pages.push(p);
            }
            let here = self.board();
            let target = Board::from_parts(
                here.title().to_string(),
                pages,
                here.next_object,
                here.revision(),
                here.extra.clone(),
            )?;
            self.rewrite_to(&target)?;
        }
        // Then objects arrive: new ones, and ones that moved to another page, at
        // their place in the other version (clamped to the page here).
        for page in theirs.pages() {
            for (index, object) in page.objects.iter().enumerate() {
                if !theirs_changed.contains(&object.id) || mine_changed.contains(&object.id) {
                    continue;
                }
                if self.board().locate(&object.id).is_some() {
                    continue;
                }
                let len = self.board().page(page.id).map_or(0, |p| p.objects.len());
                self.record(Step::Insert {
                    page: page.id,
                    index: index.min(len),
                    object: object.clone(),
                })?;
            }
        }
        // Ids the other version used (or used and deleted) are never handed out.
        self.board.next_object = self.board.next_object.max(theirs.next_object);
        self.board.next_page = self.board.next_page.max(theirs.next_page);
        Ok(())
    }
}

/// Why [`Transaction::merge_from`] did not merge.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// Both versions changed the same record: keep both and ask.
    #[error("the two versions overlap: {}", .0 .0)]
    Overlap(Overlap),
    /// A step was refused (a limit).
    #[error(transparent)]
    Model(#[from] ModelError),
}
