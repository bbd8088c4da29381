//! Random boards and edits for property tests: [`proptest`] strategies, behind the
//! `arbitrary` feature, so that the model's own tests and those of the crates above
//! it (the file format's round trip) exercise the same kinds of board.
//!
//! An edit is generated as a plan, an [`Op`], whose targets are [`Index`]es resolved
//! against the board only when the plan is applied. Any plan therefore applies to
//! any board, and proptest shrinks a failing sequence by dropping plans or simplifying
//! them without making the others invalid. Applied *tidily*, plans keep the board's
//! invariants (a transaction of them always commits); applied untidily they may also
//! leave references dangling, move referenced objects between pages, make group
//! cycles or try to remove the last page, so that commits are refused too.
//!
//! Numbers are whole hundredths, as files keep them, and texts mix plain words with
//! the characters that trip encoders up (combining marks, right-to-left runs, emoji
//! sequences, controls, NUL, JSON's escapes, very long runs), so that a board made
//! here survives a save and a load unchanged.
//!
//! Limitations: object ids are always the board's own (`s12`, `c3`...), never ids
//! written by hand in a file; unknown fields are simple JSON values (see [`extra`]).

use std::sync::Arc;

use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::FileFailurePersistence;

use crate::{
    Actor, Align, Arrow, Board, Color, Connector, Dash, End, Extra, FillStyle, Font, Geom, Group,
    IdKind, Image, ImageFormat, Ink, Kind, ModelError, Object, ObjectId, PageId, Palette, Point,
    Rect, Rotation, Route, Shape, Side, Style, Transaction, VAlign, Vocabulary,
};

/// The settings of a property test file: `cases` cases unless `PROPTEST_CASES` says
/// otherwise, and failures saved beside the file (`NAME.proptest-regressions`) to be
/// replayed first on the next run.
pub fn config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    };
    // The default has already read `PROPTEST_CASES`; only its absence is ours to fill.
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config
}

/// A number of whole hundredths from `min` to `max` (so `min / 100` to `max / 100`):
/// files round to 0.01, so such numbers come back from a file exactly.
fn hundredths(min: i32, max: i32) -> impl Strategy<Value = f64> {
    (min..=max).prop_map(|n| f64::from(n) / 100.0)
}

/// A coordinate, from -1000 to 1000.
pub fn coord() -> impl Strategy<Value = f64> {
    hundredths(-100_000, 100_000)
}

pub fn point() -> impl Strategy<Value = Point> {
    (coord(), coord()).prop_map(|(x, y)| Point { x, y })
}

/// A rotation: mostly none, else a turn in hundredths of a degree (as files keep).
pub fn rotation() -> impl Strategy<Value = Rotation> {
    prop_oneof![
        2 => Just(Rotation::NONE),
        1 => hundredths(0, 35_999).prop_map(|d| Rotation::degrees(d).unwrap_or_default()),
    ]
}

/// A rectangle with a size from 0 to 500.
pub fn rect() -> impl Strategy<Value = Rect> {
    (
        coord(),
        coord(),
        hundredths(0, 50_000),
        hundredths(0, 50_000),
    )
        .prop_map(|(x, y, w, h)| Rect::new(x, y, w, h))
}

pub fn color() -> impl Strategy<Value = Color> {
    prop_oneof![
        select(Palette::ALL).prop_map(Color::Named),
        any::<[u8; 4]>().prop_map(Color::Rgba),
    ]
}

/// `Some` one time in four.
fn some<S: Strategy>(value: S) -> impl Strategy<Value = Option<S::Value>> {
    option::weighted(0.25, value)
}

/// A style, each field set one time in four, every value within its range.
pub fn style() -> impl Strategy<Value = Style> {
    (
        some(color()),
        some(color()),
        some(hundredths(0, 100_000)),
        some(select(Dash::ALL)),
        some(hundredths(0, 100_000)),
        some(color()),
        some(select(Align::ALL)),
        some(select(VAlign::ALL)),
        some(select(Font::ALL)),
        some(hundredths(0, 100)),
        some(hundredths(0, 200)),
        some(select(FillStyle::ALL)),
    )
        .prop_map(
            |(
                fill,
                stroke,
                stroke_width,
                dash,
                font_size,
                text_color,
                align,
                valign,
                font,
                opacity,
                roughness,
                fill_style,
            )| {
                Style {
                    fill,
                    stroke,
                    stroke_width,
                    dash,
                    font_size,
                    text_color,
                    align,
                    valign,
                    font,
                    opacity,
                    roughness,
                    fill_style,
                }
            },
        )
        // Boxed: a tuple of ten value trees, nested in objects and boards, takes
        // more than a test thread's stack when it shrinks.
        .boxed()
}

