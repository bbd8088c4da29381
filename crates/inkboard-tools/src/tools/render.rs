//! `render` and `export`: the board as a picture, through the one renderer. `render`
//! answers the agent with a PNG (bounded in pixels and in bytes) and a short text
//! about what is on the page and what looks wrong; `export` writes SVG, PNG, PDF,
//! a board file, or another program's file (draw.io, Excalidraw, Mermaid). SVG
//! and PNG carry the board itself unless `embed: false`, so `import` of the
//! picture gives the board back (`inkboard-interop`'s `picture.rs`). Pictures are
//! in the board's own colours unless `theme: "dark"` asks for the editor's dark
//! view of them (`inkboard_render::theme`).

use std::path::{Path, PathBuf};

use inkboard_core::{Board, PageId, Rect};
use inkboard_format::file;
use inkboard_render as render;
use inkboard_render::Theme;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{IdArg, PageRef, Word};
use crate::control::DRAWING_DEADLINE;
use crate::engine::Target as Source;
use crate::live::Caller;
use crate::tool::{to_value, BoardTool, Hints, Num, Tool};
use crate::tools::pick::{self, Background, Look};
use crate::Control;
use crate::{Engine, Reply, ToolError};

/// The whole `render` answer (image as base64 plus the text) stays under this.
const MAX_RESULT_BYTES: usize = 900 * 1024;

// A region of a page (no doc comment: it would become the schema's description).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegionArg {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl RegionArg {
    fn to_rect(&self) -> Result<Rect, ToolError> {
        for (name, v) in [("x", self.x), ("y", self.y), ("w", self.w), ("h", self.h)] {
            crate::args::finite(&format!("region.{name}"), Some(v))?;
        }
        // Narrower than a board unit, a region is drawn less than a pixel wide
        // at the largest scale: nothing to see, and no picture to make.
        if self.w < 1.0 || self.h < 1.0 {
            return Err(ToolError::args(
                "'region' needs w and h of at least 1: give the size of the part of the page to see",
            ));
        }
        Ok(Rect::new(self.x, self.y, self.w, self.h))
    }
}

/// The board of `target` and the page `page` names, as they are now.
fn board_and_page(
    engine: &Engine,
    target: &Source,
    page: &Option<PageRef>,
) -> Result<(Board, PageId), ToolError> {
    engine.read(target, |board| {
        let page = PageRef::resolve_or_first(page.as_ref(), board)?;
        Ok((board.clone(), page))
    })
}

pub struct Render;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderArgs {
    path: Option<String>,
    page: Option<PageRef>,
    /// Longest side in pixels (default 1600).
    max_size: Option<u32>,
    region: Option<RegionArg>,
    theme: Option<Word<Theme>>,
}

