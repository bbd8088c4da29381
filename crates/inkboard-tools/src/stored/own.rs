//! Undo of one's own on a shared board (server mode): each person's steps, theirs
//! and their agent's calls alike, kept apart, and taken back property by property,
//! so that what others changed since stays as they left it.
//!
//! On a file or the application's board, undo takes back the last step of the
//! board's one history, and fails whole when a later change touched the same
//! records. A stored board has many people on it at once, on several processes:
//! Ann's Ctrl+Z must take back Ann's last step (or her agent's last call, one step
//! as it was one call), never Bob's, even when Bob changed the same shape since.
//! So each person has their own stacks ([`OwnHistory`], keyed by the person, which
//! their agent shares), filled with the commits this process saw them make, here or
//! replayed from the store; and a step is taken back *selectively*
//! ([`take_back`]): per object, each property the step changed goes back only
//! where it still holds what the step left; a property someone changed since keeps
//! their value, and the answer names it. An object the step made goes away, one it
//! deleted comes back, unless that would break what others made since (a
//! connector of theirs ending on it): then it stays, and the answer says so.
//!
//! Limitations: a process knows a person's steps from the commits it has seen since
//! it loaded the board (its latest snapshot and the changes after it), so a step
//! made before that snapshot cannot be undone; an undo made on one process reaches
//! another as an ordinary change, which that process's stacks count as a new step of
//! the person.

use std::collections::{BTreeSet, HashMap};

use inkboard_core::{Board, Commit, Kind, Object, ObjectId, Page, PageId, Step, Transaction};
use inkboard_format::json::{object_from_json, object_to_json, Detail};
use serde_json::{Map, Value};

/// How many steps each person can take back.
const LIMIT: usize = 100;

/// What an undo (or redo) on a shared board did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undone {
    /// The person had no step to take back (or to do again).
    Nothing,
    /// A step was taken: `kept` says, one sentence each, what of it could not be
    /// undone because someone changed it since (empty when all of it was).
    Done { kept: Vec<String> },
}

/// Each person's undo and redo stacks on one stored board, by a key naming the
/// person (their agent's calls count as theirs).
#[derive(Clone, Debug, Default)]
pub struct OwnHistory {
    people: HashMap<String, Stacks>,
}

#[derive(Clone, Debug, Default)]
struct Stacks {
    done: Vec<Commit>,
    undone: Vec<Commit>,
}

impl OwnHistory {
    /// Records a step `whose` made (a call of theirs or of their agent, here or on
    /// another process), forgetting what they could redo.
    pub fn record(&mut self, whose: &str, commit: &Commit) {
        let stacks = self.people.entry(whose.to_string()).or_default();
        stacks.done.push(commit.clone());
        if stacks.done.len() > LIMIT {
            stacks.done.remove(0);
        }
        stacks.undone.clear();
    }

    /// Whether `whose` has a step to take back.
    pub fn can_undo(&self, whose: &str) -> bool {
        self.people.get(whose).is_some_and(|s| !s.done.is_empty())
    }

    /// Whether `whose` took back a step that could be done again.
    pub fn can_redo(&self, whose: &str) -> bool {
        self.people.get(whose).is_some_and(|s| !s.undone.is_empty())
    }

    /// Takes the step an undo (or a redo) of `whose` works on off its stack.
    pub(crate) fn take(&mut self, whose: &str, redo: bool) -> Option<Commit> {
        let stacks = self.people.get_mut(whose)?;
        if redo {
            stacks.undone.pop()
        } else {
            stacks.done.pop()
        }
    }

    /// Puts a step [`take`](Self::take) took back where it was: the undo did not
    /// happen.
    pub(crate) fn put_back(&mut self, whose: &str, redo: bool, step: Commit) {
        let stacks = self.people.entry(whose.to_string()).or_default();
        if redo {
            stacks.undone.push(step);
        } else {
            stacks.done.push(step);
        }
    }

    /// Keeps the commit an undo (or a redo) made, on the other stack: a redo is
    /// the selective undo of the undo.
    pub(crate) fn keep_made(&mut self, whose: &str, redo: bool, made: Commit) {
        let stacks = self.people.entry(whose.to_string()).or_default();
        if redo {
            stacks.done.push(made);
        } else {
            stacks.undone.push(made);
        }
    }
}

/// Where an object was and what it held: its page, its place in the page's
/// stacking order, the object.
type Placed = (PageId, usize, Object);