/// Pieces of text that trip encoders, layouts and diffs up.
pub const ODD_TEXT: &[&str] = &[
    // Combining marks: an accent, a stack of them, an arrow above.
    "e\u{301}",
    "a\u{300}\u{316}\u{35c}\u{361}",
    "x\u{20d7}",
    // Right to left: Hebrew, Arabic, the override and mark controls, a mixed run.
    "\u{5e9}\u{5dc}\u{5d5}\u{5dd}",
    "\u{645}\u{631}\u{62d}\u{628}\u{627}",
    "\u{202e}abc\u{202c}",
    "\u{200f}",
    "abc \u{5d0}\u{5d1} 123",
    // Emoji: plain, with a skin tone, a family joined by ZWJ, a flag, a keycap.
    "\u{1f600}",
    "\u{1f44d}\u{1f3fd}",
    "\u{1f469}\u{200d}\u{1f469}\u{200d}\u{1f467}",
    "\u{1f1eb}\u{1f1f7}",
    "1\u{fe0f}\u{20e3}",
    // What JSON escapes, and what it does not but readers choke on.
    "\"",
    "\\",
    "/",
    "\0",
    "\n",
    "\r\n",
    "\t",
    "\u{8}\u{c}",
    "\u{1b}[0m",
    "\u{7f}",
    "\u{2028}\u{2029}",
    // Edges of the code space, invisible ones, and a replacement character.
    "\u{feff}",
    "\u{200b}",
    "\u{fffd}",
    "\u{ffff}",
    "\u{10ffff}",
    // CJK and Hangul, and text that looks like markup or a batch reference.
    "\u{6f22}\u{5b57}\u{d55c}\u{ae00}",
    "</script><b>&amp;",
    "$0.id",
    " ",
];

/// A text: plain words, odd pieces and any characters mixed; now and then a very
/// long run (up to tens of thousands of characters, never past
/// [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS)).
pub fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[a-zA-Z0-9 .,]{0,10}",
        3 => select(ODD_TEXT).prop_map(str::to_string),
        2 => any::<char>().prop_map(String::from),
    ];
    prop_oneof![
        20 => vec(piece, 0..6).prop_map(|pieces| pieces.concat()),
        1 => (select(ODD_TEXT), 1_000..20_000usize).prop_map(|(p, n)| {
            p.repeat(n.min(crate::limits::MAX_TEXT_CHARS / p.chars().count()))
        }),
    ]
}

/// Unknown fields as a file keeps them: keys that no record knows (`x-` and a word)
/// and values as compact JSON text, written exactly as `serde_json` writes them.
pub fn extra() -> impl Strategy<Value = Extra> {
    let value = prop_oneof![
        any::<i32>().prop_map(|n| n.to_string()),
        Just("true".to_string()),
        Just("null".to_string()),
        "[a-z ]{0,8}".prop_map(|s| format!("\"{s}\"")),
        (any::<i16>(), any::<bool>()).prop_map(|(n, b)| format!("[{n},{b}]")),
        "[a-z]{1,4}".prop_map(|k| format!("{{\"{k}\":[]}}")),
    ];
    btree_map("x-[a-z_]{1,6}", value, 0..3)
}

/// One end of a new or edited connector: an object of its page (resolved when the
/// plan is applied; a free point when the page is empty) or a point.
#[derive(Clone, Debug)]
pub enum EndPlan {
    Object(Index),
    Point(Point),
}

/// What a new object is to be.
#[derive(Clone, Debug)]
pub enum New {
    /// A shape, image or ink stroke: a kind that refers to nothing.
    Free(Kind),
    /// A connector; the ends of `body` are replaced by those of the plan.
    Connector {
        from: EndPlan,
        to: EndPlan,
        body: Connector,
    },
    /// A group of objects already on its page (none when the page is empty).
    Group { members: Vec<Index> },
}

