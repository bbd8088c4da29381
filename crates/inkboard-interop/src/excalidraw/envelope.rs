//! The scene JSON of an Excalidraw file, out of whatever wraps it. Excalidraw's
//! own code (`packages/excalidraw/data/image.ts`, `encode.ts`, and
//! `scene/export.ts`) defines the wrappers:
//!
//! - PNG: a `tEXt` chunk, keyword `application/vnd.excalidraw+json`, whose
//!   (Latin-1) text is either the scene itself (old files) or an envelope
//!   `{"version":"1","encoding":"bstring","compressed":true,"encoded":"…"}`
//!   where `encoded` is a byte string (one character per byte) of the zlib-deflated
//!   UTF-8 scene, or of the scene's UTF-8 bytes when not compressed;
//! - SVG: `<!-- payload-type:application/vnd.excalidraw+json -->`, then
//!   `<!-- payload-version:N -->`, then base64 between `<!-- payload-start -->`
//!   and `<!-- payload-end -->`: in version 1 the base64 of the UTF-8 JSON, in
//!   version 2 the base64 of the byte string of the JSON; that JSON is, again,
//!   the scene or the envelope above.

use inkboard_core::limits::MAX_FILE_BYTES;
use serde_json::Value;

use crate::build::base64_lenient;
use crate::detect::EXCALIDRAW_MIME;
use crate::inflate::{inflate_any, Framing};
use crate::{png, Format, ImportError};

/// The scene JSON text of an Excalidraw file.
pub(crate) fn scene_text(bytes: &[u8], format: Format) -> Result<String, ImportError> {
    match format {
        Format::ExcalidrawPng => {
            let chunk =
                png::text_chunk(bytes, EXCALIDRAW_MIME).ok_or(ImportError::NoEmbeddedDiagram {
                    picture: "PNG",
                    app: "Excalidraw",
                    option: "\"Embed scene\"",
                })?;
            let text = chunk
                .text
                .map_err(|e| e.into_import("the PNG's Excalidraw chunk"))?;
            unwrap(&text)
        }
        Format::ExcalidrawSvg => svg_payload(&String::from_utf8_lossy(bytes)),
        _ => Ok(String::from_utf8_lossy(bytes)
            .trim_start_matches('\u{feff}')
            .to_string()),
    }
}

/// The payload of an SVG exported with the scene embedded.
fn svg_payload(svg: &str) -> Result<String, ImportError> {
    let damaged = |detail: &str| ImportError::BadEncoding {
        what: "the SVG's embedded Excalidraw scene".to_string(),
        detail: detail.to_string(),
    };
    let start = svg
        .find("<!-- payload-start -->")
        .ok_or_else(|| damaged("its payload-start marker is missing"))?
        + "<!-- payload-start -->".len();
    let end = svg[start..]
        .find("<!-- payload-end -->")
        .ok_or_else(|| damaged("its payload-end marker is missing"))?
        + start;
    let version = svg
        .split("<!-- payload-version:")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap_or("1");
    let bytes =
        base64_lenient(&svg[start..end]).ok_or_else(|| damaged("its payload is not base64"))?;
    let json = if version == "1" {
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        bytes.iter().map(|&b| char::from(b)).collect()
    };
    unwrap(&json)
}

/// The scene from an envelope, or the text itself when it is already a scene.
fn unwrap(json: &str) -> Result<String, ImportError> {
    let value: Value = serde_json::from_str(json).map_err(|e| ImportError::BadJson {
        detail: format!("the embedded data is not JSON ({e})"),
    })?;
    let Some(encoded) = value.get("encoded") else {
        return Ok(json.to_string());
    };
    let damaged = |detail: String| ImportError::BadEncoding {
        what: "the embedded Excalidraw scene".to_string(),
        detail,
    };
    let encoding = value
        .get("encoding")
        .and_then(Value::as_str)
        .unwrap_or("bstring");
    if encoding != "bstring" {
        return Err(damaged(format!(
            "its encoding is \"{}\", where Excalidraw writes \"bstring\"",
            inkboard_core::echo::echo(encoding)
        )));
    }
    let encoded = encoded
        .as_str()
        .ok_or_else(|| damaged("its encoded data is not a string".to_string()))?;
    // A byte string holds one byte per character.
    let bytes: Vec<u8> = encoded
        .chars()
        .map(|c| u8::try_from(u32::from(c)))
        .collect::<Result<_, _>>()
        .map_err(|_| damaged("its byte string holds a character above U+00FF".to_string()))?;
    let compressed = value
        .get("compressed")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let bytes = if compressed {
        inflate_any(&bytes, Framing::Zlib, MAX_FILE_BYTES)
            .map_err(|e| e.into_import("the embedded Excalidraw scene"))?
    } else {
        bytes
    };
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use flate2::write::ZlibEncoder;
    use std::io::Write;

    fn envelope(scene: &str) -> String {
        let mut z = ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(scene.as_bytes()).unwrap();
        let bstring: String = z.finish().unwrap().iter().map(|&b| char::from(b)).collect();
        serde_json::json!({"version": "1", "encoding": "bstring", "compressed": true, "encoded": bstring})
            .to_string()
    }

    #[test]
    fn envelopes_and_svg_payloads_unwrap() {
        let scene = r#"{"type":"excalidraw","elements":[{"text":"é"}]}"#;
        assert_eq!(unwrap(&envelope(scene)).unwrap(), scene);
        assert_eq!(unwrap(scene).unwrap(), scene);
        // Version 2: base64 of the envelope's byte string (Latin-1 bytes).
        let latin1: Vec<u8> = envelope(scene).chars().map(|c| c as u32 as u8).collect();
        let b64 = base64::engine::general_purpose::STANDARD.encode(latin1);
        let svg = format!("<svg><!-- payload-type:{EXCALIDRAW_MIME} --><!-- payload-version:2 --><!-- payload-start -->{b64}<!-- payload-end --></svg>");
        assert_eq!(svg_payload(&svg).unwrap(), scene);
        let broken = r#"{"encoding":"bstring","compressed":true,"encoded":"xyz"}"#;
        assert!(matches!(
            unwrap(broken),
            Err(ImportError::BadEncoding { .. })
        ));
    }
}