/// What one commit did to one object, from before its first step to after its
/// last: `None` where the object was not there.
struct Net {
    id: ObjectId,
    before: Option<Placed>,
    after: Option<Placed>,
}

/// What one commit did to the pages and the title, from first to last.
#[derive(Default)]
struct Pages {
    title: Option<(String, String)>,
    /// Renamed pages: id → (name before, name after).
    renamed: Vec<(PageId, String, String)>,
    /// Pages it added (and did not take away again).
    added: Vec<PageId>,
    /// Pages it took away, with their place and everything on them.
    removed: Vec<(usize, Page)>,
}

/// The commit's steps folded into what each object and page went through.
fn fold(commit: &Commit) -> (Vec<Net>, Pages) {
    let mut nets: Vec<Net> = Vec::new();
    let mut at: HashMap<ObjectId, usize> = HashMap::new();
    let mut pages = Pages::default();
    let mut net = |id: &ObjectId, before: Option<(PageId, usize, &Object)>| {
        let i = *at.entry(id.clone()).or_insert_with(|| {
            nets.push(Net {
                id: id.clone(),
                before: before.map(|(p, i, o)| (p, i, o.clone())),
                after: None,
            });
            nets.len() - 1
        });
        i
    };
    let mut afters: Vec<(usize, Option<Placed>)> = Vec::new();
    for step in &commit.steps {
        match step {
            Step::Insert {
                page,
                index,
                object,
            } => {
                let i = net(&object.id, None);
                afters.push((i, Some((*page, *index, object.clone()))));
            }
            Step::Remove {
                page,
                index,
                object,
            } => {
                let i = net(&object.id, Some((*page, *index, object)));
                afters.push((i, None));
            }
            Step::Replace {
                page,
                index,
                before,
                after,
            } => {
                let i = net(&after.id, Some((*page, *index, before)));
                afters.push((i, Some((*page, *index, after.clone()))));
            }
            Step::InsertPage { page, .. } => pages.added.push(page.id),
            Step::RemovePage { index, page } => {
                if let Some(i) = pages.added.iter().position(|p| *p == page.id) {
                    pages.added.remove(i);
                } else {
                    pages.removed.push((*index, page.clone()));
                }
            }
            Step::RenamePage {
                page,
                before,
                after,
            } => match pages.renamed.iter_mut().find(|r| r.0 == *page) {
                Some(r) => r.2 = after.clone(),
                None => pages.renamed.push((*page, before.clone(), after.clone())),
            },
            Step::SetTitle { before, after } => match &mut pages.title {
                Some(t) => t.1 = after.clone(),
                None => pages.title = Some((before.clone(), after.clone())),
            },
        }
    }
    for (i, after) in afters {
        nets[i].after = after;
    }
    (nets, pages)
}

/// Takes back what `commit` did, in `tx`, as far as the board still holds what it
/// left (see the module docs). Answers what could not be taken back, one sentence
/// each. Every change it makes leaves the board's references whole, so the
/// transaction commits.
pub(crate) fn take_back(tx: &mut Transaction<'_>, commit: &Commit) -> Vec<String> {
    let (nets, pages) = fold(commit);
    let mut kept = Vec::new();
    let mut refs = Referrers::of(tx.board());
    if let Some((before, after)) = &pages.title {
        if tx.board().title() == after {
            let _ = tx.set_title(before);
        } else {
            kept.push("the board's title: changed since by someone else".to_string());
        }
    }
    for (page, before, after) in &pages.renamed {
        match tx.board().page(*page).map(|p| p.name.clone()) {
            Some(now) if now == *after => {
                let _ = tx.rename_page(*page, before);
            }
            Some(now) => kept.push(format!("page \"{now}\": renamed since by someone else")),
            None => {}
        }
    }
    for (index, page) in &pages.removed {
        if bring_back_page(tx, *index, page, &mut kept) {
            page.objects.iter().for_each(|o| refs.add(o));
        }
    }
    // Shapes come back before the connectors and groups that refer to them, and
    // go after them.
    let refers = |n: &&Net| {
        let o = n.before.as_ref().or(n.after.as_ref()).map(|(_, _, o)| o);
        o.is_some_and(|o| matches!(o.kind, Kind::Connector(_) | Kind::Group(_)))
    };
    let (linking, plain): (Vec<&Net>, Vec<&Net>) = nets.iter().partition(refers);
    for n in plain.iter().chain(&linking) {
        if let (Some(before), None) = (&n.before, &n.after) {
            bring_back(tx, &mut refs, before, &mut kept);
        }
    }
    for n in plain.iter().chain(&linking) {
        if let (Some(before), Some(after)) = (&n.before, &n.after) {
            restore(tx, &mut refs, &n.id, (before, after), &mut kept);
        }
    }
    for n in linking.iter().chain(&plain) {
        if let (None, Some(after)) = (&n.before, &n.after) {
            take_away(tx, &refs, &after.2, &mut kept);
        }
    }
    for page in &pages.added {
        let Some(p) = tx.board().page(*page) else {
            continue;
        };
        if !p.objects.is_empty() {
            kept.push(format!(
                "page \"{}\": others put objects on it since",
                p.name
            ));
        } else if tx.board().pages().len() > 1 {
            let _ = tx.remove_page(*page);
        }
    }
    kept
}

