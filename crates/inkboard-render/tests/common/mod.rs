//! Builds test boards through the model's own Transaction API, the way tools do.

#![allow(dead_code)]

use std::sync::Arc;

use inkboard_core::{
    Actor, Arrow, Board, Connector, End, Geom, Group, IdKind, Image, ImageFormat, Ink, Kind,
    Object, ObjectId, PageId, Point, Rect, Route, Shape, Style, Transaction,
};

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
                }),
            )
        })
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

    pub fn image(&mut self, r: [f64; 4], format: ImageFormat, data: Vec<u8>) -> ObjectId {
        self.add(IdKind::Image, |id| {
            Object::new(
                id,
                Kind::Image(Image {
                    bounds: Rect::new(r[0], r[1], r[2], r[3]),
                    format,
                    data: Arc::from(data),
                    style: Style::default(),
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
