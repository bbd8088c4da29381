//! The small value types: colours, closed vocabularies, ids, styles, and building a
//! board from saved parts.

mod common;

use common::*;
use inkboard_core::{
    Align, Arrow, Board, Color, Dash, Geom, ImageFormat, ModelError, ObjectId, Page, PageId,
    Palette, Route, Style, VAlign, Vocabulary,
};

#[test]
fn colours_print_as_they_parse() {
    for &p in Palette::ALL {
        let c = Color::parse(p.name()).unwrap();
        assert_eq!(c, Color::Named(p));
        assert_eq!(c.to_string(), p.name());
        assert_eq!(Color::parse(&p.name().to_uppercase()), Ok(c));
    }
    let mut rng = Rng::new(7);
    for _ in 0..500 {
        let v = rng.next_u64().to_le_bytes();
        let alpha = if rng.chance(50) { 255 } else { v[3] };
        let c = Color::Rgba([v[0], v[1], v[2], alpha]);
        let text = c.to_string();
        assert_eq!(text.len(), if alpha == 255 { 7 } else { 9 }, "{text}");
        assert_eq!(Color::parse(&text), Ok(c), "{text}");
        assert_eq!(Color::parse(&text.to_uppercase()), Ok(c), "{text}");
        assert_eq!(c.rgba(), [v[0], v[1], v[2], alpha]);
    }
    assert_eq!(Color::parse(" #FFF "), Ok(Color::Rgba([255; 4])));
    assert_eq!(Color::parse("#0a0b0cff").unwrap().to_string(), "#0a0b0c");
    assert_eq!(Color::parse("grey"), Ok(Color::Named(Palette::Gray)));
    assert_eq!(Color::Named(Palette::Blue).rgba(), [0x1e, 0x88, 0xe5, 255]);
}

#[test]
fn bad_colours_are_refused_with_the_forms_that_work() {
    // More cases, with their messages, are in tests/colours/parse.expected.
    for bad in ["", "#12", "#ggg", "redd", "rgb(1,2,3)", "1e88e5", "##123"] {
        let err = Color::parse(bad).unwrap_err();
        assert!(
            matches!(&err, ModelError::BadColor { given, .. } if given == bad),
            "{err:?}"
        );
        let message = err.to_string();
        assert!(
            message.contains("#1e88e5")
                && message.contains("pink")
                && message.contains("lightblue"),
            "{message}"
        );
    }
}

/// Every word of a vocabulary parses to its value, prints as itself, and an
/// unknown word is refused with a message listing every word.
fn check_vocabulary<V: Vocabulary + PartialEq + std::fmt::Debug + std::fmt::Display>() {
    let words: Vec<&str> = V::ALL.iter().map(|v| v.name()).collect();
    for &v in V::ALL {
        assert_eq!(V::parse(v.name()), Ok(v));
        assert_eq!(v.to_string(), v.name());
    }
    let mut unique = words.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), words.len(), "{}: a word twice", V::WHAT);
    let err = V::parse("nonsense").unwrap_err();
    assert_eq!(
        err,
        ModelError::UnknownWord {
            what: V::WHAT,
            word: "nonsense".into(),
            expected: words.join(", "),
        }
    );
    let message = err.to_string();
    assert!(message.contains(V::WHAT), "{message}");
    for w in &words {
        assert!(message.contains(w), "{message} lacks {w}");
    }
    // Words are case-sensitive and exact.
    assert!(V::parse(&words[0].to_uppercase()).is_err());
    assert!(V::parse(&format!(" {}", words[0])).is_err());
}

#[test]
fn vocabularies_parse_their_words_and_list_them_in_errors() {
    check_vocabulary::<Geom>();
    check_vocabulary::<Arrow>();
    check_vocabulary::<Route>();
    check_vocabulary::<Palette>();
    check_vocabulary::<Dash>();
    check_vocabulary::<Align>();
    check_vocabulary::<VAlign>();
    check_vocabulary::<ImageFormat>();
}

#[test]
fn object_ids_are_short_and_plain() {
    for good in ["s1", "a", "A-b_9", &"x".repeat(64)] {
        assert_eq!(ObjectId::parse(good).unwrap().as_str(), good);
    }
    for bad in ["", "a b", "s/1", "é", "s.1", &"x".repeat(65)] {
        assert_eq!(
            ObjectId::parse(bad),
            Err(ModelError::BadId(bad.to_string()))
        );
    }
    assert_eq!(oid("s12").counter(), Some(12));
    assert_eq!(oid("g0").counter(), Some(0));
    assert_eq!(oid("12").counter(), None);
    assert_eq!(oid("s").counter(), None);
    assert_eq!(oid("s1x").counter(), None);
    assert_eq!(oid("S1").counter(), None);
}

#[test]
fn page_ids_print_as_they_parse() {
    for n in [0, 1, 7, u32::MAX] {
        assert_eq!(PageId::parse(&PageId(n).to_string()), Some(PageId(n)));
    }
    for bad in ["", "p", "7", "px", "p-1", "q1"] {
        assert_eq!(PageId::parse(bad), None, "{bad}");
    }
}

#[test]
fn style_validation_checks_ranges() {
    let ok = Style {
        stroke_width: Some(0.0),
        font_size: Some(1000.0),
        opacity: Some(1.0),
        ..Style::default()
    };
    assert_eq!(ok.validate(), Ok(()));
    assert!(Style::default().is_empty());
    assert!(!ok.is_empty());
    for bad in [
        Style {
            stroke_width: Some(-1.0),
            ..Style::default()
        },
        Style {
            font_size: Some(f64::NAN),
            ..Style::default()
        },
        Style {
            opacity: Some(f64::INFINITY),
            ..Style::default()
        },
        Style {
            opacity: Some(1.01),
            ..Style::default()
        },
    ] {
        assert!(
            matches!(bad.validate(), Err(ModelError::BadNumber { .. })),
            "{bad:?}"
        );
    }
}