/// A change to one field of an object; one that does not apply to the object's kind
/// changes nothing.
#[derive(Clone, Debug)]
pub enum Edit {
    Text(String),
    /// The bounds of a shape or an image; an ink stroke moves to the corner.
    Bounds(Rect),
    Style(Style),
    Geom(Geom),
    Route(Route),
    Arrows(Arrow, Arrow),
    /// Points the `from` (or else `to`) end of a connector elsewhere.
    End {
        from: bool,
        to: EndPlan,
    },
    /// Adds a member to a group.
    AddMember(Index),
    /// Lets a group's member go.
    DropMember(Index),
    AddPoint(Point),
    Extra(Extra),
    /// Locks or unlocks the object.
    Lock(bool),
}

/// One planned edit. See the module documentation.
#[derive(Clone, Debug)]
pub enum Op {
    /// Adds an object to a page at a z-position (`None`: on top; past the end is
    /// clamped).
    Insert {
        page: Index,
        at: Option<Index>,
        new: New,
        extra: Extra,
    },
    Edit {
        target: Index,
        edit: Edit,
    },
    /// Replaces an object by another body under the same id, keeping its fields.
    Replace {
        target: Index,
        body: Kind,
    },
    /// Removes an object; tidily, the connectors on it go first and the groups
    /// holding it let it go.
    Remove {
        target: Index,
    },
    Reorder {
        target: Index,
        to: Index,
    },
    /// Moves an object to a page, as a tool would: remove, then insert on top.
    /// Tidily, only an object that refers to nothing and that nothing refers to.
    MoveToPage {
        target: Index,
        page: Index,
    },
    AddPage {
        name: String,
        at: Option<Index>,
    },
    RenamePage {
        page: Index,
        name: String,
    },
    /// Removes a page with what is on it; tidily, never the last one.
    RemovePage {
        page: Index,
    },
    SetTitle(String),
    /// Hands out an object id that is never used.
    BurnId,
}

fn free_kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        3 => (select(Geom::ALL), rect(), text(), style(), select(crate::Sizing::ALL), rotation()).prop_map(
            |(geom, bounds, text, style, sizing, rotation)| {
                Kind::Shape(Shape {
                    geom,
                    bounds,
                    text,
                    style,
                    sizing,
                    rotation,
                    icon: None,
                })
            }
        ),
        1 => (rect(), select(ImageFormat::ALL), vec(any::<u8>(), 0..48), style(), rotation()).prop_map(
            |(bounds, format, data, style, rotation)| {
                Kind::Image(Image {
                    bounds,
                    format,
                    data: Arc::from(data),
                    style,
                    rotation,
                })
            }
        ),
        1 => (vec(point(), 0..6), style()).prop_map(|(points, style)| Kind::Ink(Ink { points, style })),
    ]
}

fn end_plan() -> impl Strategy<Value = EndPlan> {
    prop_oneof![
        3 => any::<Index>().prop_map(EndPlan::Object),
        1 => point().prop_map(EndPlan::Point),
    ]
}

/// A connector's end label: mostly none or a cardinality, sometimes any text.
fn end_label() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just(String::new()),
        3 => "[0-9a-zA-Z .*]{1,5}",
        1 => text(),
    ]
}

fn new_object() -> impl Strategy<Value = New> {
    let connector = (
        end_plan(),
        end_plan(),
        text(),
        select(Route::ALL),
        select(Arrow::ALL),
        select(Arrow::ALL),
        style(),
        vec(point(), 0..4),
        proptest::option::of((0..=10_000u32).prop_map(|k| f64::from(k) / 10_000.0)),
        (
            option::of(select(Side::ALL)),
            option::of(select(Side::ALL)),
            any::<bool>(),
            (end_label(), end_label()),
        ),
    )
        .prop_map(
            |(from, to, text, route, start_arrow, end_arrow, style, waypoints, label_at, pins)| {
                let mut body = Connector {
                    from: End::Point(Point::default()),
                    to: End::Point(Point::default()),
                    text,
                    route,
                    start_arrow,
                    end_arrow,
                    style,
                    by_hand: None,
                };
                body.set_waypoints(waypoints);
                body.set_label_at(label_at);
                body.set_side(true, pins.0);
                body.set_side(false, pins.1);
                body.set_merge(pins.2);
                body.set_end_label(true, pins.3 .0);
                body.set_end_label(false, pins.3 .1);
                New::Connector { from, to, body }
            },
        );
    prop_oneof![
        5 => free_kind().prop_map(New::Free),
        3 => connector,
        1 => vec(any::<Index>(), 0..4).prop_map(|members| New::Group { members }),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => text().prop_map(Edit::Text),
        3 => rect().prop_map(Edit::Bounds),
        2 => style().prop_map(Edit::Style),
        1 => select(Geom::ALL).prop_map(Edit::Geom),
        1 => select(Route::ALL).prop_map(Edit::Route),
        1 => (select(Arrow::ALL), select(Arrow::ALL)).prop_map(|(a, b)| Edit::Arrows(a, b)),
        2 => (any::<bool>(), end_plan()).prop_map(|(from, to)| Edit::End { from, to }),
        2 => any::<Index>().prop_map(Edit::AddMember),
        1 => any::<Index>().prop_map(Edit::DropMember),
        1 => point().prop_map(Edit::AddPoint),
        1 => extra().prop_map(Edit::Extra),
        1 => any::<bool>().prop_map(Edit::Lock),
    ]
}