/// What `render` says about the picture, as structured content (the same facts
/// as the text that goes with the image, so a client that reads either sees all).
#[derive(Serialize, JsonSchema)]
pub struct RenderOutput {
    page: PageOutput,
    /// Objects on the page.
    objects: usize,
    /// The box around everything drawn, in board units.
    bounds: BoundsOutput,
    picture: PictureOutput,
    /// Every problem found, of which `problems` lists the first 50.
    problem_count: usize,
    problems: Vec<ProblemOutput>,
    /// What importing the board from draw.io/Excalidraw could not keep.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    import_lost: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
struct PageOutput {
    number: usize,
    name: String,
}

#[derive(Serialize, JsonSchema)]
struct BoundsOutput {
    x: Num,
    y: Num,
    w: Num,
    h: Num,
}

#[derive(Serialize, JsonSchema)]
struct PictureOutput {
    width: u32,
    height: u32,
    /// Pixels per board unit.
    scale: Num,
}

#[derive(Serialize, JsonSchema)]
struct ProblemOutput {
    kind: &'static str,
    message: String,
    ids: Vec<String>,
}

/// At most this many problems are listed; the count says how many there are.
const MAX_PROBLEMS_LISTED: usize = 50;

impl Tool for Render {
    const NAME: &'static str = "render";
    const TITLE: &'static str = "Render page";
    const DESCRIPTION: &'static str = "See a page as a PNG, as the person sees it, with a summary: objects, bounds, problems (overlaps; labels over lines, arrowheads, shapes or labels; text that does not fit; lines crossing or through shapes).";
    const HINTS: Hints = Hints::READ;
    type Args = RenderArgs;
    type Output = RenderOutput;
}

impl BoardTool for Render {
    fn run(engine: &Engine, caller: &Caller, a: RenderArgs) -> Result<Reply, ToolError> {
        let target = engine.target(a.path.as_deref(), caller)?;
        let (board, page) = board_and_page(engine, &target, &a.page)?;
        let view = a.region.as_ref().map(RegionArg::to_rect).transpose()?;
        let mut max_size = a.max_size.unwrap_or(1600);
        if !(16..=8192).contains(&max_size) {
            return Err(ToolError::args(format!(
                "'max_size' must be from 16 to 8192, got {max_size}"
            )));
        }
        // Stages, each a point where the client hears progress and may cancel,
        // and where a drawing past its deadline stops.
        let control = &caller.control.within(DRAWING_DEADLINE);
        // The same stop, checked inside each stage's loops.
        let deadline = control.deadline();
        control.stage(0, 3, || "laying out the page".into())?;
        let scene = render::resolve_within(&board, page, &deadline)
            .map_err(|e| control.stopped(e))?
            .in_theme(theme_of(&a.theme));
        control.stage(1, 3, || "checking for problems".into())?;
        let problems = render::check_scene(&board, &scene);
        loop {
            control.stage(2, 3, || format!("drawing at {max_size} px"))?;
            let png = render::to_png_within(&scene, view, max_size, &deadline)
                .map_err(|e| control.drawing_failed(e))?;
            let mut problems = problems.clone();
            problems.extend(png.not_drawn.iter().map(|id| render::Problem {
                kind: render::ProblemKind::ImageNotDrawn,
                ids: vec![id.clone()],
                message: format!(
                    "{id}: its SVG image asks for too much work to draw (filters such as a large blur or morphology), so a grey box stands in for it: simplify the image or use a PNG"
                ),
            }));
            let out = summary(&board, page, &scene, &png, &problems);
            let text = out.text();
            let data = to_value(&out);
            // The summary travels twice: as text and as structured content.
            let size = png.data.len().div_ceil(3) * 4 + text.len() + data.to_string().len();
            if size <= MAX_RESULT_BYTES || max_size <= 64 {
                return Ok(Reply::Image {
                    png: png.data,
                    text,
                    data,
                });
            }
            // Shrink the picture in proportion to the excess, and a little more.
            let factor = (MAX_RESULT_BYTES as f64 / size as f64).sqrt() * 0.9;
            max_size = ((max_size as f64 * factor) as u32).max(64);
        }
    }
}

/// What a render says: page, objects, bounds, picture, problems.
fn summary(
    board: &Board,
    page: PageId,
    scene: &render::Scene,
    png: &render::Png,
    problems: &[render::Problem],
) -> RenderOutput {
    let p = board.page(page);
    let b = scene.bounds;
    RenderOutput {
        page: PageOutput {
            number: board.page_position(page).map_or(0, |i| i + 1),
            name: p.map_or(String::new(), |p| p.name.clone()),
        },
        objects: p.map_or(0, |p| p.objects.len()),
        bounds: BoundsOutput {
            x: Num(b.x),
            y: Num(b.y),
            w: Num(b.w),
            h: Num(b.h),
        },
        picture: PictureOutput {
            width: png.width,
            height: png.height,
            // Two decimals say enough, and keep the answer the same on every machine.
            scale: Num((png.scale as f64 * 100.0).round() / 100.0),
        },
        problem_count: problems.len(),
        problems: problems
            .iter()
            .take(MAX_PROBLEMS_LISTED)
            .map(|p| ProblemOutput {
                kind: p.kind.name(),
                message: p.message.clone(),
                ids: p.ids.iter().map(|id| id.to_string()).collect(),
            })
            .collect(),
        import_lost: crate::import_note(board)
            .map(|(format, lost)| lost.into_iter().map(|l| format!("{format}: {l}")).collect())
            .unwrap_or_default(),
    }
}

impl RenderOutput {
    /// The summary as the text that goes with the image.
    fn text(&self) -> String {
        let b = &self.bounds;
        let mut text = format!(
            "Page {} \"{}\": {} objects; bounds x {:.0} to {:.0}, y {:.0} to {:.0}. Picture {}x{} px at scale {:.2}.",
            self.page.number,
            self.page.name,
            self.objects,
            b.x.0,
            b.x.0 + b.w.0,
            b.y.0,
            b.y.0 + b.h.0,
            self.picture.width,
            self.picture.height,
            self.picture.scale.0
        );
        if self.problems.is_empty() {
            text.push_str("\nNo problems found.");
        } else {
            text.push_str(&format!("\nProblems ({}):", self.problem_count));
            for problem in &self.problems {
                text.push_str(&format!("\n- {}: {}", problem.kind, problem.message));
            }
            if self.problem_count > self.problems.len() {
                text.push_str(&format!(
                    "\n- ... and {} more",
                    self.problem_count - self.problems.len()
                ));
            }
        }
        if !self.import_lost.is_empty() {
            // Not problems to fix, but what the person's diagram had and this
            // board does not: worth saying every time the board is looked at.
            text.push_str("\nNot kept from the import:");
            for lost in &self.import_lost {
                text.push_str(&format!("\n- {lost}"));
            }
        }
        text
    }
}

pub struct Export;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportArgs {
    path: Option<String>,
    // The file to write; the description says which extensions.
    output: String,
    page: Option<PageRef>,
    /// Every page: one PDF page each, or numbered .svg/.png files.
    all_pages: Option<bool>,
    /// SVG/PNG carry the board for import (default true).
    embed: Option<bool>,
    /// PNG pixels per board unit (default 1).
    scale: Option<f64>,
    /// Replace a file already at output (default false: refused).
    overwrite: Option<bool>,
    theme: Option<Word<Theme>>,
    background: Option<Word<Background>>,
    /// Only these (and group members, frame contents).
    ids: Option<Vec<IdArg>>,
}

#[derive(Serialize, JsonSchema)]
pub struct ExportOutput {
    output: String,
    format: &'static str,
    bytes: usize,
    /// With all_pages to .svg/.png: every file written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    outputs: Vec<String>,
}

impl Tool for Export {
    const NAME: &'static str = "export";
    const TITLE: &'static str = "Export to file";
    const DESCRIPTION: &'static str = "Write the board to a file, the format from output's extension: .svg, .png, .pdf, .inkboard, .inkboard.json, .drawio, .excalidraw or .mmd. One page, or all_pages. An existing file is replaced only with overwrite: true.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = ExportArgs;
    type Output = ExportOutput;
}

/// A picture format the board can be exported to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    Svg,
    Png,
    Pdf,
}

