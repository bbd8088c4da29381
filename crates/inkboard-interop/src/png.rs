//! The text chunks of a PNG (`tEXt`, `zTXt`, `iTXt`), where draw.io (keyword
//! `mxfile`, or `mxGraphModel` in old files) and Excalidraw (keyword
//! `application/vnd.excalidraw+json`) keep the diagram a picture was made from.
//! Only the chunk framing is read: the picture itself is never decoded, so a
//! chunk after the image data (where Excalidraw puts its own) is found too.

use inkboard_core::limits::MAX_FILE_BYTES;

use crate::inflate::{inflate_any, Framing, InflateError};

const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

pub(crate) fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(SIGNATURE)
}

/// A text chunk: its keyword and its text, decompressed (Latin-1 for `tEXt` and
/// `zTXt` as the PNG specification says, UTF-8 for `iTXt`).
#[derive(Debug)]
pub(crate) struct TextChunk {
    pub keyword: String,
    pub text: Result<String, InflateError>,
}

/// The keywords of the text chunks, without decompressing anything.
pub(crate) fn keywords(bytes: &[u8]) -> Vec<String> {
    chunks(bytes)
        .filter(|(kind, _)| matches!(*kind, b"tEXt" | b"zTXt" | b"iTXt"))
        .map(|(_, data)| latin1(&data[..data.iter().position(|&b| b == 0).unwrap_or(data.len())]))
        .collect()
}

/// The first text chunk whose keyword is `keyword`.
pub(crate) fn text_chunk(bytes: &[u8], keyword: &str) -> Option<TextChunk> {
    chunks(bytes).find_map(|(kind, data)| {
        let zero = data.iter().position(|&b| b == 0)?;
        if latin1(&data[..zero]) != keyword {
            return None;
        }
        let rest = &data[zero + 1..];
        let text = match kind {
            b"tEXt" => Ok(latin1(rest)),
            // Compression method (0: zlib), then the compressed text.
            b"zTXt" => {
                inflate_any(rest.get(1..)?, Framing::Zlib, MAX_FILE_BYTES).map(|b| latin1(&b))
            }
            b"iTXt" => itxt(rest),
            _ => return None,
        };
        Some(TextChunk {
            keyword: keyword.to_string(),
            text,
        })
    })
}

/// An iTXt body after its keyword: compression flag, method, language tag,
/// translated keyword, then the text.
fn itxt(rest: &[u8]) -> Result<String, InflateError> {
    let damaged = || InflateError::Damaged("the iTXt chunk is cut short".to_string());
    let (&flag, rest) = rest.split_first().ok_or_else(damaged)?;
    let rest = rest.get(1..).ok_or_else(damaged)?;
    let lang_end = rest.iter().position(|&b| b == 0).ok_or_else(damaged)?;
    let rest = &rest[lang_end + 1..];
    let tr_end = rest.iter().position(|&b| b == 0).ok_or_else(damaged)?;
    let text = &rest[tr_end + 1..];
    let bytes = if flag == 1 {
        inflate_any(text, Framing::Zlib, MAX_FILE_BYTES)?
    } else {
        text.to_vec()
    };
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// The chunks of a PNG as (type, data), stopping at `IEND` or at the first chunk
/// cut short. CRCs are not checked: a picture's checksum says nothing about the
/// diagram text, which is checked when it is parsed.
fn chunks(bytes: &[u8]) -> impl Iterator<Item = (&[u8; 4], &[u8])> {
    let mut at = if is_png(bytes) {
        SIGNATURE.len()
    } else {
        bytes.len()
    };
    std::iter::from_fn(move || {
        let len = u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
        let kind: &[u8; 4] = bytes.get(at + 4..at + 8)?.try_into().ok()?;
        let data = bytes.get(at + 8..(at + 8).checked_add(len)?)?;
        at = at + 12 + len;
        (kind != b"IEND").then_some((kind, data))
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A PNG of only a header and the given chunks (no picture): enough for the
    /// chunk reader, which never decodes pixels.
    pub(crate) fn png_with(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
        let mut out = SIGNATURE.to_vec();
        for (kind, data) in chunks {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            out.extend_from_slice(*kind);
            out.extend_from_slice(data);
            out.extend_from_slice(&[0, 0, 0, 0]);
        }
        out.extend_from_slice(&[0, 0, 0, 0]);
        out.extend_from_slice(b"IEND");
        out.extend_from_slice(&[0, 0, 0, 0]);
        out
    }

    #[test]
    fn text_chunks_are_found_by_keyword() {
        let png = png_with(&[(b"tEXt", b"mxfile\0%3Cmxfile%3E".to_vec())]);
        assert_eq!(keywords(&png), vec!["mxfile".to_string()]);
        let chunk = text_chunk(&png, "mxfile").unwrap();
        assert_eq!(chunk.text.unwrap(), "%3Cmxfile%3E");
        assert!(text_chunk(&png, "other").is_none());
        // A length past the end stops the walk instead of panicking.
        let mut cut = png.clone();
        cut.truncate(20);
        assert!(keywords(&cut).is_empty());
    }
}
