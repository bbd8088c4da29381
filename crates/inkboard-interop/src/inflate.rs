//! Decompression with a ceiling. Both formats compress with deflate (draw.io raw
//! deflate, Excalidraw and PNG text chunks zlib); a few bytes can inflate to
//! gigabytes, so output past a limit is refused, not allocated: the model's file
//! limit for one stream, and for all of a file's draw.io pages together (each
//! page may be compressed on its own: a thousand of 256 KiB each would otherwise
//! inflate to a quarter of a terabyte).

use std::io::Read;

use flate2::read::{DeflateDecoder, ZlibDecoder};
use inkboard_core::limits::MAX_FILE_BYTES;

/// What the compressed parts of one file may inflate to together:
/// [`MAX_FILE_BYTES`], as much as the file itself may hold uncompressed.
#[derive(Debug)]
pub(crate) struct Budget {
    left: u64,
    spent: bool,
}

impl Budget {
    pub(crate) fn new() -> Budget {
        Budget {
            left: MAX_FILE_BYTES,
            spent: false,
        }
    }

    /// A budget of `limit` bytes, for tests that cannot inflate 256 MiB.
    #[cfg(test)]
    pub(crate) fn with_limit(limit: u64) -> Budget {
        Budget {
            left: limit,
            spent: false,
        }
    }

    /// What is left to inflate.
    pub(crate) fn left(&self) -> u64 {
        self.left
    }

    /// True once something was inflated, so that a refusal can say the parts
    /// before counted too.
    pub(crate) fn spent(&self) -> bool {
        self.spent
    }

    /// Counts `bytes` of output.
    pub(crate) fn spend(&mut self, bytes: usize) {
        self.left = self.left.saturating_sub(bytes as u64);
        self.spent |= bytes > 0;
    }
}

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

/// Inflates `data`, refusing output over `limit` bytes (at most
/// [`MAX_FILE_BYTES`]).
pub(crate) fn inflate(data: &[u8], framing: Framing, limit: u64) -> Result<Vec<u8>, InflateError> {
    let mut out = Vec::new();
    let limit = limit.min(MAX_FILE_BYTES);
    let result = match framing {
        Framing::Raw => DeflateDecoder::new(data)
            .take(limit + 1)
            .read_to_end(&mut out),
        Framing::Zlib => ZlibDecoder::new(data).take(limit + 1).read_to_end(&mut out),
    };
    match result {
        Err(e) => Err(InflateError::Damaged(e.to_string())),
        Ok(_) if out.len() as u64 > limit => Err(InflateError::TooLarge),
        Ok(_) => Ok(out),
    }
}

/// Inflates with the framing expected, then the other one: writers differ, and
/// a zlib header is never valid raw deflate for long. Output over `limit` bytes
/// is refused.
pub(crate) fn inflate_any(
    data: &[u8],
    first: Framing,
    limit: u64,
) -> Result<Vec<u8>, InflateError> {
    let other = match first {
        Framing::Raw => Framing::Zlib,
        Framing::Zlib => Framing::Raw,
    };
    match inflate(data, first, limit) {
        Ok(out) => Ok(out),
        Err(InflateError::TooLarge) => Err(InflateError::TooLarge),
        Err(first_error) => inflate(data, other, limit).map_err(|e| match e {
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
        assert_eq!(inflate(&raw, Framing::Raw, 5).unwrap(), b"hello");
        assert_eq!(inflate_any(&z, Framing::Raw, 5).unwrap(), b"hello");
        assert!(matches!(
            inflate_any(&z, Framing::Raw, 4),
            Err(InflateError::TooLarge)
        ));
        assert!(matches!(
            inflate(b"\xff\xff\xff", Framing::Zlib, MAX_FILE_BYTES),
            Err(InflateError::Damaged(_))
        ));
    }
}
