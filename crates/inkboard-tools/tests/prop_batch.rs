//! Property tests with proptest: random batches through the real engine on a board
//! file in a temp folder (batch.md points 6, 7 and 9).
//!
//! - An atomic batch with a bad operation injected at a random index fails at that
//!   index and leaves the file byte-identical (and the change log empty).
//! - A batch that succeeds is then described exactly by `board_changes`: every
//!   object added, updated (content or page) or removed, as the files before and
//!   after differ, each with the object as a read shows it; and every page added,
//!   renamed or removed.
//! - A non-atomic batch failing at a random index keeps exactly the operations
//!   before it: the same bytes as an atomic batch of just those.
//!
//! Batches are built from plans resolved against a small simulation of the board
//! (which objects exist, on which page, what a delete takes with it), so that every
//! operation of a generated batch succeeds; the injected one is the only failure.
//! Each property runs 64 cases (`PROPTEST_CASES` overrides): each writes files.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{only_the_board, Board};
use inkboard_core::Vocabulary;
use inkboard_format::json::{object_to_json, Detail};
use inkboard_tools::Engine;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::{json, Value};

/// Short texts, odd characters included, never starting with `$` (a text like
/// "$0.id" is a reference in a batch).
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => "[a-zA-Z0-9 ]{0,8}",
        1 => select(&["e\u{301}", "\u{5e9}\u{5dc}\u{5d5}\u{5dd}", "\u{1f469}\u{200d}\u{1f469}\u{200d}\u{1f467}",
            "\"\\", "\n", "\0", "\u{202e}x\u{202c}", "\u{6f22}\u{5b57}"][..])
            .prop_map(str::to_string),
    ];
    vec(piece, 0..4).prop_map(|p| p.concat().trim_start_matches('$').to_string())
}

/// One planned operation; its targets are resolved against the simulation.
#[derive(Clone, Debug)]
enum Plan {
    AddShape {
        page: Index,
        geom: &'static str,
        text: String,
        at: Option<(i32, i32)>,
        size: Option<(u16, u16)>,
        fill: Option<&'static str>,
    },
    AddConnector {
        page: Index,
        from: Index,
        to: Index,
        text: String,
    },
    AddInk {
        page: Index,
        points: Vec<(i16, i16)>,
    },
    Update {
        target: Index,
        text: String,
        fill: Option<&'static str>,
    },
    Move {
        target: Index,
        dx: i16,
        dy: i16,
    },
    Order {
        target: Index,
        to: &'static str,
    },
    Group {
        page: Index,
        members: Vec<Index>,
    },
    Ungroup {
        target: Index,
    },
    Delete {
        target: Index,
    },
    AddPage,
    RenamePage {
        page: Index,
    },
    DeletePage {
        page: Index,
    },
}

const GEOMS: &[&str] = &[
    "rect", "rounded", "ellipse", "diamond", "note", "text", "cloud",
];
const FILLS: &[&str] = &["red", "#1e88e5", "yellow", "#00000080"];

fn plan() -> impl Strategy<Value = Plan> {
    prop_oneof![
        6 => (
            any::<Index>(),
            select(GEOMS),
            text(),
            proptest::option::of((-500..1500i32, -500..1500i32)),
            proptest::option::of((10..300u16, 10..200u16)),
            proptest::option::of(select(FILLS)),
        )
            .prop_map(|(page, geom, text, at, size, fill)| Plan::AddShape { page, geom, text, at, size, fill }),
        4 => (any::<Index>(), any::<Index>(), any::<Index>(), text())
            .prop_map(|(page, from, to, text)| Plan::AddConnector { page, from, to, text }),
        1 => (any::<Index>(), vec((any::<i16>(), any::<i16>()), 2..5))
            .prop_map(|(page, points)| Plan::AddInk { page, points }),
        3 => (any::<Index>(), text(), proptest::option::of(select(FILLS)))
            .prop_map(|(target, text, fill)| Plan::Update { target, text, fill }),
        2 => (any::<Index>(), -50..50i16, -50..50i16)
            .prop_map(|(target, dx, dy)| Plan::Move { target, dx, dy }),
        1 => (any::<Index>(), select(&["front", "back", "forward", "backward"][..]))
            .prop_map(|(target, to)| Plan::Order { target, to }),
        2 => (any::<Index>(), vec(any::<Index>(), 2..4))
            .prop_map(|(page, members)| Plan::Group { page, members }),
        1 => any::<Index>().prop_map(|target| Plan::Ungroup { target }),
        2 => any::<Index>().prop_map(|target| Plan::Delete { target }),
        1 => Just(Plan::AddPage),
        1 => any::<Index>().prop_map(|page| Plan::RenamePage { page }),
        1 => any::<Index>().prop_map(|page| Plan::DeletePage { page }),
    ]
}

