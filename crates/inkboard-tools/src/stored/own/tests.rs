//! Selective undo: one person's step taken back on a board others changed since.

use inkboard_core::{Actor, Board, Commit, Kind, ObjectId, Transaction};
use inkboard_format::json::{board_from_json, object_to_json, Detail};
use serde_json::Value;

use super::{take_back, OwnHistory};

/// The board after taking back `commit` selectively: the commit that did it, and
/// what could not be taken back.
fn taken_back(board: &mut Board, commit: &Commit) -> (Option<Commit>, Vec<String>) {
    let mut tx = Transaction::begin(board);
    let kept = take_back(&mut tx, commit);
    let made = tx.commit(Actor::User).expect("commits");
    (made, kept)
}

/// Two shapes and a connector between them on one page.
fn board() -> Board {
    board_from_json(
        r##"{"format": "inkboard", "version": 2, "title": "T", "revision": 1, "next_id": 10,
        "pages": [{"id": "p1", "name": "Page 1", "objects": [
          {"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 100, "h": 50, "text": "Login"},
          {"id": "s2", "type": "shape", "x": 200, "y": 0, "w": 100, "h": 50, "text": "Home"},
          {"id": "c3", "type": "connector", "from": "s1", "to": "s2"}
        ]}]}"##,
    )
    .expect("a board")
}

fn id(s: &str) -> ObjectId {
    ObjectId::parse(s).expect("an id")
}