/// Which objects refer to each object (connector ends, group members): made once
/// from the board as a step is taken back, and kept up as objects come back, so
/// that each change is checked against its own references and its referrers
/// only. Checking the whole page after each change made taking back a layout of
/// 20,000 shapes on their page 20,000 page walks.
struct Referrers(HashMap<ObjectId, Vec<ObjectId>>);

impl Referrers {
    fn of(board: &Board) -> Referrers {
        let mut refs = Referrers(HashMap::new());
        for o in board.pages().iter().flat_map(|p| &p.objects) {
            refs.add(o);
        }
        refs
    }

    fn add(&mut self, o: &Object) {
        for target in o.references() {
            self.0.entry(target.clone()).or_default().push(o.id.clone());
        }
    }

    /// Whether every object that refers to `id` now is on `page` (none at all
    /// when `page` is `None`: `id` is to go).
    fn all_on(&self, board: &Board, id: &ObjectId, page: Option<PageId>) -> bool {
        let Some(referrers) = self.0.get(id) else {
            return true;
        };
        referrers.iter().all(|r| {
            let Some((at, index)) = board.locate(r) else {
                return true;
            };
            let still = board
                .pages()
                .iter()
                .find(|p| p.id == at)
                .is_some_and(|p| p.objects[index].references().contains(&id));
            !still || Some(at) == page
        })
    }
}

/// Whether the references of `object`, on `page`, all resolve there.
fn resolves(board: &Board, page: PageId, object: &Object) -> bool {
    object
        .references()
        .iter()
        .all(|r| board.locate(r).is_some_and(|(p, _)| p == page))
}

