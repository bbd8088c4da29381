//! `add_image`: a PNG, JPEG or SVG picture, from a file (`source`) or a data URL
//! (`data`), embedded in the board. Its size defaults to the picture's own,
//! scaled down to at most 800 px on its longest side.

use std::io::Read;
use std::sync::Arc;

use base64::Engine as _;
use inkboard_arrange::place;
use inkboard_core::limits::{self, Limit, MAX_IMAGE_BYTES};
use inkboard_core::{Image, ImageFormat, Kind, Rect};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{finite, positive};
use crate::tool::{Cx, EditTool, Hints, Placed, Tool};
use crate::ToolError;

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
    const TITLE: &'static str = "Add image";
    const DESCRIPTION: &'static str = "Embed a PNG, JPEG or SVG from source or data. Without w/h: its own size (at most 800 px); without x/y: free space.";
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
        let format = ImageFormat::sniff(&bytes).ok_or_else(|| {
            ToolError::args("the image is not PNG, JPEG or SVG: convert it to one of those")
        })?;
        // The model checks every image it is given; checked here too so that the
        // message speaks of the argument rather than of an object id.
        limits::check_image("the image", &bytes)?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        let (w, h) = (positive("w", a.w)?, positive("h", a.h)?);
        let (nw, nh) = format.natural_size(&bytes).unwrap_or((200.0, 150.0));
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
            rotation: inkboard_core::Rotation::NONE,
        };
        let id = cx.tx.add(cx.page, None, Kind::Image(image))?;
        Ok(Placed::new(&id, bounds))
    }
}

/// Reads an image file, refusing one over the limit from its size before reading
/// it, and reading no more than one byte past the limit whatever its size claims
/// (a device or a growing file).
fn read_source(path: &str) -> Result<Vec<u8>, ToolError> {
    let file_path = crate::engine::path_arg(path, "source")?;
    // Quoted as given (a relative path stays relative), shortened if long.
    let path = inkboard_core::echo::echo_path(std::path::Path::new(path));
    let cannot = |e: std::io::Error| {
        ToolError::Io(format!(
            "cannot read image 'source' {path} ({e}): give the path of a PNG, JPEG or SVG file that exists, or pass the image as 'data'"
        ))
    };
    // Not a pipe or a device: opening or reading one could wait for ever.
    match std::fs::metadata(&file_path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            return Err(cannot(std::io::Error::other("not a regular file")))
        }
        _ => {}
    }
    let file = std::fs::File::open(&file_path).map_err(cannot)?;
    let what = || format!("the image 'source' {path}");
    let len = file.metadata().map_err(cannot)?.len();
    Limit::ImageBytes.check(what, len)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(MAX_IMAGE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    Limit::ImageBytes.check(what, bytes.len() as u64)?;
    Ok(bytes)
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

/// Decodes `%XX` escapes; a `%` not followed by two hex digits stays as it is. The
/// digits are looked at as bytes, since the text around them may be any UTF-8 (a
/// slice of the `str` could cut a character in two).
fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let hex = |i: usize| b.get(i).and_then(|&c| char::from(c).to_digit(16));
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if let (Some(high), Some(low)) = (hex(i + 1), hex(i + 2)) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
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
        assert_eq!(ImageFormat::sniff(&svg), Some(ImageFormat::Svg));
        assert_eq!(ImageFormat::Svg.natural_size(&svg), Some((40.0, 20.0)));
        assert!(decode_data_url("image/png;base64,AAAA").is_err());
        assert!(decode_data_url("data:image/png;base64,!!!").is_err());
    }

    /// Found by the `image` fuzz target: a `%` before a character of several bytes
    /// panicked (the escape's two "digits" cut the character). Only two hex digits
    /// make an escape (`%+1` is not one, though `u8::from_str_radix` reads it).
    #[test]
    fn percent_escapes_beside_any_text() {
        let decoded = decode_data_url("data:,%2é%41%+1%4").unwrap();
        assert_eq!(decoded, "%2éA%+1%4".as_bytes());
    }
}
