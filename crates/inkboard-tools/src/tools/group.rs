//! `group` and `ungroup`: name objects as one, or stop doing so. Members stay
//! where they are in the page's list; a group only names them.

use inkboard_core::{IdKind, Kind, Object};
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
        let (page, _) = cx
            .board()
            .locate(&ids[0])
            .ok_or_else(|| ToolError::args("'ids' refers to no object"))?;
        let here = Cx {
            tx: &mut *cx.tx,
            page,
        };
        for id in &ids {
            here.on_page(id, "ids")?;
        }
        let id = cx.tx.new_id(IdKind::Group);
        cx.tx.insert(
            page,
            None,
            Object::new(
                id.clone(),
                Kind::Group(inkboard_core::Group { members: ids }),
            ),
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
            _ => return Err(ToolError::args(format!("'id': \"{id}\" is not a group"))),
        };
        cx.tx.remove(&id)?;
        Ok(Ids::of(&members))
    }
}
