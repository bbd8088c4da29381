//! Connectors marked `merge`: grouped by the object and side they leave, routed as
//! one bus ([`bus`]) before the page's searches, and given a junction dot where each
//! branch leaves the trunk.

use std::collections::BTreeMap;

use inkboard_core::{Connector, End, ObjectId, Point, Rect, Route};

use crate::route::bus;
use crate::route::connectors::Draft;
use crate::route::ends::EndInfo;
use crate::route::{self, Routed, Side};
use crate::style;

/// A branch of a bus: the sides it leaves and enters by, and its corners.
pub(super) type BusRoute = ((Side, Side), Vec<Point>);

/// The routes of the merged connectors ([`bus`]), by connector: those whose
/// start is on an object and whose route is orthogonal, drawn without
/// waypoints, grouped by the object and side they leave (their pinned side, else
/// the side the page's flow leaves by towards their end, else the side facing
/// it). `None` for every other connector, and for a merged one whose end does
/// not lie past that side.
pub(super) fn buses(
    connectors: &[(usize, &Connector)],
    ends: &[(EndInfo, EndInfo)],
    kinds: &[Route],
    flow: Option<Side>,
) -> Vec<Option<BusRoute>> {
    let mut out = vec![None; connectors.len()];
    let mut groups: BTreeMap<(usize, Side), Vec<usize>> = BTreeMap::new();
    for (k, ((_, c), (a, b))) in connectors.iter().zip(ends).enumerate() {
        let (Some(object), false) = (a.object, b.shape.is_point()) else {
            continue;
        };
        if !c.merge() || kinds[k] != Route::Orthogonal || !c.waypoints().is_empty() {
            continue;
        }
        if a.object == b.object || a.shape.is_point() {
            continue;
        }
        let (ra, rb) = (a.shape.bounds, b.shape.bounds);
        let side = a.pin.unwrap_or_else(|| {
            route::flow_sides(ra, rb, flow).map_or_else(|| route::facing(ra, rb).0, |s| s.0)
        });
        groups.entry((object, side)).or_default().push(k);
    }
    for ((_, side), members) in groups {
        let source = ends[members[0]].0.shape.bounds;
        let targets: Vec<(Rect, Option<Side>)> = members
            .iter()
            .map(|&k| (ends[k].1.shape.bounds, ends[k].1.pin))
            .collect();
        for (&k, found) in members.iter().zip(bus::routes(source, side, &targets)) {
            out[k] = found.map(|(entry, points)| ((side, entry), points));
        }
    }
    out
}

/// Marks with a dot each point where a bus branches ([`bus::junctions`]), on the
/// first connector of the bus that passes through it: drawn as one more filled
/// head, so every backend and the editor show it.
pub(super) fn junction_dots(
    connectors: &[(usize, &Connector)],
    drafts: &[Draft],
    routed: &mut [Routed],
) {
    let mut groups: BTreeMap<(ObjectId, Side), Vec<usize>> = BTreeMap::new();
    for (k, draft) in drafts.iter().enumerate() {
        if let (Draft::Bus { sides, .. }, End::Object(id)) = (draft, &connectors[k].1.from) {
            groups.entry((id.clone(), sides.0)).or_default().push(k);
        }
    }
    for members in groups.into_values() {
        if members.len() < 2 {
            continue;
        }
        let lines: Vec<&[Point]> = members
            .iter()
            .filter_map(|&k| match &drafts[k] {
                Draft::Bus { points, .. } => Some(points.as_slice()),
                _ => None,
            })
            .collect();
        for dot in bus::junctions(lines.iter().copied()) {
            let on = members
                .iter()
                .zip(&lines)
                .find(|(_, line)| passes(line, dot));
            if let Some((&k, _)) = on {
                let c = connectors[k].1;
                let width = style::line_stroke(&c.style, style::STROKE_WIDTH)
                    .map_or(style::STROKE_WIDTH, |s| s.width) as f64;
                let r = 2.0 + width;
                routed[k]
                    .heads
                    .push((crate::shapes::ellipse(dot, r, r), true));
            }
        }
    }
}

/// Whether the polyline `line` passes through `p` (to a hundredth of a pixel).
fn passes(line: &[Point], p: Point) -> bool {
    line.windows(2).any(|w| {
        let (a, b) = (w[0], w[1]);
        let within = |lo: f64, hi: f64, v: f64| lo.min(hi) - 0.01 <= v && v <= lo.max(hi) + 0.01;
        within(a.x, b.x, p.x)
            && within(a.y, b.y, p.y)
            && ((a.x - b.x).abs() < 0.01 || (a.y - b.y).abs() < 0.01)
    })
}