impl Picture {
    const ALL: [Picture; 3] = [Picture::Svg, Picture::Png, Picture::Pdf];

    /// Its name, which is also its file extension.
    pub fn name(self) -> &'static str {
        match self {
            Picture::Svg => "svg",
            Picture::Png => "png",
            Picture::Pdf => "pdf",
        }
    }

    /// The format named `name` (`svg`, `png` or `pdf`).
    pub fn from_name(name: &str) -> Option<Picture> {
        Picture::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Picture::Svg => "image/svg+xml",
            Picture::Png => "image/png",
            Picture::Pdf => "application/pdf",
        }
    }

    /// `drawn` (a picture of `board` in this format) carrying the board itself:
    /// the whole file, every page, so that importing the picture gives back the
    /// board, not only what it shows. A PDF is left as it is.
    pub fn carrying(self, board: &Board, drawn: Vec<u8>) -> Vec<u8> {
        let text = || inkboard_format::board_to_json(board).to_string();
        match self {
            Picture::Svg => {
                inkboard_interop::svg_with_board(&String::from_utf8_lossy(&drawn), &text())
                    .into_bytes()
            }
            Picture::Png => inkboard_interop::png_with_board(&drawn, &text()),
            Picture::Pdf => drawn,
        }
    }

    /// `pages` of `board` in this format, as `look` says (PNG at its scale, in
    /// its theme, on its background, its objects only): a PDF holds every page,
    /// an SVG or PNG the first. Stops between pages and before encoding once
    /// `control` is cancelled or past its deadline.
    pub fn draw(
        self,
        board: &Board,
        pages: &[PageId],
        look: &Look,
        control: &Control,
    ) -> Result<Vec<u8>, ToolError> {
        let failed = |e: render::RenderError| control.drawing_failed(e);
        // The same stop, checked inside each stage's loops.
        let deadline = control.deadline();
        let resolve = |page: PageId| {
            render::resolve_within(board, page, &deadline)
                .map(|scene| look.apply(scene))
                .map_err(|e| control.stopped(e))
        };
        match self {
            Picture::Pdf => {
                let mut scenes: Vec<render::Scene> = Vec::with_capacity(pages.len());
                for p in pages {
                    control.check()?;
                    scenes.push(resolve(*p)?);
                }
                control.check()?;
                render::to_pdf_within(&scenes, board.title(), &deadline).map_err(failed)
            }
            Picture::Svg | Picture::Png => {
                let page = pages
                    .first()
                    .ok_or_else(|| ToolError::args("no page to draw"))?;
                let scene = resolve(*page)?;
                control.check()?;
                if self == Picture::Svg {
                    return Ok(render::to_svg(&scene, None).into_bytes());
                }
                render::to_png_scaled_within(&scene, None, look.scale as f32, &deadline)
                    .map(|p| p.data)
                    .map_err(failed)
            }
        }
    }
}

