//! Decompression with a ceiling. Both formats compress with deflate (draw.io raw
//! deflate, Excalidraw and PNG text chunks zlib); a few bytes can inflate to
//! gigabytes, so output past the model's file limit is refused, not allocated.

use std::io::Read;

use flate2::read::{DeflateDecoder, ZlibDecoder};
use inkboard_core::limits::MAX_FILE_BYTES;

/// Which deflate framing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// Raw deflate, as draw.io's `pako.deflateRaw`.
    Raw,
    /// zlib (RFC 1950), as Excalidraw's `pako.deflate` and PNG's zTXt/iTXt.
    Zlib,
}

/// Why inflating failed.
#[derive(Debug)]
pub(crate) enum InflateError {
    /// Not valid compressed data.
    Damaged(String),
    /// The output would be more than the file limit.
    TooLarge,
}

/// Inflates `data`, refusing output over [`MAX_FILE_BYTES`].
pub(crate) fn inflate(data: &[u8], framing: Framing) -> Result<Vec<u8>, InflateError> {
    let mut out = Vec::new();
    let limit = MAX_FILE_BYTES + 1;
    let result = match framing {
        Framing::Raw => DeflateDecoder::new(data).take(limit).read_to_end(&mut out),
        Framing::Zlib => ZlibDecoder::new(data).take(limit).read_to_end(&mut out),
    };
    match result {
        Err(e) => Err(InflateError::Damaged(e.to_string())),
        Ok(_) if out.len() as u64 > MAX_FILE_BYTES => Err(InflateError::TooLarge),
        Ok(_) => Ok(out),
    }
}

/// Inflates with the framing expected, then the other one: writers differ, and
/// a zlib header is never valid raw deflate for long.
pub(crate) fn inflate_any(data: &[u8], first: Framing) -> Result<Vec<u8>, InflateError> {
    let other = match first {
        Framing::Raw => Framing::Zlib,
        Framing::Zlib => Framing::Raw,
    };
    match inflate(data, first) {
        Ok(out) => Ok(out),
        Err(InflateError::TooLarge) => Err(InflateError::TooLarge),
        Err(first_error) => inflate(data, other).map_err(|e| match e {
            InflateError::TooLarge => InflateError::TooLarge,
            InflateError::Damaged(_) => first_error,
        }),
    }
}

impl InflateError {
    /// The import error for inflating `what`.
    pub(crate) fn into_import(self, what: &str) -> crate::ImportError {
        match self {
            InflateError::Damaged(detail) => crate::ImportError::BadEncoding {
                what: what.to_string(),
                detail: format!("its compressed data does not inflate ({detail})"),
            },
            InflateError::TooLarge => {
                crate::ImportError::Limit(inkboard_core::ModelError::TooLarge {
                    limit: inkboard_core::limits::Limit::FileBytes,
                    what: format!("{what}, decompressed,"),
                    got: MAX_FILE_BYTES + 1,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::{DeflateEncoder, ZlibEncoder};
    use flate2::Compression;
    use std::io::Write;

    #[test]
    fn both_framings_inflate_and_garbage_is_refused() {
        let mut raw = DeflateEncoder::new(Vec::new(), Compression::default());
        raw.write_all(b"hello").unwrap();
        let raw = raw.finish().unwrap();
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(b"hello").unwrap();
        let z = z.finish().unwrap();
        assert_eq!(inflate(&raw, Framing::Raw).unwrap(), b"hello");
        assert_eq!(inflate_any(&z, Framing::Raw).unwrap(), b"hello");
        assert!(matches!(
            inflate(b"\xff\xff\xff", Framing::Zlib),
            Err(InflateError::Damaged(_))
        ));
    }
}
