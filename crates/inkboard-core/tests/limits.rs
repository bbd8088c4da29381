//! The limits, as the model enforces them on every step of a transaction: each one
//! accepts a board exactly at its value and refuses one more, with its message,
//! leaving the board as it was; undo and redo (recorded steps applied again) and
//! boards built from saved parts are held to them too.

mod common;

use std::sync::Arc;

use common::*;
use inkboard_core::limits::{self, Limit, MAX_COORD, MAX_TEXT_CHARS};
use inkboard_core::{
    Actor, Board, Connector, End, IdKind, Image, ImageFormat, Ink, Kind, ModelError, Object, Page,
    PageId, Point, Rect, Step, Style, Transaction,
};

/// A board with one empty page.
fn board() -> (Board, PageId) {
    let board = Board::new("t", &[]);
    let page = board.pages()[0].id;
    (board, page)
}

/// Adds `kind` to the first page in one transaction and commits; the error, if
/// any, and then the board must be as it was.
fn add(kind: Kind) -> Result<(), ModelError> {
    let (mut board, page) = board();
    let before = board.clone();
    let result = {
        let mut tx = Transaction::begin(&mut board);
        tx.add(page, None, kind)
            .and_then(|_| tx.commit(Actor::Agent))
            .map(drop)
    };
    if result.is_err() {
        assert_eq!(board, before, "a refused step leaves the board as it was");
        assert_eq!(board.object_count(), 0);
        assert_eq!(board.revision(), 0);
    }
    result
}

fn text_shape(text: String) -> Kind {
    Kind::Shape(inkboard_core::Shape {
        geom: inkboard_core::Geom::Rect,
        bounds: Rect::new(0.0, 0.0, 10.0, 10.0),
        text,
        style: Style::default(),
        sizing: inkboard_core::Sizing::Fixed,
        rotation: inkboard_core::Rotation::NONE,
        icon: None,
    })
}

fn ink(points: usize) -> Kind {
    Kind::Ink(Ink {
        points: (0..points)
            .map(|i| Point {
                x: i as f64,
                y: 0.0,
            })
            .collect(),
        style: Style::default(),
    })
}

fn image(data: Vec<u8>) -> Kind {
    Kind::Image(Image {
        bounds: Rect::new(0.0, 0.0, 10.0, 10.0),
        format: ImageFormat::Png,
        data: Arc::from(data),
        style: Style::default(),
        rotation: inkboard_core::Rotation::NONE,
    })
}

/// The first bytes of a PNG that says it is `w` × `h` pixels.
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend_from_slice(&w.to_be_bytes());
    png.extend_from_slice(&h.to_be_bytes());
    png.extend_from_slice(&[8, 6, 0, 0, 0]);
    png
}

fn message(result: Result<(), ModelError>) -> String {
    result.expect_err("refused").to_string()
}

