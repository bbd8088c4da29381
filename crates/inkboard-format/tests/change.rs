//! A committed change as the server's store keeps it (`json/change.rs`): every
//! kind of step written and read back equal, a replay of the read-back steps on a
//! second copy of the board giving the same board (ids counters included), and
//! the JSON of one change held to a golden file (`UPDATE_EXPECT=1` rewrites it).

mod common;

use common::add_shape;
use inkboard_core::{
    Actor, Board, Commit, Geom, IdKind, Kind, Object, Rect, Shape, Style, Transaction,
};
use inkboard_format::json::{board_to_json, commit_from_json, commit_to_json};

/// Runs `f` in one transaction on `board` and answers the commit.
fn commit(board: &mut Board, f: impl FnOnce(&mut Transaction<'_>)) -> Commit {
    let mut tx = Transaction::begin(board);
    f(&mut tx);
    tx.commit(Actor::Agent).unwrap().expect("a change")
}

/// Applies a change read back from its JSON on `copy`, as another process does.
fn replay(copy: &mut Board, json: &serde_json::Value) {
    let stored = commit_from_json(json).unwrap();
    let mut tx = Transaction::begin(copy);
    tx.apply_steps(&stored.steps).unwrap();
    tx.commit(Actor::User).unwrap();
    copy.advance_counters(stored.next_id, stored.next_page);
}

fn shape(text: &str) -> Kind {
    Kind::Shape(Shape {
        geom: Geom::Ellipse,
        bounds: Rect::new(1.0, 2.0, 30.0, 40.0),
        text: text.to_string(),
        style: Style::default(),
        sizing: inkboard_core::Sizing::Fixed,
        rotation: inkboard_core::Rotation::NONE,
        icon: None,
    })
}

/// One transaction's worth of steps, made on a board.
type Change = Box<dyn FnOnce(&mut Transaction<'_>)>;

#[test]
fn every_kind_of_step_round_trips_and_replays_to_the_same_board() {
    let mut board = Board::new("Plan", &["One".to_string(), "Two".to_string()]);
    add_shape(&mut board, "first");
    let mut copy = board.clone();
    let p1 = board.pages()[0].id;
    let p2 = board.pages()[1].id;
    let first = board.pages()[0].objects[0].id.clone();
    let changes: Vec<Change> = vec![
        Box::new(move |tx| {
            tx.add(p1, None, shape("a")).unwrap();
            tx.add(p1, Some(0), shape("b")).unwrap();
        }),
        Box::new(move |tx| {
            tx.edit(&first, |o| {
                if let Kind::Shape(s) = &mut o.kind {
                    s.text = "changed **bold**".into();
                }
            })
            .unwrap();
        }),
        Box::new(move |tx| {
            let id = tx.board().pages()[0].objects[0].id.clone();
            tx.remove(&id).unwrap();
        }),
        Box::new(move |tx| {
            let p = tx.add_page("Three", Some(1)).unwrap();
            tx.add(p, None, shape("on three")).unwrap();
            tx.rename_page(p2, "Second").unwrap();
        }),
        Box::new(move |tx| {
            // A page taken away whole, and an id handed out but not kept: the
            // copy must not hand it out again either.
            let _unused = tx.new_id(IdKind::Shape);
            tx.remove_page(p2).unwrap();
            tx.set_title("Plan B").unwrap();
        }),
    ];
    for change in changes {
        let c = commit(&mut board, change);
        let json = commit_to_json(&c, &board);
        let back = commit_from_json(&json).unwrap();
        assert_eq!(back.steps, c.steps, "{json}");
        // Text through text, as the store keeps it.
        let json: serde_json::Value = serde_json::from_str(&json.to_string()).unwrap();
        replay(&mut copy, &json);
        assert_eq!(board_to_json(&copy), board_to_json(&board));
    }
    assert_eq!(copy.revision(), board.revision());
    // The next id is the same on both: none is handed out twice.
    let mut a = Transaction::begin(&mut board);
    let mut b = Transaction::begin(&mut copy);
    assert_eq!(a.new_id(IdKind::Shape), b.new_id(IdKind::Shape));
}

#[test]
fn a_change_reads_as_the_golden_file_says() {
    let mut board = Board::new("Plan", &[]);
    add_shape(&mut board, "first");
    let p1 = board.pages()[0].id;
    let c = commit(&mut board, |tx| {
        let id = tx.board().pages()[0].objects[0].id.clone();
        tx.edit(&id, |o| o.kind = shape("moved")).unwrap();
        let id = tx.new_id(IdKind::Shape);
        tx.insert(p1, None, Object::new(id, shape("new"))).unwrap();
        tx.rename_page(p1, "Only").unwrap();
    });
    let text = serde_json::to_string_pretty(&commit_to_json(&c, &board)).unwrap() + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/change.json");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .expect("tests/golden/change.json (UPDATE_EXPECT=1 writes it)");
    assert_eq!(text, expected);
}

#[test]
fn damaged_changes_are_refused_with_their_place() {
    for (json, place) in [
        (serde_json::json!([]), "a change is an object"),
        (serde_json::json!({"next_id": 1, "next_page": 2}), "steps"),
        (
            serde_json::json!({"steps": [{"op": "explode"}], "next_id": 1, "next_page": 2}),
            "steps[0].op",
        ),
        (
            serde_json::json!({"steps": [{"op": "insert", "page": "p1", "index": 0}], "next_id": 1, "next_page": 2}),
            "steps[0].object",
        ),
        (
            serde_json::json!({"steps": [{"op": "rename_page", "page": "x", "before": "a", "after": "b"}], "next_id": 1, "next_page": 2}),
            "steps[0].page",
        ),
        (serde_json::json!({"steps": [], "next_page": 2}), "next_id"),
    ] {
        let e = commit_from_json(&json).unwrap_err().to_string();
        assert!(e.contains(place), "{json}: {e}");
    }
}
