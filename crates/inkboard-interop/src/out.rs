//! What both writers share: colours as the other programs write them, the
//! group that holds each object, and the points where a connector meets its
//! ends. The writers never fail: every board the model accepts can be written,
//! and what the other format cannot show is said in `docs/diagrams.md`.

use std::collections::HashMap;

use inkboard_core::{Board, Color, End, Kind, ObjectId, Page, Point, Rect};

/// `#rrggbb` for a colour (palette names resolved), or `None` for a fully
/// transparent one, which both formats say in words of their own.
pub(crate) fn hex(c: Color) -> Option<String> {
    let [r, g, b, a] = c.rgba();
    (a > 0).then(|| format!("#{r:02x}{g:02x}{b:02x}"))
}

/// Object id → the group that holds it directly (the first such group in the
/// page's order, should there be more than one).
pub(crate) fn parents(page: &Page) -> HashMap<ObjectId, ObjectId> {
    let mut parent = HashMap::new();
    for o in &page.objects {
        if let Kind::Group(g) = &o.kind {
            for m in &g.members {
                if m != &o.id {
                    parent.entry(m.clone()).or_insert_with(|| o.id.clone());
                }
            }
        }
    }
    // A member named by two groups could make a cycle of parents; cut it.
    let ids: Vec<ObjectId> = parent.keys().cloned().collect();
    for id in ids {
        let mut at = id.clone();
        for _ in 0..=page.objects.len() {
            match parent.get(&at) {
                Some(up) if up == &id => {
                    parent.remove(&id);
                    break;
                }
                Some(up) => at = up.clone(),
                None => break,
            }
        }
    }
    parent
}

/// The groups holding `id`, innermost first.
pub(crate) fn ancestors(parent: &HashMap<ObjectId, ObjectId>, id: &ObjectId) -> Vec<ObjectId> {
    let mut out = Vec::new();
    let mut at = id;
    while let Some(up) = parent.get(at) {
        if out.contains(up) || out.len() > parent.len() {
            break;
        }
        out.push(up.clone());
        at = up;
    }
    out
}

/// The two end points of a connector: a free end where it is, a bound end
/// where the straight line between the ends' centres leaves the object's box.
pub(crate) fn end_points(board: &Board, from: &End, to: &End) -> (Point, Point) {
    let area = |end: &End| match end {
        End::Point(p) => (*p, None),
        End::Object(id) => match board.bounds(id) {
            Some(r) => (r.center(), Some(r)),
            None => (Point { x: 0.0, y: 0.0 }, None),
        },
    };
    let (a, ra) = area(from);
    let (b, rb) = area(to);
    let clip = |inside: Point, toward: Point, r: Option<Rect>| match r {
        Some(r) => leave(r, inside, toward),
        None => inside,
    };
    (clip(a, b, ra), clip(b, a, rb))
}

/// Where the segment from `c` (inside `r`) toward `p` crosses the edge of `r`.
fn leave(r: Rect, c: Point, p: Point) -> Point {
    let (dx, dy) = (p.x - c.x, p.y - c.y);
    let mut t: f64 = 1.0;
    if dx.abs() > 1e-9 {
        t = t.min((r.w / 2.0) / dx.abs());
    }
    if dy.abs() > 1e-9 {
        t = t.min((r.h / 2.0) / dy.abs());
    }
    Point {
        x: c.x + dx * t,
        y: c.y + dy * t,
    }
}

/// A number as it reads best in a file: no `.0` on whole numbers.
pub(crate) fn num(v: f64) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{}", (v * 1000.0).round() / 1000.0)
    }
}
