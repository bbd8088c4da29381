//! draw.io: `.drawio`/`.xml` files, `.drawio.svg` and `.drawio.png` pictures.
//! `container.rs` finds the `<mxfile>` text in whichever wrapper it came in and
//! inflates compressed pages, `cells.rs` reads each page's cells, and `map.rs`
//! makes them into objects; `write.rs` writes a board out (`lanes.rs`: its
//! swimlanes as draw.io's pools and lanes).

mod cells;
mod container;
mod label;
mod lanes;
mod lifeline;
mod map;
mod style;
mod table;
mod write;

pub use write::to_drawio;

use inkboard_core::Board;
use roxmltree::{Document, Node};

use crate::build::BoardBuilder;
use crate::inflate::Budget;
use crate::{Format, ImportError, Lost};

/// Imports a draw.io file of the given (detected) format.
pub(crate) fn import(
    bytes: &[u8],
    format: Format,
    title: String,
) -> Result<(Board, Vec<Lost>), ImportError> {
    import_within(bytes, format, title, Budget::new())
}

/// [`import`], inflating at most what `budget` allows for all of the file's
/// compressed parts together.
fn import_within(
    bytes: &[u8],
    format: Format,
    title: String,
    mut budget: Budget,
) -> Result<(Board, Vec<Lost>), ImportError> {
    let text = container::file_text(bytes, format, &mut budget)?;
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
                page(&mut b, diagram, i + 1, &mut budget)?;
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
fn page(
    b: &mut BoardBuilder,
    diagram: Node,
    number: usize,
    budget: &mut Budget,
) -> Result<(), ImportError> {
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
    let xml = container::inflate_diagram(&packed, &what, budget)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn packed(xml: &str) -> String {
        use base64::Engine as _;
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(xml.as_bytes()).unwrap();
        base64::engine::general_purpose::STANDARD.encode(e.finish().unwrap())
    }

    #[test]
    fn the_pages_of_a_file_share_one_inflate_budget() {
        // Each page inflates to about 1,000 bytes; the third passes 2,500.
        let page = packed(&format!(
            "<mxGraphModel><root><mxCell id=\"0\"/></root>{}</mxGraphModel>",
            " ".repeat(950)
        ));
        let file = |pages: usize| {
            format!(
                "<mxfile>{}</mxfile>",
                format!("<diagram>{page}</diagram>").repeat(pages)
            )
        };
        let within = |pages| {
            import_within(
                file(pages).as_bytes(),
                Format::Drawio,
                "t".into(),
                Budget::with_limit(2_500),
            )
        };
        assert!(within(2).is_ok());
        let Err(e) = within(3) else {
            panic!("the third page is over the budget");
        };
        assert!(
            e.to_string()
                .starts_with("page 3, with what came before it, decompressed, has "),
            "{e}"
        );
    }
}
