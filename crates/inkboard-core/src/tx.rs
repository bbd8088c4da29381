//! Transactions: the only way to change a [`Board`]. Every edit is recorded as a
//! [`Step`] holding the before and after of the record it touched. Dropping a
//! transaction without committing undoes its steps in reverse, so an error anywhere
//! leaves no trace; committing checks the cross-record invariants once and hands back
//! the steps as a [`Commit`], the value that undo, redo, the change log, live updates
//! and file writes are all made from.
//!
//! The [`limits`](crate::limits) are checked on each step instead, before it is
//! applied: unlike a reference, which may dangle between two steps of one change, a
//! record over a limit is never right, and refusing the very step lets `batch` name
//! the operation at fault and keep what came before it when it is not atomic.

use crate::order::Moved;
use crate::{limits, Board, IdKind, Kind, ModelError, Object, ObjectId, Page, PageId};

/// Who made a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    /// An AI agent, through a tool call.
    Agent,
    /// A person, in the application (or another program editing the file).
    User,
}

impl Actor {
    pub fn name(self) -> &'static str {
        match self {
            Actor::Agent => "agent",
            Actor::User => "user",
        }
    }
}

/// One primitive edit, with enough data to apply it and its inverse.
// `Replace`, the largest variant (two objects), is also the commonest step: every
// edit is one. Boxing its objects would add two allocations to each edit to save
// space only on the rarer steps.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Insert {
        page: PageId,
        index: usize,
        object: Object,
    },
    Remove {
        page: PageId,
        index: usize,
        object: Object,
    },
    Replace {
        page: PageId,
        index: usize,
        before: Object,
        after: Object,
    },
    InsertPage {
        index: usize,
        page: Page,
    },
    RemovePage {
        index: usize,
        page: Page,
    },
    RenamePage {
        page: PageId,
        before: String,
        after: String,
    },
    SetTitle {
        before: String,
        after: String,
    },
}

impl Step {
    /// The step that undoes this one: a swap of before and after.
    pub fn inverse(&self) -> Step {
        match self.clone() {
            Step::Insert {
                page,
                index,
                object,
            } => Step::Remove {
                page,
                index,
                object,
            },
            Step::Remove {
                page,
                index,
                object,
            } => Step::Insert {
                page,
                index,
                object,
            },
            Step::Replace {
                page,
                index,
                before,
                after,
            } => Step::Replace {
                page,
                index,
                before: after,
                after: before,
            },
            Step::InsertPage { index, page } => Step::RemovePage { index, page },
            Step::RemovePage { index, page } => Step::InsertPage { index, page },
            Step::RenamePage {
                page,
                before,
                after,
            } => Step::RenamePage {
                page,
                before: after,
                after: before,
            },
            Step::SetTitle { before, after } => Step::SetTitle {
                before: after,
                after: before,
            },
        }
    }

    /// Applies the step, first checking that what it takes away or overwrites is
    /// on the board as the step recorded it. A step applied where it was recorded
    /// (and its inverse, right after) always passes; an undo or redo after changes
    /// made outside its history fails instead of clobbering them.
    fn apply(&self, board: &mut Board) -> Result<(), ModelError> {
        match self {
            Step::Insert {
                page,
                index,
                object,
            } => board.raw_insert(*page, *index, object.clone()),
            Step::Remove {
                page,
                index,
                object,
            } => {
                expect_object(board, *page, *index, object)?;
                board.raw_remove(*page, *index).map(drop)
            }
            Step::Replace {
                page,
                index,
                before,
                after,
            } => {
                expect_object(board, *page, *index, before)?;
                board.raw_replace(*page, *index, after.clone()).map(drop)
            }
            Step::InsertPage { index, page } => board.raw_insert_page(*index, page.clone()),
            Step::RemovePage { index, page } => {
                if board.pages.get(*index).is_some_and(|here| here != page) {
                    return Err(ModelError::Stale(format!("page {}", page.id)));
                }
                board.raw_remove_page(*index).map(drop)
            }
            Step::RenamePage {
                page,
                before,
                after,
            } => {
                let p = board.page_mut(*page)?;
                if p.name != *before {
                    return Err(ModelError::Stale(format!("the name of page {page}")));
                }
                p.name = after.clone();
                Ok(())
            }
            Step::SetTitle { before, after } => {
                if board.title != *before {
                    return Err(ModelError::Stale("the title".to_string()));
                }
                board.title = after.clone();
                Ok(())
            }
        }
    }
}