fn page(id: u32, objects: Vec<inkboard_core::Object>) -> Page {
    Page {
        objects,
        ..Page::new(PageId(id), format!("Page {id}"))
    }
}

fn from_pages(pages: Vec<Page>) -> Result<Board, ModelError> {
    Board::from_parts("t".into(), pages, 1, 4, Default::default())
}

#[test]
fn from_parts_builds_the_index_and_raises_the_counter() {
    let board = from_pages(vec![
        page(3, vec![shape(&oid("s7"), "a"), shape(&oid("x"), "b")]),
        page(
            1,
            vec![
                shape(&oid("k40"), "c"),
                connector(&oid("c2"), &oid("k40"), &oid("k40")),
            ],
        ),
    ])
    .unwrap();
    assert_consistent(&board);
    assert_eq!(board.next_object(), 41);
    assert_eq!(board.revision(), 4);
    assert_eq!(board.locate(&oid("x")), Some((PageId(3), 1)));
    // The counter never goes down either.
    let board = Board::from_parts("t".into(), vec![], 90, 0, Default::default()).unwrap();
    assert_eq!(board.next_object(), 90);
    // A board always has a page.
    assert_eq!(board.pages().len(), 1);
}

#[test]
fn from_parts_gives_new_pages_fresh_ids() {
    let mut board = from_pages(vec![page(5, vec![]), page(2, vec![])]).unwrap();
    let mut tx = inkboard_core::Transaction::begin(&mut board);
    assert_eq!(tx.add_page("new", None).unwrap(), PageId(6));
}

#[test]
fn from_parts_survives_the_largest_counter() {
    let big = format!("s{}", u64::MAX);
    let mut board = from_pages(vec![page(1, vec![shape(&oid(&big), "far")])]).unwrap();
    let mut tx = inkboard_core::Transaction::begin(&mut board);
    let id = tx.new_id(inkboard_core::IdKind::Shape);
    assert_ne!(id.as_str(), big);
    let mut board = Board::from_parts("t".into(), vec![], u64::MAX, 0, Default::default()).unwrap();
    let mut tx = inkboard_core::Transaction::begin(&mut board);
    let first = tx.new_id(inkboard_core::IdKind::Shape);
    let second = tx.new_id(inkboard_core::IdKind::Shape);
    assert_ne!(first, second);
    drop(tx);
    // The same for page ids.
    let mut board = from_pages(vec![page(u32::MAX, vec![])]).unwrap();
    let mut tx = inkboard_core::Transaction::begin(&mut board);
    let added = tx.add_page("after the largest", None).unwrap();
    assert_ne!(added, PageId(u32::MAX));
    assert!(tx.board().page(added).is_some());
}

#[test]
fn from_parts_refuses_broken_boards() {
    let cases: Vec<(&str, Vec<Page>, ModelError)> = vec![
        (
            "an id twice on a page",
            vec![page(
                1,
                vec![shape(&oid("s1"), "a"), shape(&oid("s1"), "b")],
            )],
            ModelError::DuplicateId(oid("s1")),
        ),
        (
            "an id on two pages",
            vec![
                page(1, vec![shape(&oid("s1"), "a")]),
                page(2, vec![shape(&oid("s1"), "b")]),
            ],
            ModelError::DuplicateId(oid("s1")),
        ),
        (
            "a page id twice",
            vec![page(1, vec![]), page(1, vec![])],
            ModelError::DuplicatePage(PageId(1)),
        ),
        (
            "a connector to nothing",
            vec![page(
                1,
                vec![
                    shape(&oid("s1"), "a"),
                    connector(&oid("c2"), &oid("s1"), &oid("s9")),
                ],
            )],
            ModelError::DanglingConnector {
                connector: oid("c2"),
                end: oid("s9"),
            },
        ),
        (
            "a connector to another page",
            vec![
                page(1, vec![connector(&oid("c2"), &oid("s1"), &oid("s1"))]),
                page(2, vec![shape(&oid("s1"), "a")]),
            ],
            ModelError::DanglingConnector {
                connector: oid("c2"),
                end: oid("s1"),
            },
        ),
        (
            "a group member missing",
            vec![page(1, vec![group(&oid("g1"), &[&oid("s1")])])],
            ModelError::DanglingMember {
                group: oid("g1"),
                member: oid("s1"),
            },
        ),
        (
            "a group holding itself",
            vec![page(1, vec![group(&oid("g1"), &[&oid("g1")])])],
            ModelError::GroupCycle(oid("g1")),
        ),
        (
            "two groups holding each other",
            vec![page(
                1,
                vec![
                    shape(&oid("s1"), "a"),
                    group(&oid("g1"), &[&oid("s1"), &oid("g3")]),
                    group(&oid("g2"), &[&oid("g1")]),
                    group(&oid("g3"), &[&oid("g2")]),
                ],
            )],
            ModelError::GroupCycle(oid("g1")),
        ),
    ];
    for (name, pages, want) in cases {
        assert_eq!(from_pages(pages).unwrap_err(), want, "{name}");
        assert!(!want.to_string().is_empty());
    }
}

#[test]
fn from_parts_accepts_a_group_named_by_two_groups() {
    // Shared members are not a cycle.
    let board = from_pages(vec![page(
        1,
        vec![
            shape(&oid("s1"), "a"),
            group(&oid("g1"), &[&oid("s1")]),
            group(&oid("g2"), &[&oid("g1"), &oid("s1")]),
            group(&oid("g3"), &[&oid("g1"), &oid("g2")]),
        ],
    )])
    .unwrap();
    assert_consistent(&board);
}