#[derive(Clone, Debug, PartialEq)]
enum SimKind {
    Shape,
    Ink,
    Connector(usize, usize),
    Group(Vec<usize>),
}

#[derive(Clone, Debug)]
struct SimObject {
    key: usize,
    /// How an operation names it: its id, or a reference to the result that made it.
    name: String,
    page: usize,
    kind: SimKind,
}

/// What the board holds, as far as the batch's validity goes: pages (by a key of
/// their own, with their names) and objects.
#[derive(Clone, Debug, Default)]
struct Sim {
    pages: Vec<(usize, String)>,
    objects: Vec<SimObject>,
    next_key: usize,
}

impl Sim {
    fn add(&mut self, name: String, page: usize, kind: SimKind) -> usize {
        self.next_key += 1;
        let key = self.next_key;
        self.objects.push(SimObject {
            key,
            name,
            page,
            kind,
        });
        key
    }

    fn get(&self, key: usize) -> &SimObject {
        self.objects.iter().find(|o| o.key == key).expect("alive")
    }

    fn page_name(&self, page: usize) -> String {
        self.pages
            .iter()
            .find(|p| p.0 == page)
            .expect("page")
            .1
            .clone()
    }

    fn pick_page(&self, i: &Index) -> usize {
        self.pages[i.index(self.pages.len())].0
    }

    fn pick(&self, i: &Index, fit: impl Fn(&SimObject) -> bool) -> Option<SimObject> {
        let fit: Vec<&SimObject> = self.objects.iter().filter(|o| fit(o)).collect();
        (!fit.is_empty()).then(|| fit[i.index(fit.len())].clone())
    }

    /// What `delete` takes with the object, as the tool does: the members of deleted
    /// groups, the connectors on what goes, and the groups left empty; the groups
    /// that stay let the doomed go.
    fn delete(&mut self, key: usize) {
        let mut doomed: Vec<usize> = Vec::new();
        let mut stack = vec![key];
        while let Some(k) = stack.pop() {
            if doomed.contains(&k) {
                continue;
            }
            if let SimKind::Group(members) = &self.get(k).kind {
                stack.extend(members.iter().rev());
            }
            doomed.push(k);
        }
        loop {
            let before = doomed.len();
            for o in &self.objects {
                let take = match &o.kind {
                    SimKind::Connector(a, b) => doomed.contains(a) || doomed.contains(b),
                    SimKind::Group(m) => m.iter().all(|k| doomed.contains(k)),
                    _ => false,
                };
                if take && !doomed.contains(&o.key) {
                    doomed.push(o.key);
                }
            }
            if doomed.len() == before {
                break;
            }
        }
        self.objects.retain(|o| !doomed.contains(&o.key));
        for o in &mut self.objects {
            if let SimKind::Group(m) = &mut o.kind {
                m.retain(|k| !doomed.contains(k));
            }
        }
    }

