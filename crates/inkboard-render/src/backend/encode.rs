//! PNG encoding, done mostly on the drawing threads.
//!
//! The png crate filters every row and deflates them on one thread, after all
//! the bands are drawn: a fifth of the 199-object flow's PNG, while the other
//! core idled (callgrind). So each band, right after it is drawn and on its own
//! thread, turns its premultiplied RGBA rows into PNG's filtered rows
//! ([`filter_band`]): Paeth, as before (a third of the adaptive filter's time
//! for 5% more bytes), except each band's first row, which takes Sub, as it
//! cannot look at the row above before the band above is drawn. PNG chooses the
//! filter per row, so any decoder reads it. What stays on one thread is
//! fdeflate's fast deflate, the one the png crate uses, and writing the chunks
//! ([`write`]).
//!
//! An opaque picture's rows are filtered in place (an RGB row and its filter
//! byte are shorter than the RGBA row they come from, so row `i` is written
//! before row `i + 1` begins): a second buffer of 6 MB at 1600 px cost more in
//! fresh pages than the work (measured on the squeeze this replaces).

use crate::RenderError;

/// PNG's filter types, by the byte that starts a filtered row.
const SUB: u8 = 1;
const PAETH: u8 = 4;

/// The bytes a pixel takes in the PNG: RGB when opaque, RGBA otherwise.
pub(crate) fn bytes_per_pixel(opaque: bool) -> usize {
    if opaque {
        3
    } else {
        4
    }
}

