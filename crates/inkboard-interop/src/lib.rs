//! The diagrams people already have, in and out. This crate reads draw.io files (an
//! `<mxfile>` of pages, plain or compressed, a bare `<mxGraphModel>`, and the
//! `.drawio.svg` and `.drawio.png` pictures that carry one) and Excalidraw files
//! (`.excalidraw` JSON, and the `.excalidraw.svg` and `.excalidraw.png` pictures
//! that carry one), and maps them onto an inkboard [`Board`].
//!
//! It knows only the model (`inkboard-core`): no files, no tools, no JSON of
//! inkboard's own. Each format goes through three stages: the container is opened
//! (decompressed, unwrapped from its picture), the raw document is parsed into
//! typed records (`drawio/cells.rs`, `excalidraw/element.rs`), and the records are
//! mapped onto objects through one `BoardBuilder` (`build.rs`), which hands out ids and
//! lets `Board::from_parts` check every invariant and limit once.
//!
//! The result says what it could not keep: [`Imported::lost`] lists, by kind and
//! count with examples, everything the model cannot represent (stencil shapes,
//! rotation, waypoints...). Nothing is dropped without a line there.
//!
//! The other way, [`to_drawio`] writes a board as a draw.io file (every page) and
//! [`to_excalidraw`] one page as an Excalidraw scene; importing either gives back
//! the same objects, texts and connections. [`svg_with_board`] and
//! [`png_with_board`] put a board's file text inside an SVG or PNG export, and
//! [`board_in_picture`] finds it again.
//!
//! [`mermaid`] reads a Mermaid flowchart into a typed, resolved
//! [`mermaid::Flowchart`] and a sequence diagram into a [`mermaid::Sequence`]
//! ([`mermaid::read`] picks by the header; the tools' `import_mermaid` draws
//! either, placed by `inkboard-arrange`) and writes a page back as a flowchart
//! ([`mermaid::to_mermaid`]).
//!
//! ```
//! let xml = br#"<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
//!   <mxCell id="2" value="Hello" style="ellipse" vertex="1" parent="1">
//!     <mxGeometry x="10" y="20" width="120" height="60" as="geometry"/></mxCell>
//! </root></mxGraphModel>"#;
//! let imported = inkboard_interop::import(xml, Some("hello.drawio")).unwrap();
//! assert_eq!(imported.format, inkboard_interop::Format::Drawio);
//! assert_eq!(imported.board.object_count(), 1);
//! assert!(imported.lost.is_empty());
//! ```

mod build;
mod colour;
mod detect;
mod drawio;
mod error;
mod excalidraw;
mod fonts;
mod inflate;
mod lost;
pub mod mermaid;
mod out;
mod picture;
mod png;

pub use detect::{detect, diagram_stem, Format};
pub use drawio::to_drawio;
pub use error::ImportError;
pub use excalidraw::to_excalidraw;
pub use lost::{Lost, LostKind};
pub use picture::{
    board_in_picture, png_with_board, svg_with_board, BOARD_KEYWORD, BOARD_NAMESPACE,
};

use inkboard_core::limits::Limit;
use inkboard_core::Board;

/// A board made from another program's file, and what it could not keep.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The new board: one page per draw.io page, one page for an Excalidraw scene.
    pub board: Board,
    /// What the board could not represent, one entry per kind, in the order first met.
    pub lost: Vec<Lost>,
    /// Which kind of file it was.
    pub format: Format,
}

/// Imports a draw.io or Excalidraw file from its bytes. The format is found from
/// the content ([`detect`]); `name_hint`, the file's name if there is one, only
/// gives the board its title and makes error messages name the file type.
///
/// Errors: a file of neither kind, a picture without an embedded diagram, a
/// damaged or undecodable document, and a drawing beyond the board's
/// [`limits`](inkboard_core::limits) ([`ImportError`] says which, and what to do).
pub fn import(bytes: &[u8], name_hint: Option<&str>) -> Result<Imported, ImportError> {
    Limit::FileBytes
        .check(|| "the file".to_string(), bytes.len() as u64)
        .map_err(ImportError::Limit)?;
    let format = detect(bytes, name_hint).ok_or_else(|| ImportError::unknown(bytes, name_hint))?;
    let title = title_from(name_hint);
    let (board, lost) = match format {
        Format::Drawio | Format::DrawioSvg | Format::DrawioPng => {
            drawio::import(bytes, format, title)?
        }
        Format::Excalidraw | Format::ExcalidrawSvg | Format::ExcalidrawPng => {
            excalidraw::import(bytes, format, title)?
        }
    };
    Ok(Imported {
        board,
        lost,
        format,
    })
}

/// The board's title: the file's name without its folder and its extensions
/// (`flow.drawio.svg` → `flow`), or "Imported" without one.
fn title_from(name_hint: Option<&str>) -> String {
    let name = name_hint
        .map(|n| n.rsplit(['/', '\\']).next().unwrap_or(n))
        .unwrap_or("");
    let stem = name.split('.').next().unwrap_or("").trim();
    if stem.is_empty() {
        "Imported".to_string()
    } else {
        stem.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn titles_come_from_the_file_name() {
        assert_eq!(super::title_from(Some("a/b/flow.drawio.svg")), "flow");
        assert_eq!(super::title_from(Some("C:\\x\\plan.excalidraw")), "plan");
        assert_eq!(super::title_from(Some(".drawio")), "Imported");
        assert_eq!(super::title_from(None), "Imported");
    }
}