    /// Makes plans into operations that all succeed; plans that fit nothing (an
    /// empty page, no group to dissolve) are left out.
    fn operations(&mut self, plans: &[Plan]) -> Vec<Value> {
        let mut ops: Vec<Value> = Vec::new();
        for plan in plans {
            let n = ops.len();
            let made = format!("${n}.id");
            let op = match plan {
                Plan::AddShape {
                    page,
                    geom,
                    text,
                    at,
                    size,
                    fill,
                } => {
                    let page = self.pick_page(page);
                    let mut args =
                        json!({"page": self.page_name(page), "geom": geom, "text": text});
                    if let Some((x, y)) = at {
                        args["x"] = json!(x);
                        args["y"] = json!(y);
                    }
                    if let Some((w, h)) = size {
                        args["w"] = json!(w);
                        args["h"] = json!(h);
                    }
                    if let Some(fill) = fill {
                        args["fill"] = json!(fill);
                    }
                    self.add(made, page, SimKind::Shape);
                    json!({"tool": "add_shape", "args": args})
                }
                Plan::AddConnector {
                    page,
                    from,
                    to,
                    text,
                } => {
                    let page = self.pick_page(page);
                    let shape = |o: &SimObject| o.page == page && o.kind == SimKind::Shape;
                    let (Some(a), Some(b)) = (self.pick(from, shape), self.pick(to, shape)) else {
                        continue;
                    };
                    self.add(made, page, SimKind::Connector(a.key, b.key));
                    json!({"tool": "add_connector", "args": {
                        "page": self.page_name(page), "from": a.name, "to": b.name, "text": text
                    }})
                }
                Plan::AddInk { page, points } => {
                    let page = self.pick_page(page);
                    let points: Vec<[i16; 2]> = points.iter().map(|&(x, y)| [x, y]).collect();
                    self.add(made, page, SimKind::Ink);
                    json!({"tool": "add_ink", "args": {"page": self.page_name(page), "points": points}})
                }
                Plan::Update { target, text, fill } => {
                    let Some(o) = self.pick(target, |o| {
                        matches!(o.kind, SimKind::Shape | SimKind::Connector(..))
                    }) else {
                        continue;
                    };
                    let mut args = json!({"id": o.name, "text": text});
                    if let (Some(fill), SimKind::Shape) = (fill, &o.kind) {
                        args["fill"] = json!(fill);
                    }
                    json!({"tool": "update", "args": args})
                }
                Plan::Move { target, dx, dy } => {
                    let Some(o) = self.pick(target, |o| !matches!(o.kind, SimKind::Connector(..)))
                    else {
                        continue;
                    };
                    json!({"tool": "move", "args": {"ids": [o.name], "dx": dx, "dy": dy}})
                }
                Plan::Order { target, to } => {
                    let Some(o) = self.pick(target, |_| true) else {
                        continue;
                    };
                    json!({"tool": "order", "args": {"ids": [o.name], "to": to}})
                }
                Plan::Group { page, members } => {
                    let page = self.pick_page(page);
                    let mut chosen: Vec<SimObject> = Vec::new();
                    for m in members {
                        let fit = |o: &SimObject| {
                            o.page == page && !matches!(o.kind, SimKind::Connector(..))
                        };
                        if let Some(o) = self.pick(m, fit) {
                            if !chosen.iter().any(|c| c.key == o.key) {
                                chosen.push(o);
                            }
                        }
                    }
                    if chosen.len() < 2 {
                        continue;
                    }
                    let names: Vec<&str> = chosen.iter().map(|o| o.name.as_str()).collect();
                    let op = json!({"tool": "group", "args": {"ids": names}});
                    self.add(
                        made,
                        page,
                        SimKind::Group(chosen.iter().map(|o| o.key).collect()),
                    );
                    op
                }
                Plan::Ungroup { target } => {
                    let Some(g) = self.pick(target, |o| matches!(o.kind, SimKind::Group(_))) else {
                        continue;
                    };
                    let SimKind::Group(members) = g.kind.clone() else {
                        unreachable!()
                    };
                    // A group inside another hands its members to it.
                    for o in &mut self.objects {
                        if let SimKind::Group(m) = &mut o.kind {
                            if let Some(at) = m.iter().position(|k| *k == g.key) {
                                let add: Vec<usize> =
                                    members.iter().filter(|k| !m.contains(k)).copied().collect();
                                m.splice(at..=at, add);
                            }
                        }
                    }
                    self.objects.retain(|o| o.key != g.key);
                    json!({"tool": "ungroup", "args": {"id": g.name}})
                }
                Plan::Delete { target } => {
                    let Some(o) = self.pick(target, |_| true) else {
                        continue;
                    };
                    self.delete(o.key);
                    json!({"tool": "delete", "args": {"ids": [o.name]}})
                }
                Plan::AddPage => {
                    self.next_key += 1;
                    let name = format!("P{n}");
                    self.pages.push((self.next_key, name.clone()));
                    json!({"tool": "add_page", "args": {"name": name}})
                }
                // The first page is the batch's page: it stays, under its name.
                Plan::RenamePage { page } => {
                    if self.pages.len() < 2 {
                        continue;
                    }
                    let i = 1 + page.index(self.pages.len() - 1);
                    let old = std::mem::replace(&mut self.pages[i].1, format!("R{n}"));
                    json!({"tool": "rename_page", "args": {"page": old, "name": format!("R{n}")}})
                }
                Plan::DeletePage { page } => {
                    if self.pages.len() < 2 {
                        continue;
                    }
                    let i = 1 + page.index(self.pages.len() - 1);
                    let (key, name) = self.pages.remove(i);
                    self.objects.retain(|o| o.page != key);
                    json!({"tool": "delete_page", "args": {"page": name}})
                }
            };
            ops.push(op);
        }
        ops
    }
}

