//! `duplicate`: copies objects with new ids, offset by (dx, dy) or placed as one
//! block beside an object or in a frame (`place::relative`). Group copies get
//! copies of their members; connectors between copied objects are rewired to the
//! copies, so a duplicated diagram stays connected. Copies are not locked: a copy
//! is new, placed by this call, for whoever made it to move.

use std::collections::HashMap;

use inkboard_core::{End, Kind, Object, ObjectId};
use schemars::JsonSchema;
use serde::Deserialize;

use inkboard_arrange::place;
use inkboard_arrange::shift::block;

use crate::args::{finite, IdArg, Relative};
use crate::tool::{Cx, EditTool, Hints, Ids, Tool};
use crate::ToolError;

pub struct Duplicate;

/// Unknown arguments are refused by the catalogue (serde cannot deny them
/// through a flatten).
#[derive(Deserialize, JsonSchema)]
pub struct DuplicateArgs {
    ids: Vec<IdArg>,
    dx: Option<f64>,
    dy: Option<f64>,
    #[serde(flatten)]
    place: Relative,
}

impl Tool for Duplicate {
    const NAME: &'static str = "duplicate";
    const TITLE: &'static str = "Duplicate objects";
    const DESCRIPTION: &'static str = "Copy objects, offset by dx/dy (default 40) or placed like add_shape; connectors between copies are rewired.";
    const HINTS: Hints = Hints::ADD;
    type Args = DuplicateArgs;
    type Output = Ids;
}

impl EditTool for Duplicate {
    fn run(cx: &mut Cx<'_, '_>, a: DuplicateArgs) -> Result<Ids, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        let (dx, dy) = (finite("dx", a.dx)?, finite("dy", a.dy)?);
        // The originals stay where they are: they are in the copies' way.
        let relation = a.place.resolve(cx, &ids, &[])?;
        let mut frame = None;
        let (dx, dy) = match relation {
            Some(_) if dx.is_some() || dy.is_some() => {
                return Err(ToolError::args(
                    "give either dx/dy or right_of/left_of/below/above/inside, not both",
                ))
            }
            // The copies are placed as one block, each keeping its offset in it.
            Some(relation) => {
                let block = block(cx.board(), &ids)?;
                let spot =
                    place::relative(cx.board(), cx.page, &relation, block.w, block.h, None, &[]);
                frame = spot.frame.map(|f| (f, spot.at));
                (spot.at.x - block.x, spot.at.y - block.y)
            }
            None => (dx.unwrap_or(40.0), dy.unwrap_or(40.0)),
        };
        // Everything that is copied: the objects and, for groups, their members.
        let mut all: Vec<ObjectId> = Vec::new();
        let mut stack: Vec<ObjectId> = ids.iter().rev().cloned().collect();
        while let Some(id) = stack.pop() {
            if all.contains(&id) {
                continue;
            }
            if let Some(Kind::Group(g)) = cx.board().object(&id).map(|o| &o.kind) {
                stack.extend(g.members.iter().rev().cloned());
            }
            all.push(id);
        }
        // Copy in z-order so the copies stack like the originals.
        all.sort_by_key(|id| cx.board().locate(id).map(|l| l.1));
        let mut map: HashMap<ObjectId, ObjectId> = HashMap::new();
        let mut copies: Vec<(inkboard_core::PageId, Object)> = Vec::new();
        for id in &all {
            let Some((page, _)) = cx.board().locate(id) else {
                continue;
            };
            let Some(original) = cx.board().object(id).cloned() else {
                continue;
            };
            let new_id = cx.tx.new_id(original.kind.id_kind());
            map.insert(id.clone(), new_id.clone());
            copies.push((
                page,
                Object {
                    id: new_id,
                    locked: false,
                    ..original
                },
            ));
        }
        for (page, mut copy) in copies {
            let remap = |id: &ObjectId| map.get(id).cloned().unwrap_or_else(|| id.clone());
            match &mut copy.kind {
                Kind::Shape(s) => s.bounds = s.bounds.translated(dx, dy),
                Kind::Image(i) => i.bounds = i.bounds.translated(dx, dy),
                Kind::Ink(k) => k.points.iter_mut().for_each(|p| {
                    p.x += dx;
                    p.y += dy;
                }),
                Kind::Connector(c) => {
                    for end in [&mut c.from, &mut c.to] {
                        match end {
                            End::Object(o) => *o = remap(o),
                            End::Point(p) => {
                                p.x += dx;
                                p.y += dy;
                            }
                        }
                    }
                    // The copy's bends go with it, as its free ends do.
                    for p in c.waypoints_mut() {
                        p.x += dx;
                        p.y += dy;
                    }
                }
                Kind::Group(g) => g.members = g.members.iter().map(remap).collect(),
            }
            cx.tx.insert(page, None, copy)?;
        }
        if let Some((frame, at)) = frame {
            place::hold(cx.tx, &frame, &at)?;
        }
        let out: Vec<ObjectId> = ids.iter().filter_map(|id| map.get(id).cloned()).collect();
        Ok(Ids::of(&out))
    }
}