/// One planned edit, of any kind; inserts and edits come most often.
pub fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => (any::<Index>(), option::of(any::<Index>()), new_object(), extra())
            .prop_map(|(page, at, new, extra)| Op::Insert { page, at, new, extra }),
        6 => (any::<Index>(), edit()).prop_map(|(target, edit)| Op::Edit { target, edit }),
        1 => (any::<Index>(), free_kind()).prop_map(|(target, body)| Op::Replace { target, body }),
        2 => any::<Index>().prop_map(|target| Op::Remove { target }),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(target, to)| Op::Reorder { target, to }),
        1 => (any::<Index>(), any::<Index>())
            .prop_map(|(target, page)| Op::MoveToPage { target, page }),
        1 => (text(), option::of(any::<Index>())).prop_map(|(name, at)| Op::AddPage { name, at }),
        1 => (any::<Index>(), text()).prop_map(|(page, name)| Op::RenamePage { page, name }),
        1 => any::<Index>().prop_map(|page| Op::RemovePage { page }),
        1 => text().prop_map(Op::SetTitle),
        1 => Just(Op::BurnId),
    ]
}

/// A board made by [`build`] from a title, page names (none: one "Page 1") and
/// fewer than `commits` transactions (perhaps none) of fewer than `ops` tidy edits
/// each (at least one).
pub fn board_of(commits: usize, ops: usize) -> impl Strategy<Value = Board> {
    (
        text(),
        vec(text(), 0..3),
        vec(vec(op(), 1..ops.max(2)), 0..commits.max(1)),
    )
        .prop_map(|(title, pages, commits)| build(&title, &pages, &commits))
}

/// A board of a few commits of a few edits each: a few dozen objects at most.
pub fn board() -> impl Strategy<Value = Board> {
    board_of(6, 20)
}

/// Builds a board: a new one with this title and these pages, then one committed
/// transaction of tidy edits per list of plans.
///
/// # Panics
///
/// When a tidy plan fails or its transaction does not commit: either is a bug.
pub fn build(title: &str, pages: &[String], commits: &[Vec<Op>]) -> Board {
    let mut board = Board::new(title, pages);
    for plans in commits {
        let mut tx = Transaction::begin(&mut board);
        for op in plans {
            if let Err(e) = op.apply(&mut tx, true) {
                panic!("a tidy edit failed: {e} ({op:?})");
            }
        }
        if let Err(e) = tx.commit(Actor::User) {
            panic!("tidy edits did not commit: {e}");
        }
    }
    board
}

/// The ids on a page, back to front.
fn ids_on(board: &Board, page: PageId) -> Vec<ObjectId> {
    board
        .page(page)
        .map(|p| p.objects.iter().map(|o| o.id.clone()).collect())
        .unwrap_or_default()
}

/// Every object id of the board, page after page.
fn all_ids(board: &Board) -> Vec<ObjectId> {
    board
        .pages()
        .iter()
        .flat_map(|p| p.objects.iter().map(|o| o.id.clone()))
        .collect()
}

fn pick<T: Clone>(items: &[T], i: &Index) -> Option<T> {
    (!items.is_empty()).then(|| items[i.index(items.len())].clone())
}

fn page_at(board: &Board, i: &Index) -> PageId {
    board.pages()[i.index(board.pages().len())].id
}

