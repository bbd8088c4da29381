//! The editor's palette (`web/canvas/palette.js`) is written from the model's
//! [`Palette`], so the swatches show, and the text editor measures contrast on,
//! the very colours the renderer draws. This test writes the file it expects and
//! compares: after a change to the palette, `UPDATE_EXPECT=1 cargo test -p
//! inkboard-app --test palette` rewrites `web/canvas/palette.js`.

use std::fmt::Write;
use std::path::Path;

use inkboard_core::{Palette, Vocabulary};

fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A JS object literal from palette name to `tone`'s hex, in the palette's order.
fn table(tone: fn(Palette) -> [u8; 3]) -> String {
    let mut out = String::from("{\n");
    for &p in Palette::ALL {
        writeln!(out, "  {}: '{}',", p.name(), hex(tone(p))).unwrap();
    }
    out + "}"
}

fn expected() -> String {
    format!(
        "// palette.js: the palette's colours, written from inkboard-core's Palette by\n\
         // crates/inkboard-app/tests/palette.rs (UPDATE_EXPECT=1 rewrites it): do not edit.\n\
         // PALETTE is each name's saturated tone (lines, text, shapes' fills); PASTEL the\n\
         // tone a sticky note's fill draws with that name.\n\
         \n\
         export const PALETTE = {};\n\
         \n\
         export const PASTEL = {};\n",
        table(Palette::rgb),
        table(Palette::pastel),
    )
}

#[test]
fn the_editor_palette_is_the_renderers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/canvas/palette.js");
    let want = expected();
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v != "0") {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        have, want,
        "web/canvas/palette.js differs from inkboard-core's Palette: run UPDATE_EXPECT=1 cargo test -p inkboard-app --test palette"
    );
}

/// The two tables are what the renderer paints: a name as a note's fill in its
/// pastel tone, as any other shape's fill in its saturated one.
#[test]
fn the_renderer_draws_the_tables_tones() {
    use inkboard_core::{Color, Geom, Style};
    use inkboard_render::style::shape_fill;
    for &p in Palette::ALL {
        let style = Style {
            fill: Some(Color::Named(p)),
            ..Style::default()
        };
        let drawn = |g| shape_fill(g, &style).map(|c| c.0);
        let [r, g, b] = p.pastel();
        assert_eq!(drawn(Geom::Note), Some([r, g, b, 255]), "{}", p.name());
        let [r, g, b] = p.rgb();
        for geom in [Geom::Rect, Geom::Ellipse, Geom::Frame] {
            assert_eq!(drawn(geom), Some([r, g, b, 255]), "{}", p.name());
        }
    }
}