/// Runs `change` and keeps it only if `holds` of the board after it.
fn guarded(
    tx: &mut Transaction<'_>,
    change: impl FnOnce(&mut Transaction<'_>) -> Result<(), inkboard_core::ModelError>,
    holds: impl FnOnce(&Board) -> bool,
) -> bool {
    let point = tx.savepoint();
    let ok = change(tx).is_ok() && holds(tx.board());
    if !ok {
        tx.rollback_to(point);
    }
    ok
}

/// A page the step deleted comes back, whole, where it was.
fn bring_back_page(
    tx: &mut Transaction<'_>,
    index: usize,
    page: &Page,
    kept: &mut Vec<String>,
) -> bool {
    if tx.board().page(page.id).is_some() {
        return false;
    }
    let clash = page
        .objects
        .iter()
        .any(|o| tx.board().locate(&o.id).is_some());
    let index = index.min(tx.board().pages().len());
    let step = Step::InsertPage {
        index,
        page: page.clone(),
    };
    // Its objects refer only to each other: one walk of it checks them.
    let back = !clash
        && guarded(
            tx,
            |tx| tx.apply_steps(&[step]),
            |b| b.check_page(page.id).is_ok(),
        );
    if !back {
        kept.push(format!("page \"{}\": could not come back", page.name));
    }
    back
}

/// An object the step deleted comes back where it was, unless what it joined is
/// gone.
fn bring_back(
    tx: &mut Transaction<'_>,
    refs: &mut Referrers,
    before: &Placed,
    kept: &mut Vec<String>,
) {
    let (page, index, object) = before;
    if tx.board().locate(&object.id).is_some() {
        return;
    }
    let back = tx.board().page(*page).is_some()
        && guarded(
            tx,
            |tx| tx.insert(*page, Some(*index), object.clone()),
            |b| resolves(b, *page, object),
        );
    if back {
        refs.add(object);
    } else {
        kept.push(format!(
            "{}: could not come back, what it was joined to was deleted since",
            name(&object_to_json(object, Detail::File))
        ));
    }
}

/// An object the step made goes away, unless something made since refers to it.
fn take_away(tx: &mut Transaction<'_>, refs: &Referrers, made: &Object, kept: &mut Vec<String>) {
    if tx.board().locate(&made.id).is_none() {
        return;
    }
    let gone = guarded(
        tx,
        |tx| tx.remove(&made.id).map(|_| ()),
        |b| refs.all_on(b, &made.id, None),
    );
    if !gone {
        let now = tx.board().object(&made.id).unwrap_or(made);
        kept.push(format!(
            "{}: kept, something added since is joined to it",
            name(&object_to_json(now, Detail::File))
        ));
    }
}

/// An object the step changed gets back, property by property, what the step
/// took from it where it still holds what the step left; and its place in the
/// stacking order or on the pages, if the step moved it and no one has since.
fn restore(
    tx: &mut Transaction<'_>,
    refs: &mut Referrers,
    id: &ObjectId,
    (before, after): (&Placed, &Placed),
    kept: &mut Vec<String>,
) {
    let Some((page_now, index_now)) = tx.board().locate(id) else {
        kept.push(format!(
            "{}: deleted since by someone else",
            name(&object_to_json(&after.2, Detail::File))
        ));
        return;
    };
    let Some(now) = tx.board().object(id).cloned() else {
        return;
    };
    let (merged, others) = merge(&before.2, &after.2, &now);
    if !others.is_empty() {
        kept.push(format!(
            "{}: {} changed since by someone else",
            name(&object_to_json(&now, Detail::File)),
            others.join(", ")
        ));
    }
    let moved = (before.0, before.1) != (after.0, after.1);
    let still_there = (page_now, index_now) == (after.0, after.1);
    let back_to = (moved && still_there && tx.board().page(before.0).is_some()).then_some(before);
    // A step that only moved the object in the stacking order, or to another
    // page, changed none of its properties: it goes back all the same.
    let object = match (merged, back_to) {
        (Some(merged), _) => merged,
        (None, Some(_)) => now.clone(),
        (None, None) => return,
    };
    let added = object.clone();
    let done = match back_to {
        Some((page, index, _)) => guarded(
            tx,
            |tx| {
                tx.remove(id)?;
                tx.insert(*page, Some(*index), object)
            },
            |b| resolves(b, *page, &added) && refs.all_on(b, id, Some(*page)),
        ),
        None => guarded(
            tx,
            |tx| tx.replace(object),
            |b| resolves(b, page_now, &added),
        ),
    };
    if done {
        refs.add(&added);
    } else {
        kept.push(format!(
            "{}: could not be put back",
            name(&object_to_json(&now, Detail::File))
        ));
    }
}

/// Three-way: `now` with each property the step changed (from `before` to
/// `after`) set back where `now` still holds what the step left. Answers the
/// merged object (`None` if nothing goes back) and the properties others changed
/// since, which keep their value.
fn merge(before: &Object, after: &Object, now: &Object) -> (Option<Object>, Vec<String>) {
    let b = object_to_json(before, Detail::File);
    let a = object_to_json(after, Detail::File);
    let n = object_to_json(now, Detail::File);
    let mut out = n.clone();
    let mut others = Vec::new();
    let keys: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
    for key in keys {
        let (bv, av, nv) = (b.get(key), a.get(key), n.get(key));
        if bv == av {
            continue;
        }
        if nv == av {
            match bv {
                Some(v) => out.insert(key.clone(), v.clone()),
                None => out.remove(key),
            };
        } else if nv != bv {
            others.push(key.clone());
        }
    }
    if out == n {
        return (None, others);
    }
    // The merge of two valid objects' fields is read back as an object; were
    // some mix of fields ever refused, the object keeps its present state.
    match object_from_json(&Value::Object(out)) {
        Ok(object) => (Some(object), others),
        Err(_) => (None, others),
    }
}

/// How an object is named to the person: its text, shortened, or its id.
fn name(fields: &Map<String, Value>) -> String {
    let id = fields.get("id").and_then(Value::as_str).unwrap_or("?");
    match fields.get("text").and_then(Value::as_str).map(str::trim) {
        Some(text) if !text.is_empty() => {
            let short: String = text.chars().take(30).collect();
            let more = if text.chars().count() > 30 { "…" } else { "" };
            format!("\"{short}{more}\" ({id})")
        }
        _ => id.to_string(),
    }
}

#[cfg(test)]
mod tests;