/// Bad operations, each failing whatever the board holds; `i` is the index it
/// will have.
fn bad(kind: usize, i: usize) -> Value {
    match kind % 7 {
        0 => json!({"tool": "delete", "args": {"ids": ["s9999"]}}),
        1 => json!({"tool": "update", "args": {"id": "nothing-here", "text": "x"}}),
        2 => json!({"tool": "add_connector", "args": {"from": "s9999", "to": {"x": 0, "y": 0}}}),
        3 => json!({"tool": "no_such_tool", "args": {}}),
        4 => json!({"tool": "add_shape", "args": {"w": -1}}),
        5 => json!({"tool": "update", "args": {"id": format!("${i}.id"), "text": "x"}}),
        _ => json!({"tool": "delete_page", "args": {"page": "no page of that name"}}),
    }
}

/// A board file with two pages ("Main", "Side"), shapes, a connector and a group,
/// and the simulation of it.
fn template(engine: &Engine) -> (Board, Sim) {
    let board = Board::new(engine, &["Main", "Side"]);
    let out = board
        .batch(
            engine,
            json!([
                {"tool": "add_shape", "args": {"text": "one", "x": 0, "y": 0}},
                {"tool": "add_shape", "args": {"text": "two", "x": 0, "y": 120}},
                {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id"}},
                {"tool": "add_shape", "args": {"text": "three", "x": 300, "y": 0}},
                {"tool": "group", "args": {"ids": ["$1.id", "$3.id"]}},
                {"tool": "add_shape", "args": {"text": "side", "page": 2}}
            ]),
            true,
        )
        .expect("the template batch");
    let id = |i: usize| out["results"][i]["id"].as_str().expect("an id").to_string();
    let mut sim = Sim {
        pages: vec![(1, "Main".into()), (2, "Side".into())],
        next_key: 2,
        ..Sim::default()
    };
    let one = sim.add(id(0), 1, SimKind::Shape);
    let two = sim.add(id(1), 1, SimKind::Shape);
    sim.add(id(2), 1, SimKind::Connector(one, two));
    let three = sim.add(id(3), 1, SimKind::Shape);
    sim.add(id(4), 1, SimKind::Group(vec![two, three]));
    sim.add(id(5), 2, SimKind::Shape);
    (board, sim)
}

/// A fresh folder holding a copy of a board file.
fn copy_of(path: &Path) -> Board {
    let dir = tempfile::tempdir().expect("temp dir");
    let to = dir.path().join("board.inkboard");
    std::fs::copy(path, &to).expect("copy the board");
    Board { dir, path: to }
}

fn load(board: &Board) -> inkboard_core::Board {
    inkboard_format::load(&board.path)
        .expect("the file loads")
        .board
}

/// A change as `board_changes` gives it, keyed by (kind, id or page name), with the
/// page number and object it carries.
type Listed = BTreeMap<(String, String), (Option<u64>, Option<Value>)>;

/// What differs between two boards, record by record (see `changes_of`).
fn expected(old: &inkboard_core::Board, new: &inkboard_core::Board) -> (Listed, Listed) {
    let number = |page| new.page_position(page).map(|i| i as u64 + 1);
    let mut objects = Listed::new();
    for page in new.pages() {
        for o in &page.objects {
            let kind = match old.locate(&o.id) {
                None => "added",
                Some((p, _)) if p != page.id || old.object(&o.id) != Some(o) => "updated",
                Some(_) => continue,
            };
            let shown = Value::Object(object_to_json(o, Detail::Read));
            objects.insert(
                (kind.to_string(), o.id.to_string()),
                (number(page.id), Some(shown)),
            );
        }
    }
    for page in old.pages() {
        for o in &page.objects {
            if new.locate(&o.id).is_none() {
                objects.insert(
                    ("removed".to_string(), o.id.to_string()),
                    (number(page.id), None),
                );
            }
        }
    }
    let mut pages = Listed::new();
    for page in new.pages() {
        let kind = match old.page(page.id) {
            None => "added",
            Some(p) if p.name != page.name => "updated",
            Some(_) => continue,
        };
        pages.insert(
            (kind.to_string(), page.name.clone()),
            (number(page.id), None),
        );
    }
    for page in old.pages() {
        if new.page(page.id).is_none() {
            pages.insert(("removed".to_string(), page.name.clone()), (None, None));
        }
    }
    (objects, pages)
}

/// The object changes but those of z-order alone (updates of an object that stayed
/// on its page unchanged), which are checked here: with the objects updated in
/// place, they explain the difference of order on each page, and are no more than
/// the fewest objects that do (worked out the slow way).
fn but_moves(old: &inkboard_core::Board, new: &inkboard_core::Board, objects: Listed) -> Listed {
    let mut out = Listed::new();
    let (mut moved, mut updated) = (Vec::new(), Vec::new());
    for ((kind, id), entry) in objects {
        let oid = inkboard_core::ObjectId::parse(&id).expect("an id");
        let stayed = old.locate(&oid).map(|l| l.0) == new.locate(&oid).map(|l| l.0);
        if kind == "updated" && stayed && old.object(&oid) == new.object(&oid) {
            moved.push(oid);
            continue;
        }
        if kind == "updated" {
            updated.push(oid);
        }
        out.insert((kind, id), entry);
    }
    for page in new.pages() {
        let ids = |p: &inkboard_core::Page| -> Vec<inkboard_core::ObjectId> {
            p.objects.iter().map(|o| o.id.clone()).collect()
        };
        let common = |list: &[inkboard_core::ObjectId], other: &[inkboard_core::ObjectId]| {
            list.iter()
                .filter(|t| other.contains(t))
                .cloned()
                .collect::<Vec<_>>()
        };
        let (was, is) = (old.page(page.id).map(ids).unwrap_or_default(), ids(page));
        let (a, b) = (common(&was, &is), common(&is, &was));
        let left = |list: &[inkboard_core::ObjectId]| {
            list.iter()
                .filter(|t| !moved.contains(t) && !updated.contains(t))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            left(&a),
            left(&b),
            "the order on page {} is not explained",
            page.id
        );
        let mut best = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 0..a.len() {
            for j in 0..b.len() {
                best[i + 1][j + 1] = if a[i] == b[j] {
                    best[i][j] + 1
                } else {
                    best[i][j + 1].max(best[i + 1][j])
                };
            }
        }
        let here = moved.iter().filter(|m| a.contains(m)).count();
        assert!(
            here <= a.len() - best[a.len()][b.len()],
            "more moves than needed"
        );
    }
    out
}

/// The object changes and the page changes of a `board_changes` answer, checking
/// that each is of `revision`, by the agent, and listed once.
fn changes_of(answer: &Value, revision: u64) -> Result<(Listed, Listed), TestCaseError> {
    let (mut objects, mut pages) = (Listed::new(), Listed::new());
    for c in answer["changes"].as_array().expect("a list of changes") {
        prop_assert_eq!(&c["revision"], &json!(revision), "{}", c);
        prop_assert_eq!(&c["by"], "agent", "{}", c);
        let kind = c["kind"].as_str().expect("a kind").to_string();
        let entry = (c["page"].as_u64(), c.get("object").cloned());
        let listed = match (c.get("id"), c.get("page_name")) {
            (Some(id), None) => objects.insert((kind, id.as_str().expect("id").into()), entry),
            (None, Some(name)) => pages.insert((kind, name.as_str().expect("name").into()), entry),
            _ => {
                return Err(TestCaseError::fail(format!(
                    "neither an object nor a page: {c}"
                )))
            }
        };
        prop_assert!(listed.is_none(), "listed twice: {}", c);
    }
    Ok((objects, pages))
}

proptest! {
    #![proptest_config(inkboard_core::arbitrary::config(64))]

    /// An atomic batch failing at any index leaves the file byte-identical, the
    /// folder as it was, the revision, and nothing in the change log.
    #[test]
    fn an_atomic_batch_failing_anywhere_leaves_the_file_byte_identical(
        plans in vec(plan(), 0..25),
        kind in 0..7usize,
        at in any::<Index>(),
    ) {
        let engine = Engine::new();
        let (board, mut sim) = template(&engine);
        let mut ops = sim.operations(&plans);
        let i = at.index(ops.len() + 1);
        ops.insert(i, bad(kind, i));
        let bytes = board.bytes();
        let revision = board.revision(&engine);
        board.call(&engine, "board_changes", json!({})).expect("board_changes");

        let err = board.batch(&engine, Value::Array(ops), true).unwrap_err();
        let data = err.data().unwrap_or_else(|| panic!("no payload: {err}"));
        prop_assert_eq!(&data["index"], &json!(i), "{}", data);
        prop_assert_eq!(data["results"].as_array().expect("results").len(), i);
        prop_assert!(board.bytes() == bytes, "the file changed");
        prop_assert_eq!(board.files(), only_the_board());
        prop_assert_eq!(board.revision(&engine), revision);
        let after = board.call(&engine, "board_changes", json!({})).expect("board_changes");
        prop_assert_eq!(&after["changes"], &json!([]));
    }

    /// A batch that succeeds is one revision, and `board_changes` then lists
    /// exactly the objects added, updated and removed (with the object as a read
    /// shows it, on its page's number), and every page added, renamed or removed.
    #[test]
    fn board_changes_lists_exactly_what_a_batch_changed(plans in vec(plan(), 1..25)) {
        let engine = Engine::new();
        let (board, mut sim) = template(&engine);
        let ops = sim.operations(&plans);
        prop_assume!(!ops.is_empty());
        let before = load(&board);
        let bytes = board.bytes();
        let out = board.batch(&engine, Value::Array(ops.clone()), true);
        let out = out.unwrap_or_else(|e| panic!("the batch failed: {e} {:?}\n{ops:#?}", e.data()));
        prop_assert_eq!(&out["applied"], &json!(ops.len()));
        let after = load(&board);
        // A batch whose edits cancel out writes nothing and uses up no revision;
        // one that leaves anything different is written.
        let written = board.bytes() != bytes;
        prop_assert_eq!(after.revision(), before.revision() + u64::from(written));
        prop_assert_eq!(written, after != before, "written exactly when the board changed");
        let answer = board
            .call(&engine, "board_changes", json!({"since": before.revision()}))
            .expect("board_changes");
        prop_assert_eq!(&answer["revision"], &json!(after.revision()));
        let (objects, pages) = changes_of(&answer, after.revision())?;
        let (want_objects, want_pages) = expected(&before, &after);
        prop_assert_eq!(but_moves(&before, &after, objects), want_objects);
        // Pages are listed step by step, not summed up as objects are: a page
        // added then renamed is "added" under its first name and "updated" under
        // its last. So: each page there after that was added or renamed is named,
        // with its number, by its last name; and each page gone is listed removed.
        let mut gone = 0;
        for ((kind, name), (number, _)) in &want_pages {
            if kind == "removed" {
                gone += 1;
                continue;
            }
            let named = pages
                .iter()
                .any(|((k, n), (at, _))| k != "removed" && n == name && at == number);
            prop_assert!(named, "page {:?} ({}) not listed in {:?}", name, kind, pages);
        }
        let removed = pages.keys().filter(|(k, _)| k == "removed").count();
        prop_assert!(removed >= gone, "{} pages gone, {} listed removed", gone, removed);
    }

    /// A non-atomic batch failing at any index keeps exactly the operations before
    /// it: the same bytes as an atomic batch of just those (and no write at all
    /// when the first fails).
    #[test]
    fn a_non_atomic_batch_keeps_exactly_the_operations_before_the_failure(
        plans in vec(plan(), 0..25),
        kind in 0..7usize,
        at in any::<Index>(),
    ) {
        let engine = Engine::new();
        let (template, mut sim) = template(&engine);
        let mut ops = sim.operations(&plans);
        let i = at.index(ops.len() + 1);
        ops.insert(i, bad(kind, i));

        let board = copy_of(&template.path);
        let bytes = board.bytes();
        let revision = board.revision(&engine);
        let out = board.batch(&engine, Value::Array(ops.clone()), false).expect("a normal answer");
        prop_assert_eq!(&out["applied"], &json!(i), "{}", out);
        prop_assert_eq!(&out["failed"]["index"], &json!(i), "{}", out);
        prop_assert_eq!(out["results"].as_array().expect("results").len(), i);
        prop_assert_eq!(board.files(), only_the_board());
        if i == 0 {
            prop_assert!(board.bytes() == bytes, "nothing applied, yet the file changed");
            prop_assert_eq!(board.revision(&engine), revision);
            return Ok(());
        }
        let expected = copy_of(&template.path);
        let prefix = expected
            .batch(&engine, Value::Array(ops[..i].to_vec()), true)
            .expect("the operations before the failure succeed");
        prop_assert_eq!(&out["results"], &prefix["results"]);
        let (got, want) = (board.bytes(), expected.bytes());
        prop_assert!(
            got == want,
            "the file differs from the prefix's:\n{}\n---\n{}",
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
        // One revision if anything was written (edits that cancel out may be).
        let written = got != bytes;
        prop_assert_eq!(board.revision(&engine), revision + u64::from(written));
    }
}

#[test]
fn the_bad_operations_are_of_every_kind() {
    // Each bad operation is refused on its own, in a batch of one.
    let engine = Engine::new();
    let (board, _) = template(&engine);
    for kind in 0..7 {
        let err = board
            .batch(&engine, json!([bad(kind, 0)]), true)
            .unwrap_err();
        assert_eq!(err.data().expect("a payload")["index"], 0, "kind {kind}");
    }
    // The vocabulary the plans draw from is the tools'.
    for geom in GEOMS {
        assert!(inkboard_core::Geom::parse(geom).is_ok(), "{geom}");
    }
}
