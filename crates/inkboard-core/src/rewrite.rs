//! Rewriting a board to another version of itself, step by step: how a version
//! that arrived from outside (another program rewrote the file, a recovered copy)
//! becomes one ordinary [`Commit`], so that undo, the change log, live updates and
//! the file write all treat it like any other change.
//!
//! The steps are the plain ones of [`Step`]: objects and pages removed, inserted,
//! replaced or renamed, so the commit's inverse gives back the board as it was.

use crate::{Board, ModelError, Page, Step, Transaction};

impl Transaction<'_> {
    /// Changes the board until its content (title, pages, objects and their order)
    /// is `target`'s. Objects keep their ids; an object that moved between pages or
    /// in the z-order is removed and inserted again.
    ///
    /// Limitations: the board's own unknown fields (kept verbatim from a file) are
    /// not records with steps: they are taken from `target` here and are not given
    /// back by undo or a rollback. A page whose unknown fields differ is replaced
    /// whole.
    pub fn rewrite_to(&mut self, target: &Board) -> Result<(), ModelError> {
        self.set_title(target.title())?;
        // Objects that are not where `target` has them go first, so that every
        // insert below finds its id free.
        for page in self.board().pages().to_vec() {
            for (index, object) in page.objects.iter().enumerate().rev() {
                if target.locate(&object.id).map(|l| l.0) != Some(page.id) {
                    self.record(Step::Remove {
                        page: page.id,
                        index,
                        object: object.clone(),
                    })?;
                }
            }
        }
        // Pages `target` has not go (the last one only once its successors are in),
        // then pages new to this board come in empty, at the end.
        let gone: Vec<Page> = self
            .board()
            .pages()
            .iter()
            .filter(|p| target.page(p.id).is_none())
            .cloned()
            .collect();
        let keeps_one = gone.len() == self.board().pages().len();
        for page in gone.iter().skip(usize::from(keeps_one)) {
            self.remove_whole_page(page)?;
        }
        for page in target.pages() {
            if self.board().page(page.id).is_none() {
                let mut empty = page.clone();
                empty.objects.clear();
                let index = self.board().pages().len();
                self.record(Step::InsertPage { index, page: empty })?;
            }
        }
        if keeps_one {
            if let Some(page) = gone.first() {
                self.remove_whole_page(page)?;
            }
        }
        // Pages in `target`'s order, with its names and unknown fields.
        for (index, want) in target.pages().iter().enumerate() {
            // Every page of `target` was inserted above, so each is found.
            let here = self
                .board()
                .page_position(want.id)
                .ok_or(ModelError::NoSuchPage(want.id))?;
            let page = self.board().pages()[here].clone();
            if here != index || page.extra != want.extra {
                self.record(Step::RemovePage {
                    index: here,
                    page: page.clone(),
                })?;
                let mut moved = page;
                moved.extra = want.extra.clone();
                self.record(Step::InsertPage { index, page: moved })?;
            }
            self.rename_page(want.id, &want.name)?;
        }
        // Objects in `target`'s order on each page: every object still here is in
        // `target` on this page, so walking `target`'s list leaves nothing behind.
        for want_page in target.pages() {
            let page = want_page.id;
            for (index, want) in want_page.objects.iter().enumerate() {
                let current = self.board().page(page).and_then(|p| p.objects.get(index));
                match current {
                    Some(here) if here.id == want.id => {
                        if here != want {
                            let before = here.clone();
                            self.record(Step::Replace {
                                page,
                                index,
                                before,
                                after: want.clone(),
                            })?;
                        }
                    }
                    _ => {
                        // Where it is now, on this page or another: taken out there.
                        if let Some((from, at)) = self.board().locate(&want.id) {
                            let object = self
                                .board()
                                .object(&want.id)
                                .cloned()
                                .ok_or_else(|| ModelError::NoSuchObject(want.id.clone()))?;
                            self.record(Step::Remove {
                                page: from,
                                index: at,
                                object,
                            })?;
                        }
                        self.record(Step::Insert {
                            page,
                            index,
                            object: want.clone(),
                        })?;
                    }
                }
            }
        }
        self.board.next_object = self.board.next_object.max(target.next_object);
        self.board.next_page = self.board.next_page.max(target.next_page);
        if self.board.extra != target.extra {
            self.board.extra = target.extra.clone();
        }
        Ok(())
    }

    fn remove_whole_page(&mut self, page: &Page) -> Result<(), ModelError> {
        let index = self
            .board()
            .page_position(page.id)
            .ok_or(ModelError::NoSuchPage(page.id))?;
        let page = self.board().pages()[index].clone();
        self.record(Step::RemovePage { index, page })
    }
}
