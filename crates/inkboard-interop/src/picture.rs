//! Editable pictures: an SVG or PNG that carries the board it was drawn from,
//! as draw.io and Excalidraw pictures carry theirs, so that importing the
//! picture gives the board back. The SVG holds it in a `<metadata>` element
//! right after its root's opening tag,
//! `<inkboard:board xmlns:inkboard="…" encoding="base64">`; the PNG in a
//! compressed `iTXt` chunk with the keyword `inkboard`, just before `IEND`.
//!
//! This module knows only the envelope: the payload is text it is handed and
//! hands back (the board file's JSON, which the format crate writes and reads).

use base64::Engine as _;
use flate2::write::ZlibEncoder;
use std::io::Write as _;

use crate::inflate::InflateError;
use crate::png;
use crate::ImportError;

/// The namespace of the SVG element that holds the board.
pub const BOARD_NAMESPACE: &str = "https://github.com/inkboard/inkboard/board";
/// The keyword of the PNG text chunk that holds the board.
pub const BOARD_KEYWORD: &str = "inkboard";

const OPEN: &str = "<inkboard:board";
const CLOSE: &str = "</inkboard:board>";

/// `svg` with `board` (the board file's text) in a `<metadata>` element as
/// the root's first child. An SVG without a root element is returned as it was.
pub fn svg_with_board(svg: &str, board: &str) -> String {
    let Some(root) = svg.find("<svg") else {
        return svg.to_string();
    };
    let Some(end) = svg[root..].find('>').map(|i| root + i + 1) else {
        return svg.to_string();
    };
    let data = base64::engine::general_purpose::STANDARD.encode(board);
    let mut out = String::with_capacity(svg.len() + data.len() + 200);
    out.push_str(&svg[..end]);
    out.push_str(&format!(
        "<metadata>{OPEN} xmlns:inkboard=\"{BOARD_NAMESPACE}\" encoding=\"base64\">{data}{CLOSE}</metadata>"
    ));
    out.push_str(&svg[end..]);
    out
}

/// `png` with `board` in a compressed `iTXt` chunk before `IEND`. Bytes that
/// are not a PNG ending in `IEND` are returned as they were.
pub fn png_with_board(png_bytes: &[u8], board: &str) -> Vec<u8> {
    let iend = png_bytes.len().checked_sub(12);
    let Some(at) = iend.filter(|&at| {
        png::is_png(png_bytes) && png_bytes.get(at + 4..at + 8) == Some(b"IEND".as_slice())
    }) else {
        return png_bytes.to_vec();
    };
    let mut z = ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(board.as_bytes()).expect("writing to memory");
    let packed = z.finish().expect("writing to memory");
    // Keyword, NUL, compressed (1), method zlib (0), no language, NUL, no
    // translated keyword, NUL, then the text.
    let mut data = Vec::with_capacity(packed.len() + 16);
    data.extend_from_slice(BOARD_KEYWORD.as_bytes());
    data.extend_from_slice(&[0, 1, 0, 0, 0]);
    data.extend_from_slice(&packed);
    let mut chunk = Vec::with_capacity(data.len() + 12);
    chunk.extend_from_slice(&(data.len() as u32).to_be_bytes());
    chunk.extend_from_slice(b"iTXt");
    chunk.extend_from_slice(&data);
    let mut crc = flate2::Crc::new();
    crc.update(b"iTXt");
    crc.update(&data);
    chunk.extend_from_slice(&crc.sum().to_be_bytes());
    let mut out = Vec::with_capacity(png_bytes.len() + chunk.len());
    out.extend_from_slice(&png_bytes[..at]);
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&png_bytes[at..]);
    out
}

/// The board text an inkboard SVG or PNG carries, `None` when it carries none
/// (any other file included).
///
/// Errors: a payload that does not decode (damaged base64 or compressed data,
/// or one that inflates past the file limit).
pub fn board_in_picture(bytes: &[u8]) -> Result<Option<String>, ImportError> {
    let what = "the board inside the picture";
    if png::is_png(bytes) {
        return match png::text_chunk(bytes, BOARD_KEYWORD) {
            None => Ok(None),
            Some(chunk) => chunk
                .text
                .map(Some)
                .map_err(|e: InflateError| e.into_import(what)),
        };
    }
    let text = String::from_utf8_lossy(bytes);
    let Some(start) = text.find(OPEN) else {
        return Ok(None);
    };
    let damaged = |detail: &str| ImportError::BadEncoding {
        what: what.to_string(),
        detail: detail.to_string(),
    };
    let body = text[start..]
        .find('>')
        .map(|i| start + i + 1)
        .ok_or_else(|| damaged("its element is cut short"))?;
    let end = text[body..]
        .find(CLOSE)
        .map(|i| body + i)
        .ok_or_else(|| damaged("its element is not closed"))?;
    let data = crate::build::base64_lenient(&text[body..end])
        .ok_or_else(|| damaged("it is not base64"))?;
    String::from_utf8(data)
        .map(Some)
        .map_err(|_| damaged("it is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_go_into_pictures_and_come_back() {
        let board = "{\"format\":\"inkboard\",\"text\":\"</inkboard:board> ]]> é\"}";
        let svg = svg_with_board("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g/></svg>", board);
        assert!(svg.starts_with("<?xml version=\"1.0\"?>\n<svg a=\"1\"><metadata>"));
        roxmltree::Document::parse(&svg).expect("still well-formed");
        assert_eq!(board_in_picture(svg.as_bytes()).unwrap().unwrap(), board);
        let png = png::tests::png_with(&[(b"IHDR", vec![0; 13])]);
        let with = png_with_board(&png, board);
        assert_eq!(board_in_picture(&with).unwrap().unwrap(), board);
        assert_eq!(board_in_picture(&png).unwrap(), None);
        assert_eq!(board_in_picture(b"<svg></svg>").unwrap(), None);
        assert!(board_in_picture(b"<svg><inkboard:board>!!</inkboard:board></svg>").is_err());
    }
}
