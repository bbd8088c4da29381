//! Builds test boards through the model's own Transaction API, the way tools do,
//! and holds the boards that more than one test file draws.

#![allow(dead_code)]

use std::sync::Arc;

use inkboard_core::{
    Actor, Arrow, Board, Connector, End, Geom, Group, IdKind, Image, ImageFormat, Ink, Kind,
    Object, ObjectId, PageId, Point, Rect, Route, Shape, Style, Transaction,
};
use inkboard_render::ProblemKind;

/// A board under construction, on its first page.
pub struct Build {
    pub board: Board,
}

pub const PAGE: PageId = PageId(1);

impl Build {
    pub fn new() -> Self {
        Build {
            board: Board::new("test", &[]),
        }
    }

    fn add(&mut self, kind: IdKind, make: impl FnOnce(ObjectId) -> Object) -> ObjectId {
        let mut tx = Transaction::begin(&mut self.board);
        let id = tx.new_id(kind);
        tx.insert(PAGE, None, make(id.clone())).expect("insert");
        tx.commit(Actor::Agent).expect("commit");
        id
    }

    pub fn shape(&mut self, geom: Geom, r: [f64; 4], text: &str) -> ObjectId {
        self.styled(geom, r, text, Style::default())
    }

    pub fn styled(&mut self, geom: Geom, r: [f64; 4], text: &str, style: Style) -> ObjectId {
        self.add(IdKind::Shape, |id| {
            Object::new(
                id,
                Kind::Shape(Shape {
                    geom,
                    bounds: Rect::new(r[0], r[1], r[2], r[3]),
                    text: text.to_string(),
                    style,
                    sizing: inkboard_core::Sizing::Fixed,
                    rotation: inkboard_core::Rotation::NONE,
                    icon: None,
                }),
            )
        })
    }

    /// Turns a shape or image by `deg` degrees (clockwise, about its centre).
    pub fn turn(&mut self, id: &ObjectId, deg: f64) -> ObjectId {
        let mut o = self.board.object(id).expect("the object").clone();
        *o.rotation_mut().expect("a shape or image") =
            inkboard_core::Rotation::degrees(deg).expect("finite");
        let mut tx = Transaction::begin(&mut self.board);
        tx.replace(o).expect("replace");
        tx.commit(Actor::Agent).expect("commit");
        id.clone()
    }

    /// Gives a shape the icon `name` (spelled as icon names are).
    pub fn icon(&mut self, id: &ObjectId, name: &str) -> ObjectId {
        let mut o = self.board.object(id).expect("the object").clone();
        if let Kind::Shape(s) = &mut o.kind {
            s.icon = Some(inkboard_core::IconName::parse(name).expect("an icon name"));
        }
        let mut tx = Transaction::begin(&mut self.board);
        tx.replace(o).expect("replace");
        tx.commit(Actor::Agent).expect("commit");
        id.clone()
    }

    /// Mirrors a shape's or image's drawing in its box.
    pub fn flip(&mut self, id: &ObjectId, x: bool, y: bool) -> ObjectId {
        let mut o = self.board.object(id).expect("the object").clone();
        o.flip = inkboard_core::Flip { x, y };
        let mut tx = Transaction::begin(&mut self.board);
        tx.replace(o).expect("replace");
        tx.commit(Actor::Agent).expect("commit");
        id.clone()
    }

    pub fn connect(&mut self, from: End, to: End, route: Route, end_arrow: Arrow) -> ObjectId {
        self.connector(Connector {
            route,
            end_arrow,
            ..Connector::new(from, to)
        })
    }

    pub fn connector(&mut self, c: Connector) -> ObjectId {
        self.add(IdKind::Connector, |id| Object::new(id, Kind::Connector(c)))
    }

    /// A connector with a label, otherwise as `Connector::new` makes it (orthogonal,
    /// an arrow at its end).
    pub fn labelled(&mut self, from: &ObjectId, to: &ObjectId, text: &str) -> ObjectId {
        self.connector(Connector {
            text: text.into(),
            ..Connector::new(obj(from), obj(to))
        })
    }

    pub fn image(&mut self, r: [f64; 4], format: ImageFormat, data: Vec<u8>) -> ObjectId {
        self.add(IdKind::Image, |id| {
            Object::new(
                id,
                Kind::Image(Image {
                    bounds: Rect::new(r[0], r[1], r[2], r[3]),
                    format,
                    data: Arc::from(data),
                    style: Style::default(),
                    rotation: inkboard_core::Rotation::NONE,
                }),
            )
        })
    }

    pub fn ink(&mut self, points: &[(f64, f64)], style: Style) -> ObjectId {
        self.add(IdKind::Ink, |id| {
            Object::new(
                id,
                Kind::Ink(Ink {
                    points: points.iter().map(|&(x, y)| Point { x, y }).collect(),
                    style,
                }),
            )
        })
    }

