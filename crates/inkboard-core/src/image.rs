//! What an embedded image's bytes say about themselves, read from their signature
//! and header without decoding the picture: the format, and the size in pixels.
//! The size serves two purposes: `add_image` gives an image its own size by
//! default, and the limits refuse a picture too big to decode (a PNG of a few
//! bytes may declare 100,000 × 100,000 pixels, which a decoder would try to
//! allocate).

use crate::ImageFormat;

impl ImageFormat {
    /// The format of these bytes, from their signature: never trust a name.
    pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
        if is_png(bytes) {
            return Some(ImageFormat::Png);
        }
        if is_jpeg(bytes) {
            return Some(ImageFormat::Jpeg);
        }
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
        head.contains("<svg").then_some(ImageFormat::Svg)
    }

    /// The picture's own size, as its header says: pixels for PNG and JPEG, the
    /// `width`/`height` (or `viewBox`) of an SVG. `None` when the header does not
    /// say, or says zero.
    pub fn natural_size(self, bytes: &[u8]) -> Option<(f64, f64)> {
        let size = match self {
            ImageFormat::Png | ImageFormat::Jpeg => {
                let (w, h) = raster_size(bytes)?;
                (f64::from(w), f64::from(h))
            }
            ImageFormat::Svg => svg_size(&String::from_utf8_lossy(bytes))?,
        };
        (size.0 > 0.0 && size.1 > 0.0).then_some(size)
    }
}

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

fn is_jpeg(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xff, 0xd8, 0xff])
}

/// The width and height in pixels of a PNG or JPEG (whichever its signature
/// says, whatever format it is filed under); `None` for anything else or a header
/// that does not say. SVG is drawn at the size of its box, so it has none.
pub(crate) fn raster_size(b: &[u8]) -> Option<(u32, u32)> {
    if is_png(b) {
        // The IHDR chunk comes first: width and height right after its type.
        let w = u32::from_be_bytes(b.get(16..20)?.try_into().ok()?);
        let h = u32::from_be_bytes(b.get(20..24)?.try_into().ok()?);
        return Some((w, h));
    }
    if is_jpeg(b) {
        return jpeg_size(b);
    }
    None
}

fn jpeg_size(b: &[u8]) -> Option<(u32, u32)> {
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
            return Some((u32::from(w), u32::from(h)));
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
    fn headers_give_format_and_size() {
        let svg = b"<svg width=\"40\" height=\"20\"></svg>";
        assert_eq!(ImageFormat::sniff(svg), Some(ImageFormat::Svg));
        assert_eq!(ImageFormat::Svg.natural_size(svg), Some((40.0, 20.0)));
        let vb = svg_size("<svg xmlns=\"x\" viewBox=\"0 0 300 100\">").unwrap();
        assert_eq!(vb, (300.0, 100.0));

        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&20_000u32.to_be_bytes());
        png.extend_from_slice(&3u32.to_be_bytes());
        assert_eq!(ImageFormat::sniff(&png), Some(ImageFormat::Png));
        assert_eq!(raster_size(&png), Some((20_000, 3)));
        // Bytes filed as PNG without its signature say nothing.
        assert_eq!(raster_size(&png[1..]), None);

        // SOI, an APP0 segment of 4 bytes, then SOF0 with height 7, width 9.
        let jpeg = [
            0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 7, 0, 9, 3, 0, 0,
        ];
        assert_eq!(ImageFormat::sniff(&jpeg), Some(ImageFormat::Jpeg));
        assert_eq!(raster_size(&jpeg), Some((9, 7)));
        assert_eq!(ImageFormat::sniff(b"hello"), None);
    }
}