fn id_kind(kind: &Kind) -> IdKind {
    match kind {
        Kind::Shape(_) => IdKind::Shape,
        Kind::Connector(_) => IdKind::Connector,
        Kind::Image(_) => IdKind::Image,
        Kind::Ink(_) => IdKind::Ink,
        Kind::Group(_) => IdKind::Group,
    }
}

fn resolve_end(plan: &EndPlan, candidates: &[ObjectId]) -> End {
    match plan {
        EndPlan::Object(i) => pick(candidates, i).map_or(End::Point(Point::default()), End::Object),
        EndPlan::Point(p) => End::Point(*p),
    }
}

/// Removes `id` and what would dangle without it: the connectors on it go (with
/// the connectors on them, and so on: connectors may end on connectors, in a ring
/// too), and the groups holding any of these let them go.
pub fn remove_tidy(tx: &mut Transaction<'_>, id: &ObjectId) -> Result<(), ModelError> {
    let Some((page, _)) = tx.board().locate(id) else {
        return Ok(());
    };
    let mut doomed = vec![id.clone()];
    let mut i = 0;
    while i < doomed.len() {
        for c in tx
            .board()
            .connectors_touching(page, std::slice::from_ref(&doomed[i]))
        {
            if !doomed.contains(&c) {
                doomed.push(c);
            }
        }
        i += 1;
    }
    for gone in &doomed {
        for g in tx.board().groups_holding(page, gone) {
            if doomed.contains(&g) {
                continue;
            }
            tx.edit(&g, |o| {
                if let Kind::Group(g) = &mut o.kind {
                    g.members.retain(|m| !doomed.contains(m));
                }
            })?;
        }
    }
    for gone in doomed.iter().rev() {
        tx.remove(gone)?;
    }
    Ok(())
}

impl Op {
    /// Applies the plan to the board of `tx`; see the module documentation for
    /// `tidy`. A plan whose target does not exist (an empty board) does nothing.
    pub fn apply(&self, tx: &mut Transaction<'_>, tidy: bool) -> Result<(), ModelError> {
        let board = tx.board();
        let all = all_ids(board);
        match self {
            Op::Insert {
                page,
                at,
                new,
                extra,
            } => {
                let page = page_at(board, page);
                let here = ids_on(board, page);
                // Untidily, references may point anywhere on the board.
                let candidates = if tidy { &here } else { &all };
                let kind = match new {
                    New::Free(kind) => kind.clone(),
                    New::Connector { from, to, body } => Kind::Connector(Connector {
                        from: resolve_end(from, candidates),
                        to: resolve_end(to, candidates),
                        ..body.clone()
                    }),
                    New::Group { members } => {
                        let mut members: Vec<ObjectId> =
                            members.iter().filter_map(|i| pick(candidates, i)).collect();
                        members.sort();
                        members.dedup();
                        Kind::Group(Group { members })
                    }
                };
                let at = at.as_ref().map(|i| i.index(here.len() + 2));
                let id = tx.new_id(id_kind(&kind));
                let object = Object {
                    extra: extra.clone(),
                    ..Object::new(id, kind)
                };
                tx.insert(page, at, object)
            }
            Op::Edit { target, edit } => {
                let Some(id) = pick(&all, target) else {
                    return Ok(());
                };
                let page = board.locate(&id).map(|l| l.0).expect("listed");
                let here = ids_on(board, page);
                let candidates = if tidy { &here } else { &all };
                // Tidily, a group only takes members that are not groups, so no
                // cycle can form. Untidily, the group itself and the other groups
                // come first, to make cycles often.
                let is_group =
                    |m: &ObjectId| matches!(board.object(m).map(|o| &o.kind), Some(Kind::Group(_)));
                let member = match edit {
                    Edit::AddMember(i) => {
                        let fit: Vec<ObjectId> = if tidy {
                            candidates
                                .iter()
                                .filter(|m| **m != id && !is_group(m))
                                .cloned()
                                .collect()
                        } else {
                            let groups = all.iter().filter(|m| is_group(m));
                            std::iter::once(&id)
                                .chain(groups)
                                .chain(&all)
                                .cloned()
                                .collect()
                        };
                        pick(&fit, i)
                    }
                    _ => None,
                };
                // Tidily, a connector is never its own end.
                let end = match edit {
                    Edit::End { to, .. } => {
                        let others: Vec<ObjectId> = candidates
                            .iter()
                            .filter(|e| !tidy || **e != id)
                            .cloned()
                            .collect();
                        Some(resolve_end(to, &others))
                    }
                    _ => None,
                };
                tx.edit(&id, |o| apply_edit(o, edit, member, end, tidy))
            }
            Op::Replace { target, body } => {
                let Some(id) = pick(&all, target) else {
                    return Ok(());
                };
                let mut object = board.object(&id).expect("listed").clone();
                object.kind = body.clone();
                tx.replace(object)
            }
            Op::Remove { target } => {
                let Some(id) = pick(&all, target) else {
                    return Ok(());
                };
                if tidy {
                    remove_tidy(tx, &id)
                } else {
                    tx.remove(&id).map(drop)
                }
            }
            Op::Reorder { target, to } => {
                let Some(id) = pick(&all, target) else {
                    return Ok(());
                };
                let page = board.locate(&id).map(|l| l.0).expect("listed");
                let to = to.index(ids_on(board, page).len() + 1);
                tx.reorder(&id, to)
            }
            Op::MoveToPage { target, page } => {
                let Some(id) = pick(&all, target) else {
                    return Ok(());
                };
                let to = page_at(board, page);
                let (from, _) = board.locate(&id).expect("listed");
                let object = board.object(&id).expect("listed").clone();
                let free = object.references().is_empty()
                    && board
                        .connectors_touching(from, std::slice::from_ref(&id))
                        .is_empty()
                    && board.groups_holding(from, &id).is_empty();
                if tidy && !free {
                    return Ok(());
                }
                tx.remove(&id)?;
                tx.insert(to, None, object)
            }
            Op::AddPage { name, at } => {
                let at = at.as_ref().map(|i| i.index(board.pages().len() + 2));
                tx.add_page(name, at).map(drop)
            }
            Op::RenamePage { page, name } => {
                let page = page_at(board, page);
                tx.rename_page(page, name)
            }
            Op::RemovePage { page } => {
                if tidy && board.pages().len() == 1 {
                    return Ok(());
                }
                let page = page_at(board, page);
                tx.remove_page(page).map(drop)
            }
            Op::SetTitle(title) => tx.set_title(title),
            Op::BurnId => {
                tx.new_id(IdKind::Shape);
                Ok(())
            }
        }
    }
}