/// Checks that `expected` is at position `index` of `page`, as a step recorded it.
fn expect_object(
    board: &Board,
    page: PageId,
    index: usize,
    expected: &Object,
) -> Result<(), ModelError> {
    let objects = &board
        .page(page)
        .ok_or(ModelError::NoSuchPage(page))?
        .objects;
    match objects.get(index) {
        Some(here) if here == expected => Ok(()),
        Some(_) => Err(ModelError::Stale(format!("object \"{}\"", expected.id))),
        None => Err(ModelError::NoSuchPosition {
            index,
            len: objects.len(),
        }),
    }
}

/// A committed transaction: its revision, its author, its steps in order, and what
/// they moved in the z-order or among the pages (which steps alone do not say).
#[derive(Clone, Debug, PartialEq)]
pub struct Commit {
    pub revision: u64,
    pub by: Actor,
    pub steps: Vec<Step>,
    pub moved: Moved,
}

impl Commit {
    /// The steps that undo this commit, in the order to apply them.
    pub fn inverse_steps(&self) -> Vec<Step> {
        self.steps.iter().rev().map(Step::inverse).collect()
    }
}

/// A point a transaction can roll back to without dropping what came before.
#[derive(Clone, Copy, Debug)]
pub struct Savepoint {
    steps: usize,
    next_object: u64,
    next_page: u32,
}

/// A change in progress on a board. See the module documentation.
pub struct Transaction<'b> {
    pub(crate) board: &'b mut Board,
    steps: Vec<Step>,
    start: Savepoint,
    finished: bool,
}

impl<'b> Transaction<'b> {
    pub fn begin(board: &'b mut Board) -> Self {
        let start = Savepoint {
            steps: 0,
            next_object: board.next_object,
            next_page: board.next_page,
        };
        Transaction {
            board,
            steps: Vec::new(),
            start,
            finished: false,
        }
    }

    /// The board as the transaction has changed it so far.
    pub fn board(&self) -> &Board {
        self.board
    }

    /// True when nothing has changed yet.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The pages whose objects changed so far, or that were added, as they stand
    /// on the board now, in page order: what a check after the change looks at.
    pub fn pages_touched(&self) -> Vec<PageId> {
        let touched: Vec<PageId> = self
            .steps
            .iter()
            .filter_map(|step| match step {
                Step::Insert { page, .. }
                | Step::Remove { page, .. }
                | Step::Replace { page, .. } => Some(*page),
                Step::InsertPage { page, .. } => Some(page.id),
                _ => None,
            })
            .collect();
        self.board
            .pages()
            .iter()
            .map(|p| p.id)
            .filter(|id| touched.contains(id))
            .collect()
    }

    pub(crate) fn record(&mut self, step: Step) -> Result<(), ModelError> {
        limits::check_step(self.board, &step)?;
        step.apply(self.board)?;
        self.steps.push(step);
        Ok(())
    }

    /// Hands out a new, never used object id.
    pub fn new_id(&mut self, kind: IdKind) -> ObjectId {
        self.board.allocate(kind)
    }

    /// Adds an object to a page at z-position `index` (`None`: on top).
    pub fn insert(
        &mut self,
        page: PageId,
        index: Option<usize>,
        object: Object,
    ) -> Result<(), ModelError> {
        let len = self
            .board
            .page(page)
            .ok_or(ModelError::NoSuchPage(page))?
            .objects
            .len();
        if self.board.locate(&object.id).is_some() {
            return Err(ModelError::DuplicateId(object.id));
        }
        let index = index.unwrap_or(len).min(len);
        self.record(Step::Insert {
            page,
            index,
            object,
        })
    }