/// One commit: `f` on a transaction of `board`.
fn change(board: &mut Board, f: impl FnOnce(&mut Transaction<'_>)) -> Commit {
    let mut tx = Transaction::begin(board);
    f(&mut tx);
    tx.commit(Actor::User).expect("commits").expect("changes")
}

/// A field of an object as its JSON shows it.
fn field(board: &Board, object: &str, key: &str) -> Option<Value> {
    let o = board.object(&id(object))?;
    object_to_json(o, Detail::File).get(key).cloned()
}

fn set(tx: &mut Transaction<'_>, object: &str, key: &str, value: Value) {
    let o = tx.board().object(&id(object)).expect("there").clone();
    let mut fields = object_to_json(&o, Detail::File);
    fields.insert(key.into(), value);
    tx.replace(inkboard_format::json::object_from_json(&Value::Object(fields)).expect("valid"))
        .expect("replaced");
}

#[test]
fn what_others_changed_since_stays_and_is_named() {
    let mut b = board();
    let mine = change(&mut b, |tx| {
        set(tx, "s1", "fill", "#ff0000".into());
        set(tx, "s1", "x", 40.into());
    });
    change(&mut b, |tx| set(tx, "s1", "x", 90.into()));
    let (made, kept) = taken_back(&mut b, &mine);
    assert!(made.is_some());
    assert_eq!(field(&b, "s1", "fill"), None, "my fill is taken back");
    assert_eq!(field(&b, "s1", "x"), Some(90.into()), "their x stays");
    assert_eq!(
        kept,
        ["\"Login\" (s1): x changed since by someone else"],
        "and the person is told"
    );
}

#[test]
fn a_step_no_one_touched_since_goes_back_whole() {
    let mut b = board();
    let start = b.clone();
    let mine = change(&mut b, |tx| {
        set(tx, "s2", "text", "Start".into());
        tx.reorder(&id("s2"), 0).expect("reordered");
        tx.remove(&id("c3")).expect("removed");
    });
    // Someone else's change elsewhere on the page.
    change(&mut b, |tx| set(tx, "s1", "y", 300.into()));
    let (_, kept) = taken_back(&mut b, &mine);
    assert!(kept.is_empty(), "{kept:?}");
    let objects = |b: &Board| {
        b.pages()[0]
            .objects
            .iter()
            .map(|o| o.id.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        objects(&b),
        objects(&start),
        "the order and the connector are back"
    );
    assert_eq!(field(&b, "s2", "text"), Some("Home".into()));
    assert_eq!(field(&b, "s1", "y"), Some(300.into()), "theirs stays");
}

#[test]
fn a_shape_someone_joined_since_is_kept() {
    let mut b = board();
    let mut made_id = None;
    let mine = change(&mut b, |tx| {
        let new = tx.new_id(inkboard_core::IdKind::Shape);
        let mut s = tx.board().object(&id("s2")).expect("there").clone();
        s.id = new.clone();
        tx.insert(tx.board().pages()[0].id, None, s).expect("added");
        made_id = Some(new);
    });
    let made_id = made_id.expect("made");
    let page = b.pages()[0].id;
    change(&mut b, |tx| {
        let c = tx.board().object(&id("c3")).expect("there").clone();
        let mut theirs = c.clone();
        theirs.id = tx.new_id(inkboard_core::IdKind::Connector);
        if let Kind::Connector(k) = &mut theirs.kind {
            k.to = inkboard_core::End::Object(made_id.clone());
        }
        tx.insert(page, None, theirs).expect("joined");
    });
    let (made, kept) = taken_back(&mut b, &mine);
    assert!(made.is_none(), "nothing could go back");
    assert!(b.object(&made_id).is_some(), "the shape stays");
    assert_eq!(kept.len(), 1);
    assert!(
        kept[0].contains("something added since is joined to it"),
        "{kept:?}"
    );
}

#[test]
fn a_deleted_connector_whose_end_is_gone_stays_deleted_and_its_shape_comes_back() {
    let mut b = board();
    let mine = change(&mut b, |tx| {
        tx.remove(&id("c3")).expect("removed");
        tx.remove(&id("s1")).expect("removed");
    });
    change(&mut b, |tx| {
        tx.remove(&id("s2")).expect("removed");
    });
    let (_, kept) = taken_back(&mut b, &mine);
    assert!(b.object(&id("s1")).is_some(), "my shape is back");
    assert!(
        b.object(&id("c3")).is_none(),
        "its connector has no other end"
    );
    assert_eq!(
        kept,
        ["c3: could not come back, what it was joined to was deleted since"]
    );
}

#[test]
fn a_change_to_an_object_deleted_since_is_said() {
    let mut b = board();
    let mine = change(&mut b, |tx| set(tx, "s2", "fill", "#00ff00".into()));
    change(&mut b, |tx| {
        tx.remove(&id("c3")).expect("removed");
        tx.remove(&id("s2")).expect("removed");
    });
    let (made, kept) = taken_back(&mut b, &mine);
    assert!(made.is_none());
    assert!(
        b.object(&id("s2")).is_none(),
        "a deleted object stays deleted"
    );
    assert_eq!(kept, ["\"Home\" (s2): deleted since by someone else"]);
}

#[test]
fn redo_is_the_undo_taken_back() {
    let mut b = board();
    let mine = change(&mut b, |tx| set(tx, "s1", "text", "Sign in".into()));
    let after = b.clone();
    let (undo, _) = taken_back(&mut b, &mine);
    assert_eq!(field(&b, "s1", "text"), Some("Login".into()));
    let (_, kept) = taken_back(&mut b, &undo.expect("an undo"));
    assert!(kept.is_empty());
    assert_eq!(b.object(&id("s1")), after.object(&id("s1")));
}

#[test]
fn each_person_undoes_only_their_own_steps() {
    let mut b = board();
    let mut own = OwnHistory::default();
    let ann = change(&mut b, |tx| set(tx, "s1", "text", "A".into()));
    own.record("1", &ann);
    let bob = change(&mut b, |tx| set(tx, "s2", "text", "B".into()));
    own.record("2", &bob);
    assert!(own.can_undo("1") && own.can_undo("2") && !own.can_undo("3"));
    let step = own.take("1", false).expect("ann's step");
    assert_eq!(step.revision, ann.revision, "ann's, not bob's later one");
    own.keep_made("1", false, step);
    assert!(own.can_redo("1") && !own.can_undo("1"));
    own.record("1", &bob);
    assert!(!own.can_redo("1"), "a new step of hers forgets her redo");
}

#[test]
fn a_step_that_only_reordered_goes_back() {
    let mut b = board();
    let start = b.clone();
    let mine = change(&mut b, |tx| tx.reorder(&id("c3"), 0).expect("reordered"));
    let (made, kept) = taken_back(&mut b, &mine);
    assert!(made.is_some(), "the order goes back");
    assert!(kept.is_empty(), "{kept:?}");
    assert_eq!(b.pages()[0].objects, start.pages()[0].objects);
}

/// A layout's step: every shape of a large page moved, in one call, with a
/// connector between each pair. Taken back whole, each change checked against
/// its own references (it once walked the whole page after each change: 20,000
/// shapes took that many page walks).
#[test]
fn a_layout_of_a_large_page_goes_back_whole() {
    const SHAPES: usize = 20_000;
    let mut objects = Vec::new();
    for i in 0..SHAPES {
        objects.push(format!(
            r#"{{"id": "s{i}", "type": "shape", "x": {x}, "y": 0, "w": 10, "h": 10}}"#,
            x = i * 20
        ));
        if i % 2 == 1 {
            objects.push(format!(
                r#"{{"id": "c{i}", "type": "connector", "from": "s{}", "to": "s{i}"}}"#,
                i - 1
            ));
        }
    }
    let mut b = board_from_json(&format!(
        r#"{{"format": "inkboard", "version": 2, "title": "T", "revision": 1, "next_id": {n},
        "pages": [{{"id": "p1", "name": "Page 1", "objects": [{}]}}]}}"#,
        objects.join(","),
        n = SHAPES * 2
    ))
    .expect("a board");
    let start = b.clone();
    let mine = change(&mut b, |tx| {
        for i in 0..SHAPES {
            tx.edit(&id(&format!("s{i}")), |o| {
                if let Kind::Shape(s) = &mut o.kind {
                    s.bounds.y += 100.0;
                }
            })
            .expect("moved");
        }
    });
    let started = std::time::Instant::now();
    let (made, kept) = taken_back(&mut b, &mine);
    eprintln!(
        "took back a layout of {SHAPES} shapes in {:?}",
        started.elapsed()
    );
    assert!(made.is_some() && kept.is_empty(), "{kept:?}");
    assert_eq!(b.pages()[0].objects, start.pages()[0].objects);
}
