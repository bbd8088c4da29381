//! `add_image`: a PNG, JPEG or SVG picture, from a file (`source`) or a data URL
//! (`data`), embedded in the board. Its size defaults to the picture's own,
//! scaled down to at most 800 px on its longest side.

use std::sync::Arc;

use base64::Engine as _;
use inkboard_core::{Image, ImageFormat, Kind, Rect};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::place;
use crate::tool::{finite, positive, Cx, EditTool, Hints, Placed, Tool};
use crate::ToolError;

/// Images larger than this are refused, to keep boards small enough to edit.
const MAX_BYTES: usize = 20 * 1024 * 1024;
/// The longest side an image gets by default.
const DEFAULT_MAX_SIDE: f64 = 800.0;

pub struct AddImage;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddImageArgs {
    source: Option<String>,
    data: Option<String>,
    x: Option<f64>,
    y: Option<f64>,
    w: Option<f64>,
    h: Option<f64>,
    opacity: Option<f64>,
}

impl Tool for AddImage {
    const NAME: &'static str = "add_image";
    const DESCRIPTION: &'static str = "Embed a PNG, JPEG or SVG from a file (source) or a data URL (data). Without w/h: its own size (at most 800 px); without x/y: free space.";
    const HINTS: Hints = Hints::ADD;
    type Args = AddImageArgs;
    type Output = Placed;
}

impl EditTool for AddImage {
    fn run(cx: &mut Cx<'_, '_>, a: AddImageArgs) -> Result<Placed, ToolError> {
        let bytes = match (&a.source, &a.data) {
            (Some(path), None) => read_source(path)?,
            (None, Some(url)) => decode_data_url(url)?,
            _ => {
                return Err(ToolError::args(
                    "give exactly one of 'source' (a file path) or 'data' (a data URL)",
                ))
            }
        };
        if bytes.len() > MAX_BYTES {
            return Err(ToolError::args(format!(
                "the image is {} MB: use one under 20 MB",
                bytes.len() / (1024 * 1024)
            )));
        }
        let format = sniff(&bytes).ok_or_else(|| {
            ToolError::args("the image is not PNG, JPEG or SVG: convert it to one of those")
        })?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        let (w, h) = (positive("w", a.w)?, positive("h", a.h)?);
        let (nw, nh) = natural_size(format, &bytes).unwrap_or((200.0, 150.0));
        let fit = (DEFAULT_MAX_SIDE / nw.max(nh)).min(1.0);
        let (w, h) = match (w, h) {
            (Some(w), Some(h)) => (w, h),
            (Some(w), None) => (w, (w * nh / nw).max(1.0)),
            (None, Some(h)) => ((h * nw / nh).max(1.0), h),
            (None, None) => ((nw * fit).round().max(1.0), (nh * fit).round().max(1.0)),
        };
        let (px, py) = if x.is_none() || y.is_none() {
            place::free_spot_with(cx.board(), cx.page, x, y, w, h)
        } else {
            (0.0, 0.0)
        };
        let bounds = Rect::new(x.unwrap_or(px), y.unwrap_or(py), w, h);
        let style = inkboard_core::Style {
            opacity: a.opacity,
            ..Default::default()
        };
        style.validate()?;
        let image = Image {
            bounds,
            format,
            data: Arc::from(bytes),
            style,
        };
        let id = cx.tx.add(cx.page, None, Kind::Image(image))?;
        Ok(Placed::new(&id, bounds))
    }
}

fn read_source(path: &str) -> Result<Vec<u8>, ToolError> {
    std::fs::read(path).map_err(|e| {
        ToolError::Io(format!(
            "cannot read image 'source' {path} ({e}): give the path of a PNG, JPEG or SVG file that exists, or pass the image as 'data'"
        ))
    })
}

/// Decodes `data:[mime][;base64],payload`.
pub(crate) fn decode_data_url(url: &str) -> Result<Vec<u8>, ToolError> {
    let bad = || ToolError::args("'data' must be a data URL like data:image/png;base64,iVBOR...");
    let rest = url.trim().strip_prefix("data:").ok_or_else(bad)?;
    let (meta, payload) = rest.split_once(',').ok_or_else(bad)?;
    if meta.ends_with(";base64") {
        let clean: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
        base64::engine::general_purpose::STANDARD
            .decode(clean.as_bytes())
            .map_err(|e| {
                ToolError::args(format!(
                    "'data' is not valid base64 ({}): encode the image bytes in standard base64",
                    e.to_string().trim_end_matches('.')
                ))
            })
    } else {
        Ok(percent_decode(payload))
    }
}

fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// The format, from the bytes themselves (never trust a name).
fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(ImageFormat::Png);
    }
    if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        return Some(ImageFormat::Jpeg);
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    head.contains("<svg").then_some(ImageFormat::Svg)
}

/// The picture's own size in pixels, when the header says.
fn natural_size(format: ImageFormat, b: &[u8]) -> Option<(f64, f64)> {
    let size = match format {
        ImageFormat::Png => {
            let w = u32::from_be_bytes(b.get(16..20)?.try_into().ok()?);
            let h = u32::from_be_bytes(b.get(20..24)?.try_into().ok()?);
            (w as f64, h as f64)
        }
        ImageFormat::Jpeg => jpeg_size(b)?,
        ImageFormat::Svg => svg_size(&String::from_utf8_lossy(b))?,
    };
    (size.0 > 0.0 && size.1 > 0.0).then_some(size)
}

fn jpeg_size(b: &[u8]) -> Option<(f64, f64)> {
    let mut i = 2;
    while i + 9 < b.len() {
        if b[i] != 0xff {
            i += 1;
            continue;
        }
        let marker = b[i + 1];
        let len = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
        // Start-of-frame markers carry the size; C4, C8 and CC are not frames.
        if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
            let h = u16::from_be_bytes([b[i + 5], b[i + 6]]);
            let w = u16::from_be_bytes([b[i + 7], b[i + 8]]);
            return Some((w as f64, h as f64));
        }
        i += 2 + len;
    }
    None
}

fn svg_size(text: &str) -> Option<(f64, f64)> {
    let start = text.find("<svg")?;
    let tag = &text[start..start + text[start..].find('>')?];
    let attr = |name: &str| {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        let end = tag[at..].find('"')?;
        Some(&tag[at..at + end])
    };
    let number = |v: &str| v.trim().trim_end_matches("px").parse::<f64>().ok();
    if let (Some(w), Some(h)) = (
        attr("width").and_then(number),
        attr("height").and_then(number),
    ) {
        return Some((w, h));
    }
    let vb: Vec<f64> = attr("viewBox")?
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    (vb.len() == 4).then(|| (vb[2], vb[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_urls_and_sizes() {
        let svg = decode_data_url(
            "data:image/svg+xml,%3Csvg width=%2240%22 height=%2220%22%3E%3C/svg%3E",
        )
        .unwrap();
        assert_eq!(sniff(&svg), Some(ImageFormat::Svg));
        assert_eq!(natural_size(ImageFormat::Svg, &svg), Some((40.0, 20.0)));
        assert!(decode_data_url("image/png;base64,AAAA").is_err());
        assert!(decode_data_url("data:image/png;base64,!!!").is_err());
        let vb = svg_size("<svg xmlns=\"x\" viewBox=\"0 0 300 100\">").unwrap();
        assert_eq!(vb, (300.0, 100.0));
    }
}
