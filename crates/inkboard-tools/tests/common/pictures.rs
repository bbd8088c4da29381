//! Reference pictures: two PNGs compared within a tolerance, for the tests that
//! keep a diagram kind's drawings as goldens (`er_renders`, `sequence_renders`).

/// A channel may differ by this much before a pixel counts as different.
const CHANNEL_TOLERANCE: u8 = 8;
/// At most this share of pixels may differ.
const PIXEL_SHARE: f64 = 0.002;

fn decode(data: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(data));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Compares two PNGs of one colour type; `Err` says how they differ.
pub fn compare(actual: &[u8], expected: &[u8]) -> Result<(), String> {
    let ((aw, ah, a), (ew, eh, e)) = (decode(actual), decode(expected));
    if (aw, ah) != (ew, eh) || a.len() != e.len() {
        return Err(format!("size {aw}×{ah}, expected {ew}×{eh}"));
    }
    let channels = a.len() / (aw as usize * ah as usize).max(1);
    let differing = a
        .chunks_exact(channels.max(1))
        .zip(e.chunks_exact(channels.max(1)))
        .filter(|(p, q)| {
            p.iter()
                .zip(*q)
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count();
    let share = differing as f64 / (aw as f64 * ah as f64);
    match share > PIXEL_SHARE {
        true => Err(format!("{differing} pixels differ ({:.3}%)", share * 100.0)),
        false => Ok(()),
    }
}