/// The theme a call asks for: light unless it says.
fn theme_of(arg: &Option<Word<Theme>>) -> Theme {
    arg.map_or(Theme::Light, |w| w.0)
}

/// What an output's extension asks for.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    Picture(Picture),
    Board,
    /// Another program's file (`inkboard-interop` writes them), or Mermaid.
    Diagram(Diagram),
}

/// The other programs' formats a board can be exported to.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Diagram {
    /// draw.io: every page, one `<diagram>` each (`all_pages` changes nothing).
    Drawio,
    /// Excalidraw, which has no pages: the page asked for.
    Excalidraw,
    /// A Mermaid flowchart of the page asked for.
    Mermaid,
}

impl Diagram {
    const ALL: [Diagram; 3] = [Diagram::Drawio, Diagram::Excalidraw, Diagram::Mermaid];

    /// The format a file named `name` is in, by its extension.
    pub(crate) fn of(name: &str) -> Option<Diagram> {
        let lower = name.to_ascii_lowercase();
        Diagram::ALL
            .into_iter()
            .find(|d| lower.ends_with(&format!(".{}", d.extension())))
    }

    /// Whether a file of this format holds one page only.
    pub(crate) fn one_page(self) -> bool {
        self != Diagram::Drawio
    }

    pub(crate) fn extension(self) -> &'static str {
        match self {
            Diagram::Drawio => "drawio",
            Diagram::Excalidraw => "excalidraw",
            Diagram::Mermaid => "mmd",
        }
    }

    pub(crate) fn write(self, board: &Board, page: PageId) -> String {
        match self {
            Diagram::Drawio => inkboard_interop::to_drawio(board),
            Diagram::Excalidraw => inkboard_interop::to_excalidraw(board, page),
            Diagram::Mermaid => inkboard_interop::mermaid::to_mermaid(board, page),
        }
    }
}

fn target_of(output: &str) -> Result<(Target, &'static str), ToolError> {
    // Board files are whatever the format crate accepts, named by their extension.
    if let Ok(kind) = file::FileKind::from_path(Path::new(output)) {
        return Ok((Target::Board, &kind.extension()[1..]));
    }
    if let Some(d) = Diagram::of(output) {
        return Ok((Target::Diagram(d), d.extension()));
    }
    let lower = output.to_ascii_lowercase();
    let found = Picture::ALL
        .into_iter()
        .find(|p| lower.ends_with(&format!(".{}", p.name())));
    found.map(|p| (Target::Picture(p), p.name())).ok_or_else(|| {
        ToolError::args(format!(
            "'output' {} has no known extension: end it with .svg, .png, .pdf, .inkboard, .inkboard.json, .drawio, .excalidraw or .mmd",
            inkboard_core::echo::echo_path(Path::new(output))
        ))
    })
}

/// `plan.png` → `plan-2.png`, for page 2 of an all-pages export.
fn numbered(output: &Path, n: usize) -> PathBuf {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let ext = output
        .extension()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    output.with_file_name(format!("{stem}-{n}.{ext}"))
}