/// Makes `edit` to `o`. `member` and `end` are the edit's targets, already resolved.
fn apply_edit(o: &mut Object, edit: &Edit, member: Option<ObjectId>, end: Option<End>, tidy: bool) {
    match edit {
        Edit::Style(s) => {
            if let Some(style) = o.style_mut() {
                *style = s.clone();
            }
            return;
        }
        Edit::Extra(extra) => {
            o.extra = extra.clone();
            return;
        }
        Edit::Lock(locked) => {
            o.locked = *locked;
            return;
        }
        _ => {}
    }
    match (edit, &mut o.kind) {
        (Edit::Text(t), Kind::Shape(Shape { text, .. }))
        | (Edit::Text(t), Kind::Connector(Connector { text, .. })) => *text = t.clone(),
        (Edit::Bounds(r), Kind::Shape(Shape { bounds, .. }))
        | (Edit::Bounds(r), Kind::Image(Image { bounds, .. })) => *bounds = *r,
        (Edit::Bounds(r), Kind::Ink(ink)) => {
            if let Some(first) = ink.points.first_mut() {
                *first = Point { x: r.x, y: r.y };
            }
        }
        (Edit::Geom(g), Kind::Shape(s)) => s.geom = *g,
        (Edit::Route(r), Kind::Connector(c)) => c.route = *r,
        (Edit::Arrows(a, b), Kind::Connector(c)) => {
            c.start_arrow = *a;
            c.end_arrow = *b;
        }
        (Edit::End { from, .. }, Kind::Connector(c)) => {
            if let Some(end) = end {
                if *from {
                    c.from = end;
                } else {
                    c.to = end;
                }
            }
        }
        (Edit::AddMember(_), Kind::Group(g)) => {
            if let Some(m) = member {
                if !tidy || !g.members.contains(&m) {
                    g.members.push(m);
                }
            }
        }
        (Edit::DropMember(i), Kind::Group(g)) if !g.members.is_empty() => {
            g.members.remove(i.index(g.members.len()));
        }
        (Edit::AddPoint(p), Kind::Ink(ink)) => ink.points.push(*p),
        _ => {}
    }
}
