//! Reference pictures: a page drawn as SVG and PNG and held against the goldens
//! beside its fixture (the PNG within a tolerance), for the tests that keep a
//! diagram kind's drawings (`er_renders`, `sequence_renders`).

use std::path::{Path, PathBuf};

use inkboard_core::Board;
use inkboard_render::{resolve, to_png_scaled, to_svg_with, SvgOptions};

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
fn compare(actual: &[u8], expected: &[u8]) -> Result<(), String> {
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

/// The Mermaid fixtures (`*.mmd`, less the `bad-` ones) in `dir`, in name order;
/// at least `at_least` of them.
pub fn mermaid_fixtures(dir: &Path, at_least: usize) -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("bad-"))
        })
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= at_least,
        "fixtures missing in {}",
        dir.display()
    );
    inputs
}

/// Draws `board`'s first page as SVG and PNG and holds them against
/// `renders/NAME.svg` and `.png` (`UPDATE_EXPECT=1` writes them); what differs
/// goes to `failures`.
pub fn check_drawing(board: &Board, name: &str, renders: &Path, failures: &mut Vec<String>) {
    let scene = resolve(board, board.pages()[0].id);
    let options = SvgOptions {
        embed_fonts: false,
        background: true,
    };
    let svg = to_svg_with(&scene, None, options);
    let png = to_png_scaled(&scene, None, 1.0).expect("png");
    let (svg_path, png_path) = (
        renders.join(format!("{name}.svg")),
        renders.join(format!("{name}.png")),
    );
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(renders).expect("the renders' folder");
        std::fs::write(&svg_path, &svg).expect("write svg");
        std::fs::write(&png_path, &png.data).expect("write png");
        return;
    }
    if std::fs::read_to_string(&svg_path).ok().as_deref() != Some(svg.as_str()) {
        failures.push(format!("{name}: SVG differs from {}", svg_path.display()));
    }
    match std::fs::read(&png_path) {
        Ok(expected) => {
            if let Err(e) = compare(&png.data, &expected) {
                failures.push(format!("{name}: PNG {e}"));
            }
        }
        Err(e) => failures.push(format!("{name}: {}: {e}", png_path.display())),
    }
}