    /// Adds a new object of `kind` to a page at z-position `index` (`None`: on
    /// top), under a new id, which it returns.
    pub fn add(
        &mut self,
        page: PageId,
        index: Option<usize>,
        kind: Kind,
    ) -> Result<ObjectId, ModelError> {
        let id = self.new_id(kind.id_kind());
        self.insert(page, index, Object::new(id.clone(), kind))?;
        Ok(id)
    }

    /// Replaces the object with the same id. Recording nothing when it is unchanged.
    pub fn replace(&mut self, object: Object) -> Result<(), ModelError> {
        let (page, index) = self
            .board
            .locate(&object.id)
            .ok_or_else(|| ModelError::NoSuchObject(object.id.clone()))?;
        let before = self
            .board
            .page(page)
            .map(|p| p.objects[index].clone())
            .ok_or(ModelError::NoSuchPage(page))?;
        if before == object {
            return Ok(());
        }
        self.record(Step::Replace {
            page,
            index,
            before,
            after: object,
        })
    }

    /// Changes an object in place through `edit`.
    pub fn edit(
        &mut self,
        id: &ObjectId,
        edit: impl FnOnce(&mut Object),
    ) -> Result<(), ModelError> {
        let mut object = self
            .board
            .object(id)
            .cloned()
            .ok_or_else(|| ModelError::NoSuchObject(id.clone()))?;
        edit(&mut object);
        object.id = id.clone();
        self.replace(object)
    }

    /// Removes an object and returns it. Connectors and groups that refer to it must
    /// go or change in the same transaction, or the commit fails.
    pub fn remove(&mut self, id: &ObjectId) -> Result<Object, ModelError> {
        let (page, index) = self
            .board
            .locate(id)
            .ok_or_else(|| ModelError::NoSuchObject(id.clone()))?;
        let object = self
            .board
            .page(page)
            .map(|p| p.objects[index].clone())
            .ok_or(ModelError::NoSuchPage(page))?;
        self.record(Step::Remove {
            page,
            index,
            object: object.clone(),
        })?;
        Ok(object)
    }

    /// Moves an object to z-position `to` on its page (clamped to the page).
    pub fn reorder(&mut self, id: &ObjectId, to: usize) -> Result<(), ModelError> {
        let (page, index) = self
            .board
            .locate(id)
            .ok_or_else(|| ModelError::NoSuchObject(id.clone()))?;
        if index == to {
            return Ok(());
        }
        let object = self.remove(id)?;
        let _ = index;
        self.insert(page, Some(to), object)
    }

    /// Adds an empty page at `index` (`None`: last) and returns its id. Fails only
    /// over a limit: too many pages, or too long a name.
    pub fn add_page(&mut self, name: &str, index: Option<usize>) -> Result<PageId, ModelError> {
        let id = self.board.allocate_page();
        let index = index
            .unwrap_or(self.board.pages.len())
            .min(self.board.pages.len());
        let step = Step::InsertPage {
            index,
            page: Page::new(id, name),
        };
        self.record(step)?;
        Ok(id)
    }

    pub fn rename_page(&mut self, page: PageId, name: &str) -> Result<(), ModelError> {
        let before = self
            .board
            .page(page)
            .ok_or(ModelError::NoSuchPage(page))?
            .name
            .clone();
        if before == name {
            return Ok(());
        }
        self.record(Step::RenamePage {
            page,
            before,
            after: name.to_string(),
        })
    }

    /// Removes a page with everything on it. The last page cannot go.
    pub fn remove_page(&mut self, page: PageId) -> Result<Page, ModelError> {
        let index = self
            .board
            .page_position(page)
            .ok_or(ModelError::NoSuchPage(page))?;
        if self.board.pages.len() == 1 {
            return Err(ModelError::LastPage);
        }
        let removed = self.board.pages[index].clone();
        self.record(Step::RemovePage {
            index,
            page: removed.clone(),
        })?;
        Ok(removed)
    }

    pub fn set_title(&mut self, title: &str) -> Result<(), ModelError> {
        let before = self.board.title.clone();
        if before == title {
            return Ok(());
        }
        self.record(Step::SetTitle {
            before,
            after: title.to_string(),
        })
    }

    /// Applies recorded steps (used by undo and redo).
    pub fn apply_steps(&mut self, steps: &[Step]) -> Result<(), ModelError> {
        for step in steps {
            self.record(step.clone())?;
        }
        Ok(())
    }