#[test]
fn texts_count_characters_not_bytes() {
    // Two bytes a character: at the limit in characters, twice over it in bytes.
    add(text_shape("é".repeat(MAX_TEXT_CHARS))).unwrap();
    assert_eq!(
        message(add(text_shape("é".repeat(MAX_TEXT_CHARS + 1)))),
        "the text of the shape being added has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    let label = |text: String| {
        let mut c = Connector::new(End::Point(Point::default()), End::Point(Point::default()));
        c.text = text;
        Kind::Connector(c)
    };
    add(label("x".repeat(MAX_TEXT_CHARS))).unwrap();
    assert_eq!(
        message(add(label("x".repeat(MAX_TEXT_CHARS + 1)))),
        "the text of the connector being added has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    let end_label = |at_start: bool, text: String| {
        let mut c = Connector::new(End::Point(Point::default()), End::Point(Point::default()));
        c.set_end_label(at_start, text);
        Kind::Connector(c)
    };
    add(end_label(false, "x".repeat(MAX_TEXT_CHARS))).unwrap();
    assert_eq!(
        message(add(end_label(true, "x".repeat(MAX_TEXT_CHARS + 1)))),
        "the start label of the connector being added has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    assert_eq!(
        message(add(end_label(false, "x".repeat(MAX_TEXT_CHARS + 1)))),
        "the end label of the connector being added has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
}

#[test]
fn ink_points_images_and_pixels() {
    add(ink(50_000)).unwrap();
    assert_eq!(
        message(add(ink(50_001))),
        "the ink stroke being added has 50001 points, more than the limit of 50000: split the stroke into several, or draw it with fewer points"
    );

    add(image(vec![0; 16 * 1024 * 1024])).unwrap();
    assert_eq!(
        message(add(image(vec![0; 16 * 1024 * 1024 + 1]))),
        "the image being added has 16777217 bytes, more than the limit of 16777216 (16 MiB): use a smaller image: scale it down or compress it"
    );

    add(image(png_header(16_384, 1))).unwrap();
    assert_eq!(
        message(add(image(png_header(1, 16_385)))),
        "the image being added has 16385 pixels on its longest side, more than the limit of 16384: scale the image down"
    );
    add(image(png_header(8_000, 5_000))).unwrap();
    assert_eq!(
        message(add(image(png_header(8_000, 5_001)))),
        "the image being added has 40008000 pixels, more than the limit of 40000000 (40 megapixels): scale the image down"
    );
    // An SVG is drawn at the size of its box: only its bytes count.
    let mut svg = image(b"<svg width=\"100000\" height=\"100000\"/>".to_vec());
    if let Kind::Image(i) = &mut svg {
        i.format = ImageFormat::Svg;
    }
    add(svg).unwrap();
}

#[test]
fn coordinates_and_sizes_stay_in_range() {
    let at = |x: f64, w: f64| {
        Kind::Shape(inkboard_core::Shape {
            geom: inkboard_core::Geom::Rect,
            bounds: Rect::new(x, -MAX_COORD, w, 0.0),
            text: String::new(),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        })
    };
    add(at(MAX_COORD, MAX_COORD)).unwrap();
    add(at(-MAX_COORD, 0.0)).unwrap();
    assert_eq!(
        message(add(at(MAX_COORD + 1.0, 10.0))),
        "x must be a finite number from -10000000 to 10000000, got 10000001"
    );
    assert_eq!(
        message(add(at(f64::NAN, 10.0))),
        "x must be a finite number from -10000000 to 10000000, got NaN"
    );
    assert_eq!(
        message(add(at(0.0, -1.0))),
        "w must be a finite number from 0 to 10000000, got -1"
    );
    assert_eq!(
        message(add(at(0.0, f64::INFINITY))),
        "w must be a finite number from 0 to 10000000, got inf"
    );
    let far = Point { x: 0.0, y: -2e7 };
    let free_end = Kind::Connector(Connector::new(
        End::Point(Point::default()),
        End::Point(far),
    ));
    assert_eq!(
        message(add(free_end)),
        "y must be a finite number from -10000000 to 10000000, got -20000000"
    );
    let stroke = Kind::Ink(Ink {
        points: vec![Point::default(), far],
        style: Style::default(),
    });
    assert_eq!(
        message(add(stroke)),
        "y must be a finite number from -10000000 to 10000000, got -20000000"
    );
    // Styles keep their own ranges, checked on the same step.
    let mut styled = at(0.0, 1.0);
    if let Kind::Shape(s) = &mut styled {
        s.style.opacity = Some(2.0);
    }
    assert_eq!(
        message(add(styled)),
        "opacity must be a finite number from 0 to 1, got 2"
    );
}

#[test]
fn a_replaced_record_is_checked_like_a_new_one() {
    let (mut board, page) = board();
    let mut tx = Transaction::begin(&mut board);
    let id = tx.add(page, None, text_shape("short".into())).unwrap();
    tx.commit(Actor::Agent).unwrap();
    let before = board.clone();
    let mut tx = Transaction::begin(&mut board);
    let err = tx
        .edit(&id, |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.bounds.x = 1e8;
            }
        })
        .unwrap_err();
    assert!(
        matches!(err, ModelError::BadNumber { what: "x", .. }),
        "{err}"
    );
    assert!(tx.is_empty(), "the refused step was not recorded");
    // A record already on the board is named by its id.
    let err = tx
        .edit(&id, |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.text = "x".repeat(MAX_TEXT_CHARS + 1);
            }
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the text of shape \"s1\" has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    drop(tx);
    assert_eq!(board, before);
}

#[test]
fn objects_per_page() {
    let (mut board, page) = board();
    let mut tx = Transaction::begin(&mut board);
    for _ in 0..limits::MAX_OBJECTS_PER_PAGE {
        tx.add(page, None, ink(0)).unwrap();
    }
    tx.commit(Actor::Agent).unwrap();
    assert_eq!(board.object_count(), 100_000);
    let mut tx = Transaction::begin(&mut board);
    let err = tx.add(page, Some(0), ink(0)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "page 1 has 100001 objects, more than the limit of 100000: put some of them on another page"
    );
    // Moving an object within its full page is no new object.
    let first = tx.board().pages()[0].objects[0].id.clone();
    tx.reorder(&first, 50_000).unwrap();
    tx.commit(Actor::Agent).unwrap();
    assert_eq!(board.object_count(), 100_000);
}

