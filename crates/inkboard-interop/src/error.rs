//! Why an import failed. A file that is readable always imports, with what it
//! could not keep reported in [`crate::Lost`]; these errors are for files that
//! cannot be read at all, or that would make a board beyond the model's limits.

use inkboard_core::ModelError;

/// Why a file could not be imported. Each message names what was wrong and what
/// to do about it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// Neither a draw.io nor an Excalidraw file: `what` says what it looked like.
    #[error("{what} is not a draw.io or Excalidraw file: open a .drawio, .drawio.svg, .drawio.png, .excalidraw, .excalidraw.svg or .excalidraw.png file")]
    NotADiagram { what: String },
    /// A picture (SVG or PNG) with no diagram inside.
    #[error("this {picture} carries no diagram: export it again from {app} with the diagram included ({option})")]
    NoEmbeddedDiagram {
        picture: &'static str,
        app: &'static str,
        option: &'static str,
    },
    /// Compressed or encoded content that does not decode.
    #[error("{what} is damaged: {detail}; save the file again from the program that made it")]
    BadEncoding { what: String, detail: String },
    /// XML that does not parse, or lacks what every draw.io file has.
    #[error("{what} is not well-formed draw.io XML: {detail}")]
    BadXml { what: String, detail: String },
    /// JSON that does not parse, or is not an Excalidraw scene.
    #[error("the Excalidraw data is not valid: {detail}")]
    BadJson { detail: String },
    /// An Excalidraw library (`.excalidrawlib`): shapes to reuse, not a drawing.
    #[error("this is an Excalidraw library, not a drawing: place its items on a canvas in Excalidraw and save that as .excalidraw")]
    Library,
    /// The file, or the board made from it, is over one of the model's limits
    /// (`inkboard_core::limits`); the message names the limit and the fix.
    #[error("{0}")]
    Limit(ModelError),
}

impl ImportError {
    /// The error for bytes [`crate::detect`] did not recognise, describing them.
    pub(crate) fn unknown(bytes: &[u8], name_hint: Option<&str>) -> ImportError {
        if crate::png::is_png(bytes) {
            let (app, option) = match name_hint {
                Some(n) if n.to_ascii_lowercase().contains("excalidraw") => {
                    ("Excalidraw", "\"Embed scene\"")
                }
                _ => ("draw.io", "\"Include a copy of my diagram\""),
            };
            return ImportError::NoEmbeddedDiagram {
                picture: "PNG",
                app,
                option,
            };
        }
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
        if head.contains("<svg") {
            let excalidraw =
                name_hint.is_some_and(|n| n.to_ascii_lowercase().contains("excalidraw"));
            return ImportError::NoEmbeddedDiagram {
                picture: "SVG",
                app: if excalidraw { "Excalidraw" } else { "draw.io" },
                option: if excalidraw {
                    "\"Embed scene\""
                } else {
                    "\"Include a copy of my diagram\""
                },
            };
        }
        let what = match name_hint {
            Some(name) => format!("\"{}\"", inkboard_core::echo::echo(name)),
            None if bytes.is_empty() => "an empty file".to_string(),
            None => "this file".to_string(),
        };
        ImportError::NotADiagram { what }
    }
}