    /// Marks a point to come back to with [`rollback_to`](Self::rollback_to).
    pub fn savepoint(&self) -> Savepoint {
        Savepoint {
            steps: self.steps.len(),
            next_object: self.board.next_object,
            next_page: self.board.next_page,
        }
    }

    /// Undoes every step taken since the savepoint.
    pub fn rollback_to(&mut self, point: Savepoint) {
        while self.steps.len() > point.steps {
            if let Some(step) = self.steps.pop() {
                // The inverse of a step just applied always applies.
                let _ = step.inverse().apply(self.board);
            }
        }
        self.board.next_object = point.next_object;
        self.board.next_page = point.next_page;
    }

    /// Checks the invariants and makes the change permanent. Returns `None` when
    /// nothing changed (no revision is used up), and rolls everything back on error.
    ///
    /// Steps that cancel out (a page added and deleted, a rename and its way back,
    /// an object taken out and put back where it was) change nothing either: the
    /// board is then as it was, and no revision is used up. The ids they handed out
    /// stay used in memory, but, with no file write, a board read again from its
    /// file may hand them out again.
    pub fn commit(mut self, by: Actor) -> Result<Option<Commit>, ModelError> {
        if let Err(e) = self.check() {
            self.rollback_to(self.start);
            self.finished = true;
            return Err(e);
        }
        self.finished = true;
        if self.steps.is_empty() {
            return Ok(None);
        }
        let commit = Commit {
            revision: self.board.revision.saturating_add(1),
            by,
            moved: Moved::by(self.board, &self.steps),
            steps: std::mem::take(&mut self.steps),
        };
        if commit.changes().is_empty() && !commit.changes_title() {
            return Ok(None);
        }
        self.board.revision = commit.revision;
        Ok(Some(commit))
    }

    /// Connector ends and group members must resolve on their page. Where something
    /// was removed, every reference on that page is checked; elsewhere only the
    /// records this transaction wrote.
    fn check(&self) -> Result<(), ModelError> {
        let mut full: Vec<PageId> = Vec::new();
        for step in &self.steps {
            match step {
                Step::Remove { page, .. } => full.push(*page),
                Step::InsertPage { page, .. } => full.push(page.id),
                _ => {}
            }
        }
        full.sort();
        full.dedup();
        for page in &full {
            if let Some(p) = self.board.page(*page) {
                self.board.check_references(*page, p.objects.iter())?;
            }
        }
        for step in &self.steps {
            let (page, id) = match step {
                Step::Insert { page, object, .. } => (*page, &object.id),
                Step::Replace { page, after, .. } => (*page, &after.id),
                _ => continue,
            };
            if full.contains(&page) {
                continue;
            }
            if let Some(object) = self.board.object(id) {
                if matches!(object.kind, Kind::Connector(_) | Kind::Group(_)) {
                    self.board.check_references(page, std::iter::once(object))?;
                }
            }
        }
        Ok(())
    }
}

impl Drop for Transaction<'_> {
    /// A transaction dropped without commit leaves no trace.
    fn drop(&mut self) {
        if !self.finished {
            self.rollback_to(self.start);
        }
    }
}

impl Board {
    /// Takes back the latest commit as if it had never happened, revision included.
    /// Used when the write that was to follow the commit failed. `commit` must be
    /// the last one made on this board; if the board has changed since, nothing is
    /// taken back and the error says what changed.
    pub fn revert(&mut self, commit: &Commit) -> Result<(), ModelError> {
        let mut tx = Transaction::begin(self);
        // On error the transaction drops and undoes the steps it has taken.
        tx.apply_steps(&commit.inverse_steps())?;
        // Kept without a commit: the ids the commit used stay used.
        tx.finished = true;
        drop(tx);
        self.revision = commit.revision.saturating_sub(1);
        Ok(())
    }

    /// Moves the revision forward to `revision` (never back): used when a change
    /// arrived from outside (another program rewrote the file) without a new one.
    pub fn advance_revision(&mut self, revision: u64) {
        self.revision = self.revision.max(revision);
    }
}
