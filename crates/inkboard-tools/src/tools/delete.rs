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
    const DESCRIPTION: &'static str = "Delete objects, with the connectors attached to them and the members of deleted groups. Returns every id removed.";
    const HINTS: Hints = Hints::DELETE;
    type Args = DeleteArgs;
    type Output = Ids;
}

impl EditTool for Delete {
    fn run(cx: &mut Cx<'_, '_>, a: DeleteArgs) -> Result<Ids, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        let mut doomed: Vec<ObjectId> = Vec::new();
        let mut stack: Vec<ObjectId> = ids.into_iter().rev().collect();
        while let Some(id) = stack.pop() {
            if doomed.contains(&id) {
                continue;
            }
            if let Some(Kind::Group(g)) = cx.board().object(&id).map(|o| &o.kind) {
                stack.extend(g.members.iter().rev().cloned());
            }
            doomed.push(id);
        }
        // Attached connectors, page by page.
        let mut pages: Vec<_> = doomed
            .iter()
            .filter_map(|id| cx.board().locate(id).map(|l| l.0))
            .collect();
        pages.dedup();
        for page in pages {
            for c in cx.board().connectors_touching(page, &doomed) {
                if !doomed.contains(&c) {
                    doomed.push(c);
                }
            }
        }
        // Groups that still name a doomed object lose it; emptied groups go.
        for id in doomed.clone() {
            let Some((page, _)) = cx.board().locate(&id) else {
                continue;
            };
            for g in cx.board().groups_holding(page, &id) {
                if doomed.contains(&g) {
                    continue;
                }
                let members = match cx.board().object(&g).map(|o| &o.kind) {
                    Some(Kind::Group(grp)) => grp
                        .members
                        .iter()
                        .filter(|m| !doomed.contains(m))
                        .cloned()
                        .collect::<Vec<_>>(),
                    _ => continue,
                };
                if members.is_empty() {
                    doomed.push(g);
                } else {
                    cx.tx.edit(&g, |o| {
                        if let Kind::Group(grp) = &mut o.kind {
                            grp.members = members;
                        }
                    })?;
                }
            }
        }
        for id in &doomed {
            cx.tx.remove(id)?;
        }
        Ok(Ids::of(&doomed))
    }
}