    pub fn group(&mut self, members: &[ObjectId]) -> ObjectId {
        self.add(IdKind::Group, |id| {
            Object::new(
                id,
                Kind::Group(Group {
                    members: members.to_vec(),
                }),
            )
        })
    }
}

// Boards that both the connector tests and the reference renders use: each returns
// what the tests measure against.

/// Two shapes with a tall wall between them, joined by an orthogonal connector that
/// must go round it. Returns the wall's box.
pub fn around_wall(b: &mut Build) -> Rect {
    let wall = Rect::new(170.0, 20.0, 60.0, 130.0);
    let a = b.shape(Geom::Rect, [0.0, 60.0, 90.0, 50.0], "a");
    b.shape(Geom::Rect, [wall.x, wall.y, wall.w, wall.h], "wall");
    let c = b.shape(Geom::Rect, [310.0, 60.0, 90.0, 50.0], "b");
    b.connect(obj(&a), obj(&c), Route::Orthogonal, Arrow::Arrow);
    wall
}

/// Four lines from a top row to a bottom row in reverse order, all running along
/// the channel between the rows.
pub fn shared_channel(b: &mut Build) {
    let top: Vec<_> = (0..4)
        .map(|i| b.shape(Geom::Rect, [i as f64 * 130.0, 0.0, 100.0, 50.0], "from"))
        .collect();
    let bottom: Vec<_> = (0..4)
        .map(|i| b.shape(Geom::Rect, [i as f64 * 130.0, 200.0, 100.0, 50.0], "to"))
        .collect();
    for (i, t) in top.iter().enumerate() {
        b.connect(obj(t), obj(&bottom[3 - i]), Route::Orthogonal, Arrow::Arrow);
    }
}

/// A frame holding two shapes, with a shape on either side of it: a line between
/// the two inside, one from the left shape to one inside, and one between the two
/// outside, in that order. Returns the frame's box.
pub fn frame_routes(b: &mut Build) -> Rect {
    let frame = Rect::new(120.0, 0.0, 220.0, 220.0);
    b.shape(Geom::Frame, [frame.x, frame.y, frame.w, frame.h], "Frame");
    let p = b.shape(Geom::Rect, [150.0, 50.0, 80.0, 40.0], "in 1");
    let q = b.shape(Geom::Rect, [230.0, 150.0, 80.0, 40.0], "in 2");
    let l = b.shape(Geom::Rect, [0.0, 90.0, 80.0, 40.0], "left");
    let r = b.shape(Geom::Rect, [400.0, 90.0, 80.0, 40.0], "right");
    b.connect(obj(&p), obj(&q), Route::Orthogonal, Arrow::Arrow);
    b.connect(obj(&l), obj(&p), Route::Orthogonal, Arrow::Arrow);
    b.connect(obj(&l), obj(&r), Route::Orthogonal, Arrow::Arrow);
    frame
}

/// A long labelled line with a note just below its middle, where the label would
/// cover it. Returns the note's box.
pub fn label_by_note(b: &mut Build) -> Rect {
    let note = Rect::new(390.0, 40.0, 100.0, 60.0);
    let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 50.0], "a");
    let c = b.shape(Geom::Rect, [800.0, 0.0, 100.0, 50.0], "b");
    b.shape(Geom::Note, [note.x, note.y, note.w, note.h], "note");
    b.labelled(&a, &c, "a label long enough to wrap onto two lines");
    note
}

/// The ids of the problems of `kind` that `check` finds on the board.
pub fn problems(b: &Build, kind: ProblemKind) -> Vec<Vec<ObjectId>> {
    inkboard_render::check(&b.board, PAGE)
        .into_iter()
        .filter(|p| p.kind == kind)
        .map(|p| p.ids)
        .collect()
}

pub fn obj(id: &ObjectId) -> End {
    End::Object(id.clone())
}

pub fn at(x: f64, y: f64) -> End {
    End::Point(Point { x, y })
}

/// A small RGB PNG: a colour gradient, made here so the test needs no image files.
pub fn gradient_png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().unwrap();
    let mut px = Vec::new();
    for y in 0..h {
        for x in 0..w {
            px.extend_from_slice(&[(x * 255 / w.max(1)) as u8, (y * 255 / h.max(1)) as u8, 200]);
        }
    }
    writer.write_image_data(&px).unwrap();
    writer.finish().unwrap();
    out
}

/// The text poppler's `pdftotext` extracts from `pdf`.
pub fn pdftotext(pdf: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "inkboard-pdftotext-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scripts.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "pdftotext could not run ({e}): apt-get install poppler-utils (scripts/test does)"
            )
        });
    if let Ok(keep) = std::env::var("KEEP_PDF") {
        std::fs::copy(&path, keep).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "pdftotext failed: {out:?}");
    String::from_utf8(out.stdout).expect("pdftotext writes UTF-8")
}
