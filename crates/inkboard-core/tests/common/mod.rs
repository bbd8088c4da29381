//! Helpers shared by the integration tests of inkboard-core: builders for objects, a
//! small sample board, a check that a board's derived index agrees with its pages,
//! and a deterministic pseudo-random generator with random edits for the property
//! tests. Each test file uses only some of them.

#![allow(dead_code)]

use std::sync::Arc;

use inkboard_core::{
    Actor, Board, Color, Connector, End, Geom, Group, IdKind, Image, ImageFormat, Ink, Kind,
    ModelError, Object, ObjectId, PageId, Palette, Point, Rect, Shape, Style, Transaction,
    Vocabulary,
};

pub fn oid(text: &str) -> ObjectId {
    ObjectId::parse(text).unwrap()
}

pub fn shape_at(id: &ObjectId, bounds: Rect, text: &str) -> Object {
    Object::new(
        id.clone(),
        Kind::Shape(Shape {
            geom: Geom::Rect,
            bounds,
            text: text.to_string(),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        }),
    )
}

pub fn shape(id: &ObjectId, text: &str) -> Object {
    shape_at(id, Rect::new(0.0, 0.0, 100.0, 50.0), text)
}

pub fn connector(id: &ObjectId, from: &ObjectId, to: &ObjectId) -> Object {
    Object::new(
        id.clone(),
        Kind::Connector(Connector::new(
            End::Object(from.clone()),
            End::Object(to.clone()),
        )),
    )
}

pub fn group(id: &ObjectId, members: &[&ObjectId]) -> Object {
    Object::new(
        id.clone(),
        Kind::Group(Group {
            members: members.iter().map(|m| (*m).clone()).collect(),
        }),
    )
}

/// A committed board with two pages: on page 1 shapes `a`, `b`, `c`, a connector
/// `link` from `a` to `b` and a group `grp` of `a` and `b`; on page 2 a shape `d`.
#[derive(Clone)]
pub struct Sample {
    pub board: Board,
    pub p1: PageId,
    pub p2: PageId,
    pub a: ObjectId,
    pub b: ObjectId,
    pub c: ObjectId,
    pub link: ObjectId,
    pub grp: ObjectId,
    pub d: ObjectId,
}

pub fn sample() -> Sample {
    let mut board = Board::new("Sample", &["One".to_string(), "Two".to_string()]);
    let (p1, p2) = (board.pages()[0].id, board.pages()[1].id);
    let mut tx = Transaction::begin(&mut board);
    let a = tx.new_id(IdKind::Shape);
    let b = tx.new_id(IdKind::Shape);
    let c = tx.new_id(IdKind::Shape);
    let link = tx.new_id(IdKind::Connector);
    let grp = tx.new_id(IdKind::Group);
    let d = tx.new_id(IdKind::Shape);
    tx.insert(
        p1,
        None,
        shape_at(&a, Rect::new(0.0, 0.0, 100.0, 50.0), "a"),
    )
    .unwrap();
    tx.insert(
        p1,
        None,
        shape_at(&b, Rect::new(200.0, 0.0, 100.0, 50.0), "b"),
    )
    .unwrap();
    tx.insert(
        p1,
        None,
        shape_at(&c, Rect::new(0.0, 200.0, 100.0, 50.0), "c"),
    )
    .unwrap();
    tx.insert(p1, None, connector(&link, &a, &b)).unwrap();
    tx.insert(p1, None, group(&grp, &[&a, &b])).unwrap();
    tx.insert(p2, None, shape(&d, "d")).unwrap();
    tx.commit(Actor::User).unwrap().unwrap();
    Sample {
        board,
        p1,
        p2,
        a,
        b,
        c,
        link,
        grp,
        d,
    }
}

/// What a board is, bookkeeping included: equal content, id counter and revision.
#[derive(Debug, PartialEq)]
pub struct Snapshot {
    pub board: Board,
    pub next_object: u64,
    pub revision: u64,
}

pub fn snapshot(board: &Board) -> Snapshot {
    Snapshot {
        board: board.clone(),
        next_object: board.next_object(),
        revision: board.revision(),
    }
}

/// Checks the board's invariants against its pages: those of [`assert_indexed`],
/// and references resolve on their own page.
pub fn assert_consistent(board: &Board) {
    assert_indexed(board);
    for page in board.pages() {
        for object in &page.objects {
            for target in object.references() {
                assert_eq!(
                    board.locate(target).map(|l| l.0),
                    Some(page.id),
                    "{} refers to {target} off its page",
                    object.id
                );
            }
        }
    }
}

