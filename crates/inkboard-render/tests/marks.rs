//! A shape's own link and flip, as drawn: a linked shape is an SVG `<a>` (new tab,
//! `noopener`) around its drawing and a PDF link annotation over it, while the
//! fragments the editor shows carry none (there a click selects); a flipped
//! shape's outline is mirrored in its box and its text is not. The pictures are
//! in `tests/reference/` (`flip_triangle`, `link_shape`).

mod common;

use common::*;
use inkboard_core::{Actor, Flip, Geom, Link, ObjectId, Transaction};
use inkboard_render::scene::{Part, Seg};
use inkboard_render::{item_svg, resolve, to_pdf, to_svg};

fn mark(b: &mut Build, id: &ObjectId, link: Option<&str>, flip: Flip) {
    let mut o = b.board.object(id).expect("the object").clone();
    o.link = link.map(|l| Link::parse(l).expect("a link"));
    o.flip = flip;
    let mut tx = Transaction::begin(&mut b.board);
    tx.replace(o).expect("replace");
    tx.commit(Actor::Agent).expect("commit");
}

#[test]
fn a_linked_shape_is_a_link_in_svg_and_pdf_but_not_on_screen() {
    let mut b = Build::new();
    let s = b.shape(Geom::Rect, [0.0, 0.0, 120.0, 60.0], "Docs");
    b.shape(Geom::Rect, [200.0, 0.0, 120.0, 60.0], "Plain");
    mark(
        &mut b,
        &s,
        Some("https://example.com/docs?a=1&b=2"),
        Flip::NONE,
    );
    let scene = resolve(&b.board, PAGE);
    let svg = to_svg(&scene, None);
    assert_eq!(
        svg.matches(r#"<a href="https://example.com/docs?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">"#)
            .count(),
        1,
        "{svg}"
    );
    assert!(
        !item_svg(&scene.items[0]).contains("<a "),
        "the editor's fragment has no link"
    );
    let pdf = to_pdf(&[scene], "links").unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let mut found = Vec::new();
    for (_, page) in doc.get_pages() {
        for annot in doc.get_page_annotations(page).unwrap() {
            let action = annot.get(b"A").unwrap().as_dict().unwrap();
            let uri = action.get(b"URI").unwrap().as_str().unwrap().to_vec();
            let rect: Vec<f32> = annot
                .get(b"Rect")
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_float().unwrap())
                .collect();
            found.push((String::from_utf8(uri).unwrap(), rect));
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "https://example.com/docs?a=1&b=2");
    // Over the shape: 120 wide, from the page's padding (25) on.
    let r = &found[0].1;
    assert!((r[2] - r[0] - 121.0).abs() < 2.0, "{r:?}");
}

/// The points of an item's first path.
fn outline(item: &inkboard_render::Item) -> Vec<(f64, f64)> {
    let Some(Part::Path(p)) = item.parts.first() else {
        panic!("a path first")
    };
    p.segs
        .iter()
        .filter_map(|s| match *s {
            Seg::Move(a) | Seg::Line(a) => Some((a.x, a.y)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_flipped_outline_is_mirrored_in_its_box_and_its_text_is_not() {
    let mut b = Build::new();
    let up = b.shape(Geom::Triangle, [0.0, 0.0, 100.0, 80.0], "T");
    let down = b.shape(Geom::Triangle, [0.0, 0.0, 100.0, 80.0], "T");
    mark(&mut b, &down, None, Flip { x: false, y: true });
    let scene = resolve(&b.board, PAGE);
    let (a, c) = (&scene.items[0], &scene.items[1]);
    assert_eq!((a.id.clone(), c.id.clone()), (up, down));
    let mirrored: Vec<(f64, f64)> = outline(a).iter().map(|&(x, y)| (x, 80.0 - y)).collect();
    assert_eq!(outline(c), mirrored);
    // The apex: at the top unflipped, at the bottom flipped.
    assert!(outline(a).iter().any(|&(x, y)| x == 50.0 && y == 0.0));
    assert!(outline(c).iter().any(|&(x, y)| x == 50.0 && y == 80.0));
    let text = |i: &inkboard_render::Item| {
        i.parts.iter().find_map(|p| match p {
            Part::Text(t) => Some(t.clone()),
            _ => None,
        })
    };
    // The same lines, moved into the wide half: mirrored as a box, not as letters.
    let (ta, tc) = (text(a).unwrap(), text(c).unwrap());
    assert_eq!(ta.lines.len(), tc.lines.len());
    for (la, lc) in ta.lines.iter().zip(&tc.lines) {
        assert_eq!((la.x, la.width), (lc.x, lc.width), "not mirrored across");
        assert!(
            lc.baseline < la.baseline - 20.0,
            "higher up: {} and {}",
            lc.baseline,
            la.baseline
        );
    }
}