/// Turns `band`'s premultiplied RGBA rows, `width` pixels each, into filtered
/// PNG rows: RGB in place at the band's start when `opaque` (the band is on an
/// opaque background, so its pixels are plain colours), else plain RGBA into a
/// new buffer. Returns the filtered rows when they are not in place, and how
/// many bytes they take.
pub(crate) fn filter_band(band: &mut [u8], width: usize, opaque: bool) -> (Option<Vec<u8>>, usize) {
    let bpp = bytes_per_pixel(opaque);
    let (rgba_row, png_row) = (width * 4, 1 + width * bpp);
    let rows = band.len() / rgba_row.max(1);
    let (mut prev, mut cur) = (vec![0u8; width * bpp], vec![0u8; width * bpp]);
    let mut apart = (!opaque).then(|| vec![0u8; rows * png_row]);
    for i in 0..rows {
        let src = &band[i * rgba_row..(i + 1) * rgba_row];
        if opaque {
            squeeze(src, &mut cur);
        } else {
            for (px, out) in src.chunks_exact(4).zip(cur.chunks_exact_mut(4)) {
                unpremultiply(px, out);
            }
        }
        // Row i's filtered bytes end where row i + 1's RGBA begins at the
        // latest, and row i is in `cur` already.
        let out = match apart.as_mut() {
            Some(buf) => &mut buf[i * png_row..(i + 1) * png_row],
            None => &mut band[i * png_row..(i + 1) * png_row],
        };
        if i == 0 {
            out[0] = SUB;
            sub(&cur, bpp, &mut out[1..]);
        } else {
            out[0] = PAETH;
            paeth(&cur, &prev, bpp, &mut out[1..]);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    (apart, rows * png_row)
}

/// One premultiplied RGBA pixel as plain RGBA.
fn unpremultiply(px: &[u8], out: &mut [u8]) {
    let a = u32::from(px[3]);
    out[3] = px[3];
    for c in 0..3 {
        out[c] = match a {
            0 => 0,
            255 => px[c],
            _ => ((u32::from(px[c]) * 255 + a / 2) / a).min(255) as u8,
        };
    }
}

/// RGBA pixels as RGB, four at a time, read whole before they are written: the
/// compiler turns that into a shuffle, where a copy of three bytes a pixel
/// cost about a tenth of the PNG's time (callgrind, 199-object flow).
fn squeeze(rgba: &[u8], rgb: &mut [u8]) {
    let mut quads = rgba.chunks_exact(16);
    let mut out = rgb.chunks_exact_mut(12);
    for (q, o) in quads.by_ref().zip(out.by_ref()) {
        let px: [u8; 16] = q.try_into().expect("chunks of 16");
        o.copy_from_slice(&[
            px[0], px[1], px[2], px[4], px[5], px[6], px[8], px[9], px[10], px[12], px[13], px[14],
        ]);
    }
    for (px, o) in quads
        .remainder()
        .chunks_exact(4)
        .zip(out.into_remainder().chunks_exact_mut(3))
    {
        o.copy_from_slice(&px[..3]);
    }
}

/// PNG's Sub filter: each byte less the one a pixel (`bpp` bytes) to its left.
fn sub(row: &[u8], bpp: usize, out: &mut [u8]) {
    out[..bpp].copy_from_slice(&row[..bpp]);
    let n = row.len();
    for ((o, &x), &left) in out[bpp..].iter_mut().zip(&row[bpp..]).zip(&row[..n - bpp]) {
        *o = x.wrapping_sub(left);
    }
}

/// PNG's Paeth filter: each byte less the one of its left, upper and upper-left
/// neighbours nearest to left + upper − upper-left. Written without a carried
/// value from byte to byte, so the compiler can take many bytes at once.
fn paeth(row: &[u8], above: &[u8], bpp: usize, out: &mut [u8]) {
    // The first pixel has no left neighbours: the prediction is the upper one.
    for ((o, &x), &up) in out[..bpp].iter_mut().zip(&row[..bpp]).zip(&above[..bpp]) {
        *o = x.wrapping_sub(up);
    }
    let n = row.len();
    let (out, row, left, up, up_left) = (
        &mut out[bpp..],
        &row[bpp..],
        &row[..n - bpp],
        &above[bpp..],
        &above[..n - bpp],
    );
    // In blocks of a fixed size, so that the compiler takes each block's bytes
    // side by side.
    const BLOCK: usize = 32;
    let mut outs = out.chunks_exact_mut(BLOCK);
    let mut xs = row.chunks_exact(BLOCK);
    let mut lefts = left.chunks_exact(BLOCK);
    let mut ups = up.chunks_exact(BLOCK);
    let mut up_lefts = up_left.chunks_exact(BLOCK);
    for ((((o, x), a), b), c) in (&mut outs)
        .zip(&mut xs)
        .zip(&mut lefts)
        .zip(&mut ups)
        .zip(&mut up_lefts)
    {
        for i in 0..BLOCK {
            o[i] = x[i].wrapping_sub(predict(a[i], b[i], c[i]));
        }
    }
    let rest = outs
        .into_remainder()
        .iter_mut()
        .zip(xs.remainder())
        .zip(lefts.remainder())
        .zip(ups.remainder())
        .zip(up_lefts.remainder());
    for ((((o, &x), &a), &b), &c) in rest {
        *o = x.wrapping_sub(predict(a, b, c));
    }
}

/// Paeth's prediction from the left `a`, upper `b` and upper-left `c` bytes, in
/// bytes only (no widening), which the compiler can take many at a time.
///
/// `p = a + b - c`; its distances to `a` and `b` are `|b - c|` and `|a - c|`;
/// its distance to `c` is their difference when `c` lies between `a` and `b`,
/// and larger than both otherwise, when `c` never wins.
#[inline(always)]
fn predict(a: u8, b: u8, c: u8) -> u8 {
    // As max − min: SSE2 has both for bytes, not a byte compare-and-subtract.
    let pa = b.max(c) - b.min(c);
    let pb = a.max(c) - a.min(c);
    let pc = if (a < c) == (c < b) {
        pa.max(pb) - pa.min(pb)
    } else {
        u8::MAX
    };
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

/// The most bytes an IDAT chunk carries, as common encoders write them.
const IDAT_MAX: usize = 1 << 20;

/// A PNG of `width` × `height` pixels from its filtered rows (RGB when `opaque`,
/// else RGBA, eight bits a channel), deflated by fdeflate.
pub(crate) fn write(
    filtered: &[u8],
    width: u32,
    height: u32,
    opaque: bool,
) -> Result<Vec<u8>, RenderError> {
    let fail = |e: std::io::Error| RenderError::Png(e.to_string());
    let mut deflate =
        fdeflate::Compressor::new(Vec::with_capacity(filtered.len() / 8)).map_err(fail)?;
    deflate.write_data(filtered).map_err(fail)?;
    let zlib = deflate.finish().map_err(fail)?;
    let mut png = Vec::with_capacity(zlib.len() + 64);
    png.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    // Eight bits a channel, RGB (2) or RGBA (6), deflate, filtered rows, not
    // interlaced.
    header.extend_from_slice(&[8, if opaque { 2 } else { 6 }, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &header);
    for part in zlib.chunks(IDAT_MAX) {
        chunk(&mut png, b"IDAT", part);
    }
    chunk(&mut png, b"IEND", &[]);
    Ok(png)
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-only prediction is the PNG specification's.
    #[test]
    fn paeth_predicts_as_the_specification() {
        let spec = |a: u8, b: u8, c: u8| {
            let p = i16::from(a) + i16::from(b) - i16::from(c);
            let (pa, pb, pc) = (
                (p - i16::from(a)).abs(),
                (p - i16::from(b)).abs(),
                (p - i16::from(c)).abs(),
            );
            if pa <= pb && pa <= pc {
                a
            } else if pb <= pc {
                b
            } else {
                c
            }
        };
        for a in (0..=255u8).step_by(3).chain([1, 254]) {
            for b in (0..=255u8).step_by(3).chain([1, 254]) {
                for c in 0..=255u8 {
                    assert_eq!(predict(a, b, c), spec(a, b, c), "{a} {b} {c}");
                }
            }
        }
    }

    /// Pixels with every kind of neighbour, opaque and translucent, filtered in
    /// bands and written, read back by the png crate as they were.
    #[test]
    fn filtered_bands_decode_to_their_pixels() {
        for ((width, height), opaque) in [(13usize, 11usize), (40, 9)]
            .into_iter()
            .flat_map(|size| [(size, true), (size, false)])
        {
            let mut rgba: Vec<u8> = (0..width * height * 4)
                .map(|i| ((i * 37 + i / 7 * 11) % 256) as u8)
                .collect();
            for px in rgba.chunks_exact_mut(4) {
                px[3] = if opaque { 255 } else { px[3] };
                // Premultiplied: no channel above its alpha.
                for c in 0..3 {
                    px[c] = px[c].min(px[3]);
                }
            }
            let want: Vec<u8> = rgba
                .chunks_exact(4)
                .flat_map(|px| {
                    let mut out = [0u8; 4];
                    unpremultiply(px, &mut out);
                    out.into_iter().take(bytes_per_pixel(opaque))
                })
                .collect();
            // Bands of 4, 4 and 3 rows, as the drawing splits a picture.
            let mut filtered = Vec::new();
            let mut pixels = rgba.clone();
            for band in pixels.chunks_mut(4 * width * 4) {
                let (apart, len) = filter_band(band, width, opaque);
                filtered.extend_from_slice(&apart.as_deref().unwrap_or(band)[..len]);
            }
            let png = write(&filtered, width as u32, height as u32, opaque).unwrap();
            let mut reader = png::Decoder::new(std::io::Cursor::new(png))
                .read_info()
                .unwrap();
            let mut got = vec![0; reader.output_buffer_size().unwrap()];
            reader.next_frame(&mut got).unwrap();
            assert_eq!(got, want, "opaque: {opaque}");
        }
    }
}