#[test]
fn pages_page_names_and_the_title() {
    let (mut board, _) = board();
    let mut tx = Transaction::begin(&mut board);
    for i in 1..limits::MAX_PAGES {
        tx.add_page(&format!("P{i}"), None).unwrap();
    }
    assert_eq!(
        tx.add_page("one more", Some(0)).unwrap_err().to_string(),
        "the board has 1001 pages, more than the limit of 1000: split the board into several boards"
    );
    tx.commit(Actor::Agent).unwrap();
    assert_eq!(board.pages().len(), 1000);

    let second = board.pages()[1].id;
    let mut tx = Transaction::begin(&mut board);
    tx.rename_page(second, &"n".repeat(MAX_TEXT_CHARS)).unwrap();
    assert_eq!(
        tx.rename_page(second, &"n".repeat(MAX_TEXT_CHARS + 1))
            .unwrap_err()
            .to_string(),
        "the name of page 2 has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    tx.set_title(&"t".repeat(MAX_TEXT_CHARS)).unwrap();
    assert_eq!(
        tx.set_title(&"t".repeat(MAX_TEXT_CHARS + 1))
            .unwrap_err()
            .to_string(),
        "the title has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
}

/// Undo and redo apply recorded steps; a step over a limit (from a history made
/// under other limits, or by hand) is refused like any other.
#[test]
fn recorded_steps_are_held_to_the_limits() {
    let (mut board, page) = board();
    let mut tx = Transaction::begin(&mut board);
    let id = tx.new_id(IdKind::Ink);
    let err = tx
        .apply_steps(&[Step::Insert {
            page,
            index: 0,
            object: Object::new(id, ink(50_001)),
        }])
        .unwrap_err();
    assert!(
        matches!(
            err,
            ModelError::TooLarge {
                limit: Limit::InkPoints,
                got: 50_001,
                ..
            }
        ),
        "{err}"
    );
    let err = tx
        .apply_steps(&[Step::InsertPage {
            index: 1,
            page: Page::new(PageId(7), "x".repeat(MAX_TEXT_CHARS + 1)),
        }])
        .unwrap_err();
    assert!(matches!(err, ModelError::TooLarge { .. }), "{err}");
}

#[test]
fn boards_from_saved_parts_are_held_to_the_limits() {
    let mut page = Page::new(PageId(1), "P");
    page.objects.push(Object::new(oid("k1"), ink(50_001)));
    let err = Board::from_parts("t".into(), vec![page], 1, 0, Default::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("ink stroke \"k1\" has 50001 points"),
        "{err}"
    );
    let pages = (1..=1001)
        .map(|i| Page::new(PageId(i), format!("P{i}")))
        .collect();
    let err = Board::from_parts("t".into(), pages, 1, 0, Default::default()).unwrap_err();
    assert!(
        matches!(
            err,
            ModelError::TooLarge {
                limit: Limit::Pages,
                ..
            }
        ),
        "{err}"
    );
}

/// The range in messages is the constant's, written out.
#[test]
fn the_coordinate_range_in_messages_is_the_constant() {
    let err = limits::check_coord("x", MAX_COORD * 2.0).unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("from -{MAX_COORD} to {MAX_COORD}")),
        "{err}"
    );
    let err = limits::check_size("w", -1.0).unwrap_err();
    assert!(
        err.to_string().contains(&format!("from 0 to {MAX_COORD}")),
        "{err}"
    );
}

/// The Limits table of the manual (`docs/limits.md`) states every limit with its
/// current value.
#[test]
fn the_manual_lists_every_limit() {
    let section =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/limits.md"))
            .expect("docs/limits.md");
    // 100000 → "100,000".
    let grouped = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let mib = |n: u64| format!("{} MiB", n / (1024 * 1024));
    for shown in [
        format!("| {} |", limits::MAX_BATCH_OPERATIONS),
        format!("| {} |", grouped(MAX_TEXT_CHARS as u64)),
        format!("| {} |", grouped(limits::MAX_INK_POINTS as u64)),
        format!("| {} |", mib(limits::MAX_IMAGE_BYTES as u64)),
        format!(
            "| {} a side, {} megapixels |",
            grouped(u64::from(limits::MAX_IMAGE_SIDE)),
            limits::MAX_IMAGE_PIXELS / 1_000_000
        ),
        format!("| {} |", grouped(limits::MAX_OBJECTS_PER_PAGE as u64)),
        format!("| {} |", grouped(limits::MAX_PAGES as u64)),
        format!(
            "| -{0} to {0} (sizes from 0), finite |",
            grouped(MAX_COORD as u64)
        ),
        format!("| {} |", mib(limits::MAX_FILE_BYTES)),
        format!("| {} levels |", limits::MAX_JSON_DEPTH),
        format!(
            "| {} (50 full ink strokes)",
            grouped(limits::MAX_JSON_CONTAINERS as u64)
        ),
        format!("| {} |", limits::MAX_XML_ATTRIBUTES),
        format!("| {} |", limits::MAX_XML_NAMESPACES),
        format!("| {} |", mib(limits::MAX_XML_ENTITY_BYTES)),
    ] {
        assert!(
            section.contains(&shown),
            "docs/limits.md's table lacks {shown:?}"
        );
    }
}
