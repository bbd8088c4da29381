//! Self-loops: each goes round the corner of its shape where it is least in the way.

use inkboard_core::{Connector, Point, Rect};
use inkboard_geom::crossings;

use crate::route::connectors::Draft;
use crate::route::ends::EndInfo;
use crate::route::obstacles::blocked;
use crate::route::{self, Plan, Side};

/// Sends each self-loop round the corner of its shape where it runs through the
/// fewest other shapes, then crosses the fewest other lines (as drafted; earlier
/// loops as placed), keeping the first of [`route::LOOP_CORNERS`] on a tie: a
/// state machine's loops otherwise all go round the top right, across the lines
/// that pass there.
pub(super) fn loop_corners(
    connectors: &[(usize, &Connector)],
    ends: &[(EndInfo, EndInfo)],
    drafts: &mut [Draft],
    solids: &[Rect],
) {
    if !drafts
        .iter()
        .any(|d| matches!(d, Draft::Planned(Plan::Loop(..))))
    {
        return;
    }
    let drafted = |k: usize, d: &Draft| {
        let (a, b) = &ends[k];
        match d {
            Draft::Searched { points, .. } => points.clone(),
            Draft::Planned(plan) => route::points(a.shape, b.shape, *plan, (0.0, 0.0)),
            Draft::ByHand => std::iter::once(a.shape.bounds.center())
                .chain(connectors[k].1.waypoints().iter().copied())
                .chain(std::iter::once(b.shape.bounds.center()))
                .collect(),
            Draft::Bus { points, .. } => points.clone(),
        }
    };
    let mut lines: Vec<Vec<Point>> = drafts
        .iter()
        .enumerate()
        .map(|(k, d)| drafted(k, d))
        .collect();
    for k in 0..drafts.len() {
        if !matches!(drafts[k], Draft::Planned(Plan::Loop(..))) {
            continue;
        }
        let shape = ends[k].0.shape;
        let cost = |&(sa, sb): &(Side, Side)| {
            let pts = route::points(shape, shape, Plan::Loop(sa, sb), (0.0, 0.0));
            let through = pts
                .windows(2)
                .filter(|w| blocked(solids, shape.bounds, shape.bounds, w[0], w[1]))
                .count();
            let crossings: usize = lines
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, line)| crossings(&pts, line))
                .sum();
            (through, crossings)
        };
        // Corners that agree with the loop's pinned sides, if any do.
        let (pa, pb) = (ends[k].0.pin, ends[k].1.pin);
        let agrees =
            |&&(sa, sb): &&(Side, Side)| pa.is_none_or(|p| p == sa) && pb.is_none_or(|p| p == sb);
        let any_agrees = route::LOOP_CORNERS.iter().any(|c| agrees(&c));
        let best = route::LOOP_CORNERS
            .iter()
            .filter(|c| !any_agrees || agrees(c))
            .min_by_key(|corner| cost(corner))
            .copied()
            .unwrap_or(route::LOOP_CORNERS[0]);
        drafts[k] = Draft::Planned(Plan::Loop(best.0, best.1));
        lines[k] = drafted(k, &drafts[k]);
    }
}
