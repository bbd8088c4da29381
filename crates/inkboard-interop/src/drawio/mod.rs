//! draw.io: `.drawio`/`.xml` files, `.drawio.svg` and `.drawio.png` pictures.
//! `container.rs` finds the `<mxfile>` text in whichever wrapper it came in and
//! inflates compressed pages, `cells.rs` reads each page's cells, and `map.rs`
//! turns them into objects.

mod cells;
mod container;
mod label;
mod map;
mod style;
mod write;

pub use write::to_drawio;

use inkboard_core::Board;
use roxmltree::{Document, Node};

use crate::build::BoardBuilder;
use crate::{Format, ImportError, Lost};

/// Imports a draw.io file of the given (detected) format.
pub(crate) fn import(
    bytes: &[u8],
    format: Format,
    title: String,
) -> Result<(Board, Vec<Lost>), ImportError> {
    let text = container::file_text(bytes, format)?;
    let doc = container::parse(&text, "the file")?;
    let root = doc.root_element();
    let mut b = BoardBuilder::new(title);
    match root.tag_name().name() {
        "mxfile" => {
            for (i, diagram) in root
                .children()
                .filter(|n| n.has_tag_name("diagram"))
                .enumerate()
            {
                b.page(diagram.attribute("name").unwrap_or(""))?;
                page(&mut b, diagram, i + 1)?;
            }
        }
        "mxGraphModel" => {
            b.page("")?;
            map::page(&mut b, &cells::read(root));
        }
        other => {
            return Err(ImportError::BadXml {
                what: "the file".to_string(),
                detail: format!(
                    "its root element is <{}>, where draw.io writes <mxfile> or <mxGraphModel>",
                    inkboard_core::echo::echo(other)
                ),
            })
        }
    }
    b.finish()
}

/// Maps one `<diagram>`: its `<mxGraphModel>` child, or its compressed text.
fn page(b: &mut BoardBuilder, diagram: Node, number: usize) -> Result<(), ImportError> {
    if let Some(model) = diagram.children().find(|n| n.has_tag_name("mxGraphModel")) {
        map::page(b, &cells::read(model));
        return Ok(());
    }
    let what = format!("page {number}");
    let packed: String = diagram
        .children()
        .filter(Node::is_text)
        .filter_map(|n| n.text())
        .collect();
    if packed.trim().is_empty() {
        return Ok(());
    }
    let xml = container::inflate_diagram(&packed, &what)?;
    let doc: Document = container::parse(&xml, &what)?;
    let model = doc.root_element();
    if !model.has_tag_name("mxGraphModel") {
        return Err(ImportError::BadXml {
            what,
            detail: format!(
                "it holds <{}> where draw.io writes <mxGraphModel>",
                inkboard_core::echo::echo(model.tag_name().name())
            ),
        });
    }
    map::page(b, &cells::read(model));
    Ok(())
}