impl BoardTool for Export {
    fn run(engine: &Engine, caller: &Caller, a: ExportArgs) -> Result<Reply, ToolError> {
        let source = engine.target(a.path.as_deref(), caller)?;
        let output = crate::engine::path_arg(&a.output, "output")?;
        let (target, format) = target_of(&a.output)?;
        let existing = match a.overwrite.unwrap_or(false) {
            true => file::Existing::Replace,
            false => file::Existing::Refuse,
        };
        // Compared once both are normalized, so `a/../board.inkboard` and a link
        // to the board are the board too. The output's own checks (links within
        // their folder, regular files only) come with it.
        let board_file = source.file().map(|f| file::normalize(&f));
        if board_file.as_ref() == Some(&file::normalize(&output))
            || board_file.as_ref() == Some(&file::export_target(&output)?)
        {
            return Err(ToolError::args(
                "'output' is the board itself: choose another file",
            ));
        }
        let scale = crate::args::positive("scale", a.scale)?.unwrap_or(1.0);
        if scale > render::MAX_SCALE as f64 * 2.0 {
            return Err(ToolError::args(format!(
                "'scale' must be at most {}",
                render::MAX_SCALE * 2.0
            )));
        }
        let (board, page) = board_and_page(engine, &source, &a.page)?;
        let control = &caller.control.within(DRAWING_DEADLINE);
        let all = a.all_pages.unwrap_or(false);
        let picture_only = |arg: &str| {
            ToolError::args(format!(
                "'{arg}' is for pictures, not a .{format} file: leave it out, or write .svg, .png or .pdf"
            ))
        };
        if !matches!(target, Target::Picture(_)) {
            let given = [
                ("theme", a.theme.is_some()),
                ("background", a.background.is_some()),
                ("ids", a.ids.is_some()),
            ];
            if let Some((arg, _)) = given.iter().find(|(_, set)| *set) {
                return Err(picture_only(arg));
            }
        }
        let (page, look) = pick::export_look(
            &board,
            page,
            a.page.is_some(),
            all,
            Look::new(scale, theme_of(&a.theme)),
            a.background.map(|w| w.0),
            a.ids.as_deref(),
        )?;
        let pages: Vec<PageId> = if all {
            board.pages().iter().map(|p| p.id).collect()
        } else {
            vec![page]
        };
        let embed = a.embed.unwrap_or(true);
        let carry = |p: Picture, drawn: Vec<u8>| match embed {
            true => p.carrying(&board, drawn),
            false => drawn,
        };
        let (bytes, outputs) = match target {
            Target::Diagram(d) => {
                if all && d.one_page() {
                    return Err(ToolError::args(format!(
                        "'all_pages' cannot go into one .{} file, which holds one page: export the pages one at a time with 'page'",
                        d.extension()
                    )));
                }
                control.stage(0, 1, || format!("writing the .{}", d.extension()))?;
                let text = d.write(&board, page);
                (
                    file::write_export(&output, text.as_bytes(), existing)?,
                    Vec::new(),
                )
            }
            Target::Board => {
                // Refused before the lock: no need to wait for the writer of a
                // file that is not to be replaced.
                let at = file::export_target(&output)?;
                if existing == file::Existing::Refuse && at.exists() {
                    return Err(inkboard_format::FormatError::OutputExists { path: output }.into());
                }
                let _lock = file::FileLock::acquire(&at)?;
                let saved = file::save_export(&output, &board, existing)?;
                (saved.bytes, Vec::new())
            }
            Target::Picture(p @ (Picture::Svg | Picture::Png)) if pages.len() > 1 => {
                let outs: Vec<PathBuf> = (1..=pages.len()).map(|n| numbered(&output, n)).collect();
                // Every file is checked before the first is written, so a refusal
                // leaves no half-written set behind.
                for out in &outs {
                    let at = file::export_target(out)?;
                    if existing == file::Existing::Refuse && at.exists() {
                        return Err(inkboard_format::FormatError::OutputExists {
                            path: out.clone(),
                        }
                        .into());
                    }
                }
                let mut total = 0;
                let mut written = Vec::new();
                for (i, (out, page)) in outs.iter().zip(&pages).enumerate() {
                    // A cancel stops between pages; the pages written stay.
                    control.stage(i, pages.len(), || {
                        format!("drawing page {} of {}", i + 1, pages.len())
                    })?;
                    let drawn = carry(p, p.draw(&board, &[*page], &look, control)?);
                    total += file::write_export(out, &drawn, existing)?;
                    written.push(out.display().to_string());
                }
                (total, written)
            }
            Target::Picture(p) => {
                control.stage(0, 2, || format!("drawing the {}", p.name()))?;
                let drawn = carry(p, p.draw(&board, &pages, &look, control)?);
                // Nothing is written once the call is cancelled or too late.
                control.stage(1, 2, || "writing the file".into())?;
                (file::write_export(&output, &drawn, existing)?, Vec::new())
            }
        };
        let out = ExportOutput {
            output: output.display().to_string(),
            format,
            bytes,
            outputs,
        };
        Ok(Reply::Json(to_value(&out)))
    }
}
