//! What a picture export shows beyond its format: its scale and theme, whether the
//! page's colour is painted under it (`background: "transparent"` leaves it out) and
//! which objects it holds (`ids`: a selection, as the editor's export dialog sends
//! to `/export`). The `export` tool and the application's `/export` route both
//! read their options into a [`Look`], so the two draw a selection alike.

use std::collections::HashSet;

use inkboard_core::{Board, Kind, ObjectId, PageId};
use inkboard_render::{Scene, Theme};

use crate::args::IdArg;
use crate::ToolError;

inkboard_core::vocabulary! {
    /// What an exported picture is drawn on: the page's colour (`solid`, the
    /// default) or nothing (`transparent`: a PNG with alpha, an SVG or PDF
    /// without the page's rectangle).
    pub enum Background as "background" { Solid = "solid", Transparent = "transparent" }
}

/// How a picture is drawn, besides its format.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// PNG pixels per board unit.
    pub scale: f64,
    pub theme: Theme,
    pub background: Background,
    /// Only these objects (already widened by [`selection`]); `None`: the page.
    pub only: Option<Vec<ObjectId>>,
}

impl Look {
    /// The page's look at `scale` in `theme`: every object, on the page's colour.
    pub fn new(scale: f64, theme: Theme) -> Look {
        Look {
            scale,
            theme,
            background: Background::Solid,
            only: None,
        }
    }

    /// `scene` as this look asks: its theme, background and objects.
    pub fn apply(&self, scene: Scene) -> Scene {
        let mut scene = scene.in_theme(self.theme);
        if self.background == Background::Transparent {
            scene = scene.transparent();
        }
        match &self.only {
            Some(ids) => scene.only(ids),
            None => scene,
        }
    }
}

/// The look of an export and the page it draws: `background`, and `ids` (a
/// selection, of one page: the one asked for when `asked`, else the page its
/// objects are on; refused with `all_pages`). `page` is the page named or the
/// first. One reading for the `export` tool on a file and on a stored board.
pub(crate) fn export_look(
    board: &Board,
    page: PageId,
    asked: bool,
    all: bool,
    mut look: Look,
    background: Option<Background>,
    ids: Option<&[IdArg]>,
) -> Result<(PageId, Look), ToolError> {
    if let Some(b) = background {
        look.background = b;
    }
    let Some(ids) = ids else {
        return Ok((page, look));
    };
    if all {
        return Err(ToolError::args(
            "'ids' are objects of one page: leave out all_pages",
        ));
    }
    let ids: Vec<String> = ids.iter().map(|id| id.0.clone()).collect();
    let (on, only) = selection(board, &ids, asked.then_some(page))?;
    look.only = Some(only);
    Ok((on, look))
}

/// The objects an export of `ids` shows, all on one page, which is returned
/// too: each object named, a group's members (and theirs), and what a frame
/// holds, as a selection of them looks in the editor. Refuses an empty list, an
/// unknown id and ids on different pages, or on another page than `page` when
/// one is asked for.
pub fn selection(
    board: &Board,
    ids: &[String],
    page: Option<PageId>,
) -> Result<(PageId, Vec<ObjectId>), ToolError> {
    let ids: Vec<IdArg> = ids.iter().cloned().map(IdArg).collect();
    let named = IdArg::resolve_all(&ids, board, "ids")?;
    let page_of = |id: &ObjectId| board.locate(id).map(|(p, _)| p);
    let first = page_of(&named[0]).ok_or_else(|| ToolError::args("'ids' refers to no object"))?;
    let on = page.unwrap_or(first);
    if let Some(off) = named.iter().find(|id| page_of(id) != Some(on)) {
        let number =
            |p: Option<PageId>| p.and_then(|p| board.page_position(p)).map_or(0, |i| i + 1);
        let (off_page, on_page) = (number(page_of(off)), number(Some(on)));
        return Err(ToolError::args(match page {
            Some(_) => format!(
                "'ids' must all be on the page exported: {off} is on page {off_page}, leave 'page' out or name objects of page {on_page}"
            ),
            None => format!(
                "'ids' must all be on one page: {off} is on page {off_page}, {} on page {on_page}",
                named[0]
            ),
        }));
    }
    let mut seen: HashSet<ObjectId> = HashSet::new();
    let mut out = Vec::new();
    let mut todo = named;
    todo.reverse();
    while let Some(id) = todo.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        if let Some(object) = board.object(&id) {
            match &object.kind {
                Kind::Group(g) => todo.extend(g.members.iter().rev().cloned()),
                _ if object.is_frame() => todo.extend(board.frame_contents(&id).into_iter().rev()),
                _ => {}
            }
        }
        out.push(id);
    }
    Ok((on, out))
}
