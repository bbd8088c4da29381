//! The limits at the file boundary, on inputs too big for `bad/`: a file over the
//! size limit is refused from its size before a byte of it is read; a board too big
//! to load again is never saved; and every counted limit accepts a file exactly at
//! its value and refuses one more, naming the place.

use std::fs;
use std::sync::Arc;

use base64::Engine as _;
use inkboard_core::limits::{
    MAX_FILE_BYTES, MAX_IMAGE_BYTES, MAX_INK_POINTS, MAX_JSON_CONTAINERS, MAX_JSON_DEPTH,
    MAX_OBJECTS_PER_PAGE, MAX_PAGES, MAX_TEXT_CHARS,
};
use inkboard_core::{Actor, Board, Image, ImageFormat, Kind, Rect, Style, Transaction};
use inkboard_format::{board_from_json, load, save};

/// A document with these pages (JSON text of a list's items) and extra top fields.
fn doc(pages: &str, extra: &str) -> String {
    format!(r#"{{"format": "inkboard", "version": 1, "title": "t", "pages": [{pages}]{extra}}}"#)
}

/// One page holding these objects.
fn page(objects: &str) -> String {
    format!(r#"{{"id": "p1", "name": "P", "objects": [{objects}]}}"#)
}

/// `n` items made by `item`, comma-separated.
fn items(n: usize, item: impl Fn(usize) -> String) -> String {
    (0..n).map(item).collect::<Vec<_>>().join(",")
}

fn refused(text: &str) -> String {
    board_from_json(text).expect_err("refused").to_string()
}

/// The bytes this thread has read from files so far (Linux: `rchar`).
#[cfg(target_os = "linux")]
fn bytes_read() -> u64 {
    let io = fs::read_to_string("/proc/thread-self/io").expect("/proc/thread-self/io");
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("rchar")
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.inkboard");
    // Sparse: the size costs no disk and no time to make.
    let file = fs::File::create(&path).unwrap();
    file.set_len(MAX_FILE_BYTES + 1).unwrap();
    drop(file);
    let before = bytes_read();
    let err = load(&path).unwrap_err();
    let read = bytes_read() - before;
    assert_eq!(
        err.to_string(),
        format!(
            "{}: the file has 268435457 bytes, more than the limit of 268435456 (256 MiB): split the board into several, or make its images smaller",
            path.display()
        )
    );
    assert!(
        read < 4096,
        "{read} bytes were read from a file refused by its size"
    );

    // Exactly at the limit, the file is read: its first byte is not text, and
    // that is what is refused.
    let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(MAX_FILE_BYTES).unwrap();
    std::io::Write::write_all(&mut &file, b"\xff").unwrap();
    drop(file);
    let before = bytes_read();
    let err = load(&path).unwrap_err().to_string();
    assert!(bytes_read() - before >= MAX_FILE_BYTES);
    assert!(err.contains("the file is not UTF-8 text"), "{err}");
}

/// A board whose file would be over the limit could not be loaded again: the save
/// refuses it and writes nothing.
#[test]
fn a_board_too_big_for_a_file_is_not_saved() {
    let mut board = Board::new("big", &[]);
    let page = board.pages()[0].id;
    // One picture's bytes shared by all: 12 images of 16 MiB are 32 bytes over the
    // limit as base64, before any other field.
    let data: Arc<[u8]> = Arc::from(vec![7u8; MAX_IMAGE_BYTES]);
    let mut tx = Transaction::begin(&mut board);
    for i in 0..12 {
        let image = Image {
            bounds: Rect::new(f64::from(i) * 10.0, 0.0, 10.0, 10.0),
            format: ImageFormat::Png,
            data: data.clone(),
            style: Style::default(),
            rotation: inkboard_core::Rotation::NONE,
        };
        tx.add(page, None, Kind::Image(image)).unwrap();
    }
    tx.commit(Actor::Agent).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.inkboard");
    let err = save(&path, &board, None).unwrap_err().to_string();
    let prefix = format!("{}: the board was not saved: it has ", path.display());
    assert!(err.starts_with(&prefix), "{err}");
    assert!(
        err.ends_with(
            "bytes, more than the limit of 268435456 (256 MiB): split the board into several, or make its images smaller"
        ),
        "{err}"
    );
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn pages_objects_and_points_at_their_limit_load_and_one_more_is_refused() {
    let pages = |n| {
        items(n, |i| {
            format!(r#"{{"id": "p{}", "name": "P{i}", "objects": []}}"#, i + 1)
        })
    };
    assert_eq!(
        board_from_json(&doc(&pages(MAX_PAGES), ""))
            .unwrap()
            .pages()
            .len(),
        1000
    );
    assert_eq!(
        refused(&doc(&pages(MAX_PAGES + 1), "")),
        "pages: the board has 1001 pages, more than the limit of 1000: split the board into several boards"
    );

    let objects = |n| {
        page(&items(n, |i| {
            format!(r#"{{"id": "k{i}", "type": "ink", "points": []}}"#)
        }))
    };
    let board = board_from_json(&doc(&objects(MAX_OBJECTS_PER_PAGE), "")).unwrap();
    assert_eq!(board.object_count(), 100_000);
    assert_eq!(
        refused(&doc(&objects(MAX_OBJECTS_PER_PAGE + 1), "")),
        "pages[0].objects: the page has 100001 objects, more than the limit of 100000: put some of them on another page"
    );

    let stroke = |n| {
        let points = items(n, |i| format!("[{i}, 0]"));
        page(&format!(
            r#"{{"id": "k1", "type": "ink", "points": [{points}]}}"#
        ))
    };
    board_from_json(&doc(&stroke(MAX_INK_POINTS), "")).unwrap();
    assert_eq!(
        refused(&doc(&stroke(MAX_INK_POINTS + 1), "")),
        "pages[0].objects[0].points: the ink stroke has 50001 points, more than the limit of 50000: split the stroke into several, or draw it with fewer points"
    );
}

#[test]
fn texts_at_their_limit_load_and_one_more_character_is_refused() {
    // "é" is two bytes: the limit counts characters.
    let long = |n: usize| "é".repeat(n);
    let shape = |text: &str| {
        page(&format!(
            r#"{{"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 1, "h": 1, "text": "{text}"}}"#
        ))
    };
    board_from_json(&doc(&shape(&long(MAX_TEXT_CHARS)), "")).unwrap();
    assert_eq!(
        refused(&doc(&shape(&long(MAX_TEXT_CHARS + 1)), "")),
        "pages[0].objects[0]: the text of shape \"s1\" has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    let named = |name: &str| format!(r#"{{"id": "p1", "name": "{name}", "objects": []}}"#);
    board_from_json(&doc(&named(&long(MAX_TEXT_CHARS)), "")).unwrap();
    assert_eq!(
        refused(&doc(&named(&long(MAX_TEXT_CHARS + 1)), "")),
        "pages[0].name: the name has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    let titled = |title: &str| {
        format!(r#"{{"format": "inkboard", "version": 1, "title": "{title}", "pages": []}}"#)
    };
    board_from_json(&titled(&long(MAX_TEXT_CHARS))).unwrap();
    assert_eq!(
        refused(&titled(&long(MAX_TEXT_CHARS + 1))),
        "title: the title has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
}

#[test]
fn images_at_their_limit_load_and_bigger_ones_are_refused() {
    let image = |bytes: &[u8]| {
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        page(&format!(
            r#"{{"id": "i1", "type": "image", "x": 0, "y": 0, "w": 1, "h": 1, "format": "png", "data": "data:image/png;base64,{data}"}}"#
        ))
    };
    board_from_json(&doc(&image(&vec![1; MAX_IMAGE_BYTES]), "")).unwrap();
    assert_eq!(
        refused(&doc(&image(&vec![1; MAX_IMAGE_BYTES + 1]), "")),
        "pages[0].objects[0]: image \"i1\" has 16777217 bytes, more than the limit of 16777216 (16 MiB): use a smaller image: scale it down or compress it"
    );
    let png = |w: u32, h: u32| {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&w.to_be_bytes());
        png.extend_from_slice(&h.to_be_bytes());
        png
    };
    board_from_json(&doc(&image(&png(16_384, 2_441)), "")).unwrap();
    assert_eq!(
        refused(&doc(&image(&png(16_385, 1)), "")),
        "pages[0].objects[0]: image \"i1\" has 16385 pixels on its longest side, more than the limit of 16384: scale the image down"
    );
    assert_eq!(
        refused(&doc(&image(&png(10_000, 4_001)), "")),
        "pages[0].objects[0]: image \"i1\" has 40010000 pixels, more than the limit of 40000000 (40 megapixels): scale the image down"
    );
}

/// Nesting is measured on the text, unknown fields included, before it is parsed;
/// a file nested exactly to the limit loads and keeps its unknown field.
#[test]
fn nesting_at_the_limit_loads_and_one_level_more_is_refused() {
    // The document is the first level.
    let nested = |levels: usize| {
        let value = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        doc(&page(""), &format!(r#", "x-deep": {value}"#))
    };
    let board = board_from_json(&nested(MAX_JSON_DEPTH - 1)).unwrap();
    assert!(board.extra().contains_key("x-deep"));
    assert_eq!(
        refused(&nested(MAX_JSON_DEPTH)),
        "the document, at line 1, column 178, has 65 levels of nesting, more than the limit of 64: flatten the nested lists and objects"
    );
    // Far deeper than the JSON parser itself would go (128): the same clear refusal.
    let err = refused(&nested(100_000));
    assert!(err.contains("has 100001 levels of nesting"), "{err}");
}

/// Issue 12 (memory): the lists and objects of a file (each ink point is one)
/// are counted in its text, and a file with more than the limit is refused
/// before it is parsed, since the parsed tree, not the text, is what costs
/// memory (ink files within the size limit took 20 times their size).
#[test]
fn lists_and_objects_at_their_limit_load_and_one_more_is_refused() {
    // The document, its pages, the page and its objects: 4; each stroke: 2.
    let strokes = 50;
    let points = MAX_JSON_CONTAINERS - 4 - 2 * strokes;
    let file = |points: usize| {
        let per = MAX_INK_POINTS;
        let objects = items(strokes, |k| {
            let n = points.saturating_sub(k * per).min(per);
            format!(
                r#"{{"id": "k{k}", "type": "ink", "points": [{}]}}"#,
                items(n, |_| "[1,0]".to_string())
            )
        });
        doc(&page(&objects), "")
    };
    let board = board_from_json(&file(points)).expect("at the limit it loads");
    assert_eq!(board.object_count(), strokes);
    let err = refused(&file(points + 1));
    assert_eq!(
        err,
        "the file has 2500001 lists and objects (each ink point is one), more than the limit of 2500000: split the board into several, or draw its ink with fewer points"
    );
}
