//! `group` and `ungroup`: name objects as one, or stop doing so. Members stay
//! where they are in the page's list; a group only names them.

use inkboard_core::Kind;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::IdArg;
use crate::tool::{Cx, EditTool, Hints, Id, Ids, Tool};
use crate::ToolError;

pub struct Group;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GroupArgs {
    ids: Vec<IdArg>,
}

impl Tool for Group {
    const NAME: &'static str = "group";
    const TITLE: &'static str = "Group objects";
    const DESCRIPTION: &'static str =
        "Group objects so they move, copy and delete together. Returns the group's id.";
    const HINTS: Hints = Hints::ADD;
    type Args = GroupArgs;
    type Output = Id;
}

impl EditTool for Group {
    fn run(cx: &mut Cx<'_, '_>, a: GroupArgs) -> Result<Id, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        if ids.len() < 2 {
            return Err(ToolError::args(
                "'ids' needs at least 2 different objects to group",
            ));
        }
        // A group lives on the page of its members, wherever the call points.
        let page_of = |id| cx.board().locate(id).map(|l| l.0);
        let page = page_of(&ids[0]).ok_or_else(|| ToolError::args("'ids' refers to no object"))?;
        if let Some(other) = ids.iter().find(|id| page_of(id) != Some(page)) {
            let number = |id| {
                page_of(id)
                    .and_then(|p| cx.board().page_position(p))
                    .map_or(0, |i| i + 1)
            };
            return Err(ToolError::args(format!(
                "'ids': \"{other}\" is on page {} but \"{}\" is on page {}: group objects of one page",
                number(other),
                ids[0],
                number(&ids[0])
            )));
        }
        let id = cx.tx.add(
            page,
            None,
            Kind::Group(inkboard_core::Group { members: ids }),
        )?;
        Ok(Id { id: id.to_string() })
    }
}

pub struct Ungroup;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UngroupArgs {
    id: IdArg,
}

impl Tool for Ungroup {
    const NAME: &'static str = "ungroup";
    const TITLE: &'static str = "Ungroup";
    const DESCRIPTION: &'static str =
        "Dissolve a group; its members stay. Returns the members' ids.";
    const HINTS: Hints = Hints::EDIT;
    type Args = UngroupArgs;
    type Output = Ids;
}

impl EditTool for Ungroup {
    fn run(cx: &mut Cx<'_, '_>, a: UngroupArgs) -> Result<Ids, ToolError> {
        let id = a.id.resolve(cx.board(), "id")?;
        let members = match cx.board().object(&id).map(|o| &o.kind) {
            Some(Kind::Group(g)) => g.members.clone(),
            _ => {
                return Err(ToolError::args(format!(
                    "'id': \"{id}\" is not a group: give the id of a group (find with type group)"
                )))
            }
        };
        let Some((page, _)) = cx.board().locate(&id) else {
            return Err(ToolError::args(format!(
                "'id' refers to no object: \"{id}\""
            )));
        };
        // Ungrouping removes the group: a locked one stays (`inkboard_arrange::locked`).
        inkboard_arrange::locked::refuse_named(cx.board(), std::slice::from_ref(&id), "id")?;
        // Connectors attached to the group would lose their end: say so.
        let attached = cx
            .board()
            .connectors_touching(page, std::slice::from_ref(&id));
        if !attached.is_empty() {
            let names: Vec<String> = attached.iter().map(|c| format!("\"{c}\"")).collect();
            return Err(ToolError::args(format!(
                "'id': group \"{id}\" has connectors attached ({}): delete them, or attach them to its members with update, first",
                names.join(", ")
            )));
        }
        // A group inside another group hands its members to that group.
        for parent in cx.board().groups_holding(page, &id) {
            cx.tx.edit(&parent, |o| {
                if let Kind::Group(g) = &mut o.kind {
                    let mut held = Vec::with_capacity(g.members.len() + members.len());
                    for m in &g.members {
                        if *m == id {
                            held.extend(members.iter().filter(|x| !g.members.contains(x)).cloned());
                        } else {
                            held.push(m.clone());
                        }
                    }
                    g.members = held;
                }
            })?;
        }
        cx.tx.remove(&id)?;
        Ok(Ids::of(&members))
    }
}
