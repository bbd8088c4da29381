//! Where a draw.io diagram's XML is, and how to get it out: the file itself; the
//! `content` attribute of an SVG's root; a PNG text chunk (`mxfile`, URL-encoded;
//! old files: `mxGraphModel`, compressed). A page inside an `<mxfile>` may be
//! compressed: base64 of raw deflate of the URL-encoded XML (draw.io's
//! `Graph.compress`).

use inkboard_core::xml::{self, Entities};
use percent_encoding::percent_decode_str;
use roxmltree::{Document, ParsingOptions};

use crate::build::base64_lenient;
use crate::inflate::{inflate_any, Budget, Framing, InflateError};
use crate::{png, Format, ImportError};

/// The most XML nodes one document may have: far past the model's limit of
/// objects on a page (each cell is a few nodes), and a bound on the memory a
/// hostile file can make the parser take.
const MAX_NODES: u32 = 4_000_000;

/// The XML text of the draw.io file, unwrapped from its picture if it is one;
/// what it inflated is taken from `budget`.
pub(crate) fn file_text(
    bytes: &[u8],
    format: Format,
    budget: &mut Budget,
) -> Result<String, ImportError> {
    let text = match format {
        Format::DrawioPng => {
            let text = png_text(bytes)?;
            budget.spend(text.len());
            text
        }
        _ => String::from_utf8_lossy(bytes).into_owned(),
    };
    if format != Format::DrawioSvg {
        return Ok(text);
    }
    let doc = parse(&text, "the SVG")?;
    let content = doc.root_element().attribute("content").unwrap_or("");
    if content.trim_start().starts_with('<') {
        return Ok(content.to_string());
    }
    // Some exporters store the content compressed, as a page is.
    inflate_diagram(content, "the SVG's embedded diagram", budget)
}

/// The diagram in a PNG's text chunk, URL-decoded.
fn png_text(bytes: &[u8]) -> Result<String, ImportError> {
    let chunk = png::text_chunk(bytes, "mxfile")
        .or_else(|| png::text_chunk(bytes, "mxGraphModel"))
        .ok_or(ImportError::NoEmbeddedDiagram {
            picture: "PNG",
            app: "draw.io",
            option: "\"Include a copy of my diagram\"",
        })?;
    let what = format!("the PNG's {} chunk", chunk.keyword);
    let text = chunk.text.map_err(|e| e.into_import(&what))?;
    let text = text.trim();
    if text.starts_with('<') {
        return Ok(text.to_string());
    }
    Ok(percent_decode_str(text).decode_utf8_lossy().into_owned())
}

/// Parses XML with the bounds every imported document gets: its cost checked on
/// its text first (`inkboard_core::xml`), since the parser's own guards let a
/// few hundred bytes of nested entities grow to gigabytes and spend minutes on
/// an element of many attributes; then at most [`MAX_NODES`] nodes.
pub(crate) fn parse<'a>(text: &'a str, what: &str) -> Result<Document<'a>, ImportError> {
    // draw.io never declares an entity, so any declaration is refused.
    xml::check(what, text, Entities::Refused).map_err(ImportError::Limit)?;
    let options = ParsingOptions {
        // draw.io's SVGs start with a DOCTYPE (without entities: checked above).
        allow_dtd: true,
        nodes_limit: MAX_NODES,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(text, options).map_err(|e| ImportError::BadXml {
        what: what.to_string(),
        detail: e.to_string(),
    })
}

/// A compressed page's XML: base64, then raw deflate, then URL-decoding. Pages
/// written uncompressed but escaped as text are taken as they are. What it
/// inflates is taken from `budget`, which the file's pages share.
pub(crate) fn inflate_diagram(
    packed: &str,
    what: &str,
    budget: &mut Budget,
) -> Result<String, ImportError> {
    let packed = packed.trim();
    if packed.starts_with('<') {
        return Ok(packed.to_string());
    }
    let bytes = base64_lenient(packed).ok_or_else(|| ImportError::BadEncoding {
        what: what.to_string(),
        detail: "its compressed text is not base64".to_string(),
    })?;
    let inflated = if bytes.starts_with(b"<") || bytes.starts_with(b"%3C") {
        bytes
    } else {
        let inflated = inflate_any(&bytes, Framing::Raw, budget.left()).map_err(|e| {
            let what = match e {
                InflateError::TooLarge if budget.spent() => {
                    format!("{what}, with what came before it")
                }
                _ => what.to_string(),
            };
            e.into_import(&what)
        })?;
        budget.spend(inflated.len());
        inflated
    };
    // Valid UTF-8 (as draw.io writes) is taken without a copy.
    let encoded = String::from_utf8(inflated)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    if encoded.trim_start().starts_with('<') {
        return Ok(encoded);
    }
    Ok(percent_decode_str(&encoded)
        .decode_utf8_lossy()
        .into_owned())
}
