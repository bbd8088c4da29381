//! Pages: `add_page`, `rename_page`, `delete_page`. Page names are unique on a
//! board, so a page can always be named unambiguously.

use inkboard_core::Board;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tool::{Cx, EditTool, Hints, Tool};
use crate::ToolError;

/// A page as results name it.
#[derive(Serialize, JsonSchema)]
pub struct PageOut {
    pub page: usize,
    pub name: String,
}

/// A character that takes no room on screen.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}' | '\u{034F}'
        )
}

/// `text` (an argument named `arg`) trimmed, or why it is no name: nothing but
/// invisible characters (zero-width spaces, joiners, marks of direction), which
/// shows as empty as "", or a control character, where a name is one line.
pub(crate) fn one_line<'a>(
    arg: &str,
    text: &'a str,
    if_empty: &str,
    one_line: &str,
) -> Result<&'a str, ToolError> {
    let text = text.trim();
    if text.chars().all(invisible) {
        return Err(ToolError::args(format!("'{arg}' is empty: {if_empty}")));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(ToolError::args(format!(
            "'{arg}' holds a control character (U+{:04X}): {one_line}",
            c as u32
        )));
    }
    Ok(text)
}

fn check_name(
    board: &Board,
    name: &str,
    except: Option<inkboard_core::PageId>,
) -> Result<String, ToolError> {
    let name = one_line(
        "name",
        name,
        "give the page a name",
        "page names are one line of text",
    )?;
    if board
        .pages()
        .iter()
        .any(|p| p.name == name && Some(p.id) != except)
    {
        return Err(ToolError::args(format!(
            "a page named \"{name}\" exists already: choose another name"
        )));
    }
    Ok(name.to_string())
}

pub struct AddPage;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddPageArgs {
    name: Option<String>,
}

impl Tool for AddPage {
    const NAME: &'static str = "add_page";
    const TITLE: &'static str = "Add page";
    const DESCRIPTION: &'static str = "Add a page at the end of the board.";
    const HINTS: Hints = Hints::ADD;
    type Args = AddPageArgs;
    type Output = PageOut;
}

impl EditTool for AddPage {
    fn run(cx: &mut Cx<'_, '_>, a: AddPageArgs) -> Result<PageOut, ToolError> {
        let number = cx.board().pages().len() + 1;
        let name = match a.name {
            Some(n) => check_name(cx.board(), &n, None)?,
            None => (number..)
                .map(|n| format!("Page {n}"))
                .find(|n| check_name(cx.board(), n, None).is_ok())
                .unwrap_or_default(),
        };
        cx.tx.add_page(&name, None)?;
        Ok(PageOut { page: number, name })
    }
}

pub struct RenamePage;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenamePageArgs {
    name: String,
}

impl Tool for RenamePage {
    const NAME: &'static str = "rename_page";
    const TITLE: &'static str = "Rename page";
    const DESCRIPTION: &'static str = "Rename a page.";
    const HINTS: Hints = Hints::EDIT;
    type Args = RenamePageArgs;
    type Output = PageOut;
}

impl EditTool for RenamePage {
    const PAGE_REQUIRED: bool = true;
    fn run(cx: &mut Cx<'_, '_>, a: RenamePageArgs) -> Result<PageOut, ToolError> {
        let name = check_name(cx.board(), &a.name, Some(cx.page))?;
        cx.tx.rename_page(cx.page, &name)?;
        Ok(PageOut {
            page: cx.page_number(),
            name,
        })
    }
}

pub struct DeletePage;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeletePageArgs {}

impl Tool for DeletePage {
    const NAME: &'static str = "delete_page";
    const TITLE: &'static str = "Delete page";
    const DESCRIPTION: &'static str =
        "Delete a page and everything on it. The last page cannot be deleted.";
    const HINTS: Hints = Hints::DELETE;
    type Args = DeletePageArgs;
    type Output = PageOut;
}

impl EditTool for DeletePage {
    const PAGE_REQUIRED: bool = true;
    fn run(cx: &mut Cx<'_, '_>, _: DeletePageArgs) -> Result<PageOut, ToolError> {
        let number = cx.page_number();
        let page = cx.tx.remove_page(cx.page)?;
        Ok(PageOut {
            page: number,
            name: page.name,
        })
    }
}
