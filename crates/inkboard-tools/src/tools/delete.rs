//! `delete`: removes objects, the connectors attached to them, and the members of
//! deleted groups; groups left with no members go too.

use inkboard_core::{Kind, ObjectId};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::IdArg;
use crate::tool::{Cx, EditTool, Hints, Ids, Tool};
use crate::ToolError;

pub struct Delete;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteArgs {
    ids: Vec<IdArg>,
}

impl Tool for Delete {
    const NAME: &'static str = "delete";
    const TITLE: &'static str = "Delete objects";
    const DESCRIPTION: &'static str =
        "Delete objects, their attached connectors and group members. Returns every id removed.";
    const HINTS: Hints = Hints::DELETE;
    type Args = DeleteArgs;
    type Output = Ids;
}

impl EditTool for Delete {
    fn run(cx: &mut Cx<'_, '_>, a: DeleteArgs) -> Result<Ids, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        inkboard_arrange::locked::refuse_named(cx.board(), &ids, "ids")?;
        let mut doomed: Vec<ObjectId> = Vec::new();
        let mut stack: Vec<ObjectId> = ids.iter().rev().cloned().collect();
        while let Some(id) = stack.pop() {
            if doomed.contains(&id) {
                continue;
            }
            if let Some(Kind::Group(g)) = cx.board().object(&id).map(|o| &o.kind) {
                stack.extend(g.members.iter().rev().cloned());
            }
            doomed.push(id);
        }
        // What goes with them, until nothing more does: the connectors attached to
        // anything that goes, and the groups left with no members (which may hold
        // connectors, or be the last member of another group, in turn).
        loop {
            let before = doomed.len();
            let mut pages: Vec<_> = doomed
                .iter()
                .filter_map(|id| cx.board().locate(id).map(|l| l.0))
                .collect();
            pages.sort();
            pages.dedup();
            for page in pages {
                for c in cx.board().connectors_touching(page, &doomed) {
                    if !doomed.contains(&c) {
                        doomed.push(c);
                    }
                }
            }
            for id in doomed.clone() {
                let Some((page, _)) = cx.board().locate(&id) else {
                    continue;
                };
                for g in cx.board().groups_holding(page, &id) {
                    let emptied = match cx.board().object(&g).map(|o| &o.kind) {
                        Some(Kind::Group(grp)) => grp.members.iter().all(|m| doomed.contains(m)),
                        _ => false,
                    };
                    if emptied && !doomed.contains(&g) {
                        doomed.push(g);
                    }
                }
            }
            if doomed.len() == before {
                break;
            }
        }
        // Nothing locked goes, named or not: a connector, member or group that
        // would go along is named, with an object of the call it goes with.
        if let Some(id) = doomed
            .iter()
            .find(|id| inkboard_arrange::locked::is_locked(cx.board(), id))
        {
            let with = ids.iter().find(|n| related(cx, n, id)).unwrap_or(&ids[0]);
            return Err(inkboard_arrange::locked::carried(id, with).into());
        }
        // Groups that stay lose the members that go.
        for id in doomed.clone() {
            let Some((page, _)) = cx.board().locate(&id) else {
                continue;
            };
            for g in cx.board().groups_holding(page, &id) {
                if doomed.contains(&g) {
                    continue;
                }
                cx.tx.edit(&g, |o| {
                    if let Kind::Group(grp) = &mut o.kind {
                        grp.members.retain(|m| !doomed.contains(m));
                    }
                })?;
            }
        }
        for id in &doomed {
            cx.tx.remove(id)?;
        }
        Ok(Ids::of(&doomed))
    }
}

/// Whether `other` goes because `named` does: one is a connector ending on the
/// other, or a group holding it (for the error that names what a locked object
/// would go with; any named object will do when none is this close).
fn related(cx: &Cx<'_, '_>, named: &ObjectId, other: &ObjectId) -> bool {
    let refers = |a: &ObjectId, b: &ObjectId| {
        cx.board()
            .object(a)
            .is_some_and(|o| o.references().contains(&b))
    };
    refers(named, other) || refers(other, named)
}