/// Checks the board's derived index against its pages, as it must hold even in the
/// middle of a transaction: every object is found where it lies, ids and page ids
/// are unique, and the id counter is past every id it made.
pub fn assert_indexed(board: &Board) {
    let mut count = 0;
    let mut pages = std::collections::HashSet::new();
    for page in board.pages() {
        assert!(pages.insert(page.id), "page id {} twice", page.id);
        for (i, object) in page.objects.iter().enumerate() {
            count += 1;
            assert_eq!(
                board.locate(&object.id),
                Some((page.id, i)),
                "index of {}",
                object.id
            );
            assert_eq!(board.object(&object.id), Some(object));
            if let Some(n) = object.id.counter() {
                assert!(board.next_object() > n, "counter not past {}", object.id);
            }
        }
    }
    assert!(!board.pages().is_empty());
    assert_eq!(board.object_count(), count, "index holds stale entries");
}

/// A small deterministic generator (SplitMix64): the same seed gives the same
/// sequence on every platform, so a failing case can be replayed by its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number from 0 to `n - 1`; `n` must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }
    pub fn coord(&mut self) -> f64 {
        (self.below(2000) as f64) - 500.0
    }
}

fn page_ids(tx: &Transaction<'_>) -> Vec<PageId> {
    tx.board().pages().iter().map(|p| p.id).collect()
}

fn ids_on(tx: &Transaction<'_>, page: PageId) -> Vec<ObjectId> {
    tx.board()
        .page(page)
        .map(|p| p.objects.iter().map(|o| o.id.clone()).collect())
        .unwrap_or_default()
}

fn all_ids(tx: &Transaction<'_>) -> Vec<ObjectId> {
    tx.board()
        .pages()
        .iter()
        .flat_map(|p| p.objects.iter().map(|o| o.id.clone()))
        .collect()
}

/// A new object of a random kind for `page`; connectors and groups refer only to
/// objects already on that page, so they never form cycles.
fn random_object(tx: &mut Transaction<'_>, rng: &mut Rng, page: PageId) -> Object {
    let here = ids_on(tx, page);
    let style = Style {
        fill: rng
            .chance(30)
            .then(|| Color::Named(*rng.pick(Palette::ALL).unwrap())),
        ..Style::default()
    };
    let choice = if here.is_empty() {
        rng.below(3)
    } else {
        rng.below(5)
    };
    match choice {
        0 => {
            let id = tx.new_id(IdKind::Shape);
            let bounds = Rect::new(rng.coord(), rng.coord(), 10.0 + rng.below(300) as f64, 40.0);
            let mut o = shape_at(&id, bounds, &format!("t{}", rng.below(100)));
            if let Kind::Shape(s) = &mut o.kind {
                s.geom = *rng.pick(Geom::ALL).unwrap();
                s.style = style;
            }
            o
        }
        1 => {
            let id = tx.new_id(IdKind::Ink);
            let points = (0..1 + rng.below(4))
                .map(|_| Point {
                    x: rng.coord(),
                    y: rng.coord(),
                })
                .collect();
            Object::new(id, Kind::Ink(Ink { points, style }))
        }
        2 => {
            let id = tx.new_id(IdKind::Image);
            Object::new(
                id,
                Kind::Image(Image {
                    bounds: Rect::new(rng.coord(), rng.coord(), 64.0, 64.0),
                    format: ImageFormat::Png,
                    data: Arc::from(vec![rng.below(256) as u8; 3]),
                    style,
                    rotation: inkboard_core::Rotation::NONE,
                }),
            )
        }
        3 => {
            let id = tx.new_id(IdKind::Connector);
            let end = |rng: &mut Rng| {
                if rng.chance(80) {
                    End::Object(rng.pick(&here).unwrap().clone())
                } else {
                    End::Point(Point {
                        x: rng.coord(),
                        y: rng.coord(),
                    })
                }
            };
            let (from, to) = (end(rng), end(rng));
            let mut c = Connector::new(from, to);
            c.style = style;
            Object::new(id, Kind::Connector(c))
        }
        _ => {
            let id = tx.new_id(IdKind::Group);
            let members = (0..1 + rng.below(3))
                .map(|_| rng.pick(&here).unwrap().clone())
                .collect::<Vec<_>>();
            let mut members = members;
            members.sort();
            members.dedup();
            Object::new(id, Kind::Group(Group { members }))
        }
    }
}

/// Removes `id` and, first, everything that would dangle without it: connectors
/// touching it go, groups holding it let it go.
pub fn remove_tidy(tx: &mut Transaction<'_>, id: &ObjectId) -> Result<(), ModelError> {
    let Some((page, _)) = tx.board().locate(id) else {
        return Ok(());
    };
    for c in tx
        .board()
        .connectors_touching(page, std::slice::from_ref(id))
    {
        remove_tidy(tx, &c)?;
    }
    for g in tx.board().groups_holding(page, id) {
        tx.edit(&g, |o| {
            if let Kind::Group(g) = &mut o.kind {
                g.members.retain(|m| m != id);
            }
        })?;
    }
    tx.remove(id).map(drop)
}

/// Makes one random edit. With `tidy`, the edit keeps the board's invariants so the
/// transaction can commit; without, removals may leave references dangling and
/// objects may move pages with their references.
pub fn random_edit(tx: &mut Transaction<'_>, rng: &mut Rng, tidy: bool) -> Result<(), ModelError> {
    let pages = page_ids(tx);
    let page = *rng.pick(&pages).unwrap();
    let ids = all_ids(tx);
    match rng.below(12) {
        0..=2 => {
            let object = random_object(tx, rng, page);
            let len = ids_on(tx, page).len();
            let index = if rng.chance(50) {
                None
            } else {
                Some(rng.below(len + 2))
            };
            tx.insert(page, index, object)
        }
        3 | 4 => {
            let Some(id) = rng.pick(&ids).cloned() else {
                return Ok(());
            };
            let x = rng.coord();
            let text = format!("edit{}", rng.below(1000));
            let key = rng.chance(20);
            tx.edit(&id, |o| {
                match &mut o.kind {
                    Kind::Shape(s) => {
                        s.bounds.x = x;
                        s.text = text;
                    }
                    Kind::Connector(c) => c.text = text,
                    Kind::Image(i) => i.bounds.x = x,
                    Kind::Ink(k) => k.points.push(Point { x, y: x }),
                    Kind::Group(g) => {
                        if g.members.len() > 1 {
                            g.members.pop();
                        }
                    }
                }
                if key {
                    o.extra.insert("future".into(), format!("{x}"));
                }
            })
        }
        5 => {
            let Some(id) = rng.pick(&ids).cloned() else {
                return Ok(());
            };
            if tidy {
                remove_tidy(tx, &id)
            } else {
                tx.remove(&id).map(drop)
            }
        }
        6 => {
            let Some(id) = rng.pick(&ids).cloned() else {
                return Ok(());
            };
            let to = rng.below(ids.len() + 2);
            tx.reorder(&id, to)
        }
        7 => {
            // Move an object to another page, as a tool would: remove, then insert.
            let Some(id) = rng.pick(&ids).cloned() else {
                return Ok(());
            };
            let (from, _) = tx.board().locate(&id).unwrap();
            let object = tx.board().object(&id).unwrap().clone();
            let free = tx
                .board()
                .connectors_touching(from, std::slice::from_ref(&id))
                .is_empty()
                && tx.board().groups_holding(from, &id).is_empty()
                && object.references().is_empty();
            if tidy && !free {
                return Ok(());
            }
            tx.remove(&id)?;
            tx.insert(page, None, object)
        }
        8 => {
            let len = pages.len();
            let index = rng.chance(50).then(|| rng.below(len + 2));
            tx.add_page(&format!("Page {}", rng.below(100)), index)
                .unwrap();
            Ok(())
        }
        9 => tx.rename_page(page, &format!("Renamed {}", rng.below(100))),
        10 => {
            if pages.len() > 1 {
                tx.remove_page(page).map(drop)
            } else {
                Ok(())
            }
        }
        _ => {
            if rng.chance(50) {
                tx.set_title(&format!("Title {}", rng.below(100)))
            } else {
                // An id handed out and never used.
                tx.new_id(IdKind::Shape);
                Ok(())
            }
        }
    }
}

/// A board built by a few random committed transactions, for the property tests
/// to start from.
pub fn random_board(rng: &mut Rng) -> Board {
    let mut board = Board::new("Random", &[]);
    for _ in 0..3 {
        let mut tx = Transaction::begin(&mut board);
        for _ in 0..10 {
            random_edit(&mut tx, rng, true).unwrap();
        }
        tx.commit(Actor::User).unwrap();
    }
    assert_consistent(&board);
    board
}
