//! The SVG backend: writes a scene as a self-contained SVG document.
//!
//! One `<g id="OBJECT_ID" data-type="...">` per item, in z-order, so the application
//! can replace objects one at a time. Text is written line by line (`<text>` per line
//! with its own x and baseline, `xml:space="preserve"`), so every viewer shows exactly
//! the lines the renderer wrapped. The document's font is `Inter`; text in another
//! font names its family, and a line that needs fallback faces (symbols, emoji, a
//! system font for CJK...) is drawn as pieces, one `<text>` per face, each at its
//! measured place (`text::Piece`). The
//! bundled faces the picture uses are, by default, embedded as `@font-face` data
//! URLs, each cut down to the characters drawn in it (`text/subset.rs`), so that
//! browsers use the very faces text was measured with; system faces are named
//! only. The PNG and PDF backends parse this same SVG (without the
//! embedded fonts, which usvg ignores in favour of [`fontdb`](crate::fontdb)); the
//! PNG's pieces ([`to_svg_pieces`]) leave out the letters it fills itself
//! (`glyphs.rs`).

use std::fmt::Write;

use base64::Engine;
use inkboard_core::{ObjectId, Rect};

use crate::text::faces;
use crate::text::fonts::font_face_css_used;
use crate::text::subset::UsedChars;
use inkboard_core::rich::Marks;

use crate::scene::{
    Anchor, FaceRun, ImagePart, Item, Part, PathPart, PlacedLine, Rgba, Scene, Seg, TextPart,
};
use crate::style::BACKGROUND;
use crate::text::rich::CODE_PAD;
use crate::text::Weight;
use crate::text::FONT_FAMILY;
use crate::theme::Theme;

/// Choices for [`to_svg_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// Embed the bundled faces the picture draws as base64 `@font-face` rules, each
    /// a subset of the characters it draws (a few KB a face). Without them the SVG names its families and relies on the
    /// viewer having them.
    pub embed_fonts: bool,
    /// Paint the view first, as PNG and PDF pages are: white, or the page colour
    /// of the scene's theme.
    pub background: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            embed_fonts: true,
            background: true,
        }
    }
}

/// The scene as a self-contained SVG showing `view` (default: the scene's bounds).
pub fn to_svg(scene: &Scene, view: Option<Rect>) -> String {
    to_svg_with(scene, view, SvgOptions::default())
}

/// The scene as SVG, with a choice of what to embed.
pub fn to_svg_with(scene: &Scene, view: Option<Rect>, options: SvgOptions) -> String {
    to_svg_drawing(scene, view, options, &[])
}

/// The scene as SVG, with the images of the objects `placeholders` drawn as a
/// placeholder (see `budget.rs`): what the rasterizing backends draw.
pub(crate) fn to_svg_drawing(
    scene: &Scene,
    view: Option<Rect>,
    options: SvgOptions,
    placeholders: &[ObjectId],
) -> String {
    document(scene, &scene.items, view, options, placeholders)
}

/// The scene as `pieces` SVG documents without fonts or background, each holding
/// the next run of items in z-order (given beside it): drawn one over the other,
/// in order, they are [`to_svg_drawing`]'s picture, but for the letters of the
/// items whose text the PNG backend draws itself (`glyphs::draws_text`). An item is
/// self-contained (no shared definitions), so the pieces can be parsed apart, on
/// several threads.
pub(crate) fn to_svg_pieces<'a>(
    scene: &'a Scene,
    view: Option<Rect>,
    placeholders: &[ObjectId],
    pieces: usize,
) -> Vec<(&'a [Item], String)> {
    let options = SvgOptions {
        embed_fonts: false,
        background: false,
    };
    let per = scene.items.len().div_ceil(pieces.max(1)).max(1);
    let mut docs: Vec<(&[Item], String)> = scene
        .items
        .chunks(per)
        .map(|items| {
            (
                items,
                document_with(scene, items, view, options, placeholders, true),
            )
        })
        .collect();
    if docs.is_empty() {
        docs.push((&[], document(scene, &[], view, options, placeholders)));
    }
    docs
}

/// An SVG document showing `view` (default: the scene's bounds) with `items`.
fn document(
    scene: &Scene,
    items: &[Item],
    view: Option<Rect>,
    options: SvgOptions,
    placeholders: &[ObjectId],
) -> String {
    document_with(scene, items, view, options, placeholders, false)
}

/// [`document`], leaving out the glyphs of the items whose text the PNG backend
/// draws itself (`glyphs::draws_text`) when `own_text` is set.
fn document_with(
    scene: &Scene,
    items: &[Item],
    view: Option<Rect>,
    options: SvgOptions,
    placeholders: &[ObjectId],
    own_text: bool,
) -> String {
    let v = view.unwrap_or(scene.bounds);
    let mut out = String::with_capacity(256 + items.len() * 256);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="{} {} {} {}" font-family="{FONT_FAMILY}">"#,
        num(v.w),
        num(v.h),
        num(v.x),
        num(v.y),
        num(v.w),
        num(v.h),
    );
    out.push('\n');
    if options.embed_fonts {
        let css = font_face_css_used(&used_chars(items));
        if !css.is_empty() {
            out.push_str("<style>");
            out.push_str(&css);
            out.push_str("</style>\n");
        }
    }
    if options.background && scene.background {
        let _ = writeln!(
            out,
            r#"<rect data-type="background" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
            num(v.x),
            num(v.y),
            num(v.w),
            num(v.h),
            hex(scene.theme.paint(BACKGROUND))
        );
    }
    for item in items {
        let glyphs = !(own_text && crate::backend::glyphs::draws_text(item));
        let how = How {
            placeholder: placeholders.contains(&item.id),
            glyphs,
            shadow: !(own_text && crate::backend::shadows::drawn_apart(item)),
            theme: scene.theme,
            links: true,
        };
        write_item(&mut out, item, how);
    }
    out.push_str("</svg>\n");
    out
}

/// The characters `items` draw in each bundled face: the `<text>` elements
/// [`text`] writes, each in the face its family and weight name.
fn used_chars(items: &[Item]) -> UsedChars {
    let mut used = UsedChars::default();
    for item in items {
        for part in &item.parts {
            let Part::Text(t) = part else { continue };
            let plain = faces::primary(t.face);
            for line in &t.lines {
                if line.pieces.is_empty() {
                    used.add(plain, &line.text);
                }
                for p in &line.pieces {
                    used.add(p.face, &line.text[p.start..p.end]);
                }
            }
        }
    }
    used
}

/// One object of a scene as its own `<g id="ID">` element, in board coordinates:
/// what the application puts on screen and replaces when the object changes. The
/// whole-page SVG is these fragments in z-order. They are in the board's own
/// colours: the editor shows its dark view by filtering them (see [`Theme`]).
pub fn item_svg(item: &Item) -> String {
    let mut out = String::with_capacity(256);
    let how = How {
        placeholder: false,
        glyphs: true,
        shadow: true,
        theme: Theme::Light,
        // On screen a click selects: the editor follows a link on Ctrl+click.
        links: false,
    };
    write_item(&mut out, item, how);
    out
}

/// How an item is written: with its image as a placeholder (see `budget.rs`);
/// with its letters, or only its text's decorations (code backgrounds, lines
/// through and under) when the PNG backend draws the letters (`glyphs.rs`); in
/// `theme`'s colours; its parts inside an `<a>` to its link when `links`; with
/// its shadow, unless the PNG backend draws it (`shadows.rs`).
#[derive(Clone, Copy)]
struct How {
    placeholder: bool,
    glyphs: bool,
    shadow: bool,
    theme: Theme,
    links: bool,
}

fn write_item(out: &mut String, item: &Item, how: How) {
    let How {
        placeholder,
        glyphs,
        shadow,
        theme,
        links,
    } = how;
    let parts = match shadow {
        true => &item.parts[..],
        false => &item.parts[item.shadow.min(item.parts.len())..],
    };
    let _ = write!(out, r#"<g id="{}" data-type="{}""#, item.id, item.kind);
    if let Some(geom) = item.geom {
        let _ = write!(out, r#" data-geom="{geom}""#);
    }
    if item.opacity < 1.0 {
        let _ = write!(out, r#" opacity="{}""#, num(item.opacity as f64));
    }
    if parts.is_empty() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    let link = item.link.as_deref().filter(|_| links);
    if let Some(url) = link {
        // A new tab that cannot reach back into this document.
        out.push_str(r#"<a href=""#);
        escape(out, url);
        out.push_str("\" target=\"_blank\" rel=\"noopener noreferrer\">\n");
    }
    if let Some(t) = item.turn {
        // About the box's centre, so the parts keep the object's own coordinates.
        // On an inner group: the outer one's transform is free for the editor,
        // which moves an object being dragged by translating it.
        let _ = writeln!(
            out,
            r#"<g transform="rotate({} {} {})">"#,
            num(t.rotation.deg()),
            num(t.about.x),
            num(t.about.y)
        );
    }
    for part in parts {
        match part {
            Part::Path(p) => path(out, p, theme),
            Part::Text(t) => text(out, t, theme, glyphs),
            Part::Image(i) if placeholder => image_placeholder(out, i, theme),
            Part::Image(i) => image(out, i),
        }
    }
    if item.turn.is_some() {
        out.push_str("</g>\n");
    }
    if link.is_some() {
        out.push_str("</a>\n");
    }
    out.push_str("</g>\n");
}

fn path(out: &mut String, p: &PathPart, theme: Theme) {
    out.push_str(r#"<path d=""#);
    for (i, seg) in p.segs.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = match *seg {
            Seg::Move(a) => write!(out, "M{} {}", num(a.x), num(a.y)),
            Seg::Line(a) => write!(out, "L{} {}", num(a.x), num(a.y)),
            Seg::Cubic(a, b, c) => write!(
                out,
                "C{} {} {} {} {} {}",
                num(a.x),
                num(a.y),
                num(b.x),
                num(b.y),
                num(c.x),
                num(c.y)
            ),
            Seg::Close => write!(out, "Z"),
        };
    }
    out.push('"');
    paint(out, "fill", p.fill, theme);
    if let Some(s) = &p.stroke {
        paint(out, "stroke", Some(s.color), theme);
        let _ = write!(
            out,
            r#" stroke-width="{}" stroke-linejoin="round""#,
            num(s.width as f64)
        );
        if s.round_cap {
            out.push_str(r#" stroke-linecap="round""#);
        }
        if !s.dash.is_empty() {
            let dash: Vec<String> = s.dash.iter().map(|d| num(*d as f64).to_string()).collect();
            let _ = write!(out, r#" stroke-dasharray="{}""#, dash.join(" "));
        }
    }
    out.push_str("/>\n");
}

fn text(out: &mut String, t: &TextPart, theme: Theme, glyphs: bool) {
    let anchor = match t.anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    let family = faces::family(t.face.font);
    let plain = Look {
        weight: t.face.weight.css_weight(),
        italic: false,
        color: t.color,
        theme,
    };
    for line in &t.lines {
        if line.text.is_empty() {
            continue;
        }
        if line.pieces.is_empty() {
            if !glyphs {
                continue;
            }
            text_element(
                out,
                t,
                (line.x, line.baseline),
                family,
                anchor,
                &line.text,
                plain,
            );
            continue;
        }
        // A line in several faces or of rich text: each piece a `<text>` of its own,
        // at its measured place from the line's left edge (see `text::Piece`).
        let left = line.left(t.anchor);
        for p in &line.pieces {
            let piece = &line.text[p.start..p.end];
            if piece.trim().is_empty() && !p.marks.has(Marks::CODE) {
                continue;
            }
            let x = left + p.dx;
            let href = t.href(p);
            if let Some(href) = href {
                out.push_str(r#"<a href=""#);
                escape(out, href);
                out.push_str(r#"" target="_blank" rel="noopener noreferrer">"#);
            }
            let look = Look {
                weight: if p.marks.has(Marks::BOLD) {
                    Weight::SemiBold.css_weight()
                } else {
                    plain.weight
                },
                italic: p.marks.has(Marks::ITALIC),
                color: if href.is_some() {
                    link_color(t.color)
                } else {
                    t.color
                },
                theme,
            };
            decorations(out, t, line, p, look, href.is_some());
            if glyphs && !piece.trim().is_empty() {
                text_element(
                    out,
                    t,
                    (x, line.baseline),
                    p.face.family(),
                    "start",
                    piece,
                    look,
                );
            }
            if href.is_some() {
                out.push_str("</a>");
            }
        }
    }
}

/// How a piece of text is drawn: its weight, slant and colour, and the theme
/// that colour is painted in.
#[derive(Clone, Copy)]
struct Look {
    weight: u16,
    italic: bool,
    color: Rgba,
    theme: Theme,
}

/// The slant of italic text, as `tan` of its angle (about 12°, as oblique faces).
pub(crate) const SLANT: f32 = 0.21;

/// Links are blue: dark on light text's fills, light on dark ones.
pub(crate) fn link_color(text: Rgba) -> Rgba {
    if text.luminance() > 0.5 {
        Rgba::rgb(0x93, 0xc5, 0xfd)
    } else {
        Rgba::rgb(0x1d, 0x4e, 0xd8)
    }
}

/// What rich text draws around a piece: the background of inline code, the line
/// through struck text and under a link.
fn decorations(
    out: &mut String,
    t: &TextPart,
    line: &PlacedLine,
    p: &FaceRun,
    look: Look,
    link: bool,
) {
    let color = look.color;
    let fs = t.font_size;
    let (x, top, w, h) = t.piece_box(line, p);
    let rect = |out: &mut String, (x, y, w, h): (f32, f32, f32, f32), r: f32, fill: Rgba| {
        let _ = write!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}""#,
            num(x as f64),
            num(y as f64),
            num(w as f64),
            num(h as f64),
        );
        if r > 0.0 {
            let _ = write!(out, r#" rx="{}""#, num(r as f64));
        }
        paint(out, "fill", Some(fill), look.theme);
        out.push_str("/>");
    };
    if p.marks.has(Marks::CODE) {
        let pad = CODE_PAD * fs;
        let bg = (x - pad, top, w + 2.0 * pad, h);
        rect(out, bg, 0.2 * fs, t.color.with_alpha(28));
    }
    let thick = (fs / 14.0).max(1.0);
    if p.marks.has(Marks::STRIKE) {
        rect(out, (x, line.baseline - 0.32 * fs, w, thick), 0.0, color);
    }
    if link {
        rect(out, (x, line.baseline + 0.12 * fs, w, thick), 0.0, color);
    }
}

fn text_element(
    out: &mut String,
    t: &TextPart,
    (x, baseline): (f32, f32),
    family: &str,
    anchor: &str,
    text: &str,
    look: Look,
) {
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" font-size="{}" font-weight="{}""#,
        num(x as f64),
        num(baseline as f64),
        num(t.font_size as f64),
        look.weight,
    );
    if look.italic {
        // Slanted about the baseline, so the piece keeps its place and advance.
        let _ = write!(
            out,
            r#" transform="matrix(1 0 {} 1 {} 0)""#,
            -SLANT,
            num((SLANT * baseline) as f64)
        );
    }
    if family != FONT_FAMILY {
        let _ = write!(out, r#" font-family="'{family}'""#);
    }
    if anchor != "start" {
        let _ = write!(out, r#" text-anchor="{anchor}""#);
    }
    if let Some(end) = t.end {
        // Which end label it is, for the editor (which edits each on its own).
        let _ = write!(out, r#" data-end="{}""#, end.name());
    }
    paint(out, "fill", Some(look.color), look.theme);
    out.push_str(r#" xml:space="preserve">"#);
    escape(out, text);
    out.push_str("</text>\n");
}

fn image(out: &mut String, i: &ImagePart) {
    if !i.flip.is_none() {
        // Mirrored about the box's centre: scale by -1 on a flipped axis and
        // move back by twice the centre.
        let c = i.rect.center();
        let (sx, tx) = if i.flip.x {
            (-1.0, 2.0 * c.x)
        } else {
            (1.0, 0.0)
        };
        let (sy, ty) = if i.flip.y {
            (-1.0, 2.0 * c.y)
        } else {
            (1.0, 0.0)
        };
        let _ = write!(
            out,
            r#"<g transform="matrix({} 0 0 {} {} {})">"#,
            num(sx),
            num(sy),
            num(tx),
            num(ty)
        );
    }
    let _ = write!(
        out,
        r#"<image x="{}" y="{}" width="{}" height="{}" preserveAspectRatio="xMidYMid meet" href="data:{};base64,"#,
        num(i.rect.x),
        num(i.rect.y),
        num(i.rect.w),
        num(i.rect.h),
        i.format.mime(),
    );
    base64::engine::general_purpose::STANDARD.encode_string(&i.data, out);
    out.push_str("\"/>\n");
    if !i.flip.is_none() {
        out.push_str("</g>\n");
    }
}

/// A grey box with a cross where an image too costly to draw would be. Unlike
/// an image, it is painted in the theme: it is the renderer's, not the board's.
fn image_placeholder(out: &mut String, i: &ImagePart, theme: Theme) {
    let r = i.rect;
    let (fill, line) = (
        hex(theme.paint(Rgba::rgb(0xec, 0xef, 0xf1))),
        hex(theme.paint(Rgba::rgb(0x90, 0xa4, 0xae))),
    );
    let _ = writeln!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{line}"/><path d="M{} {}L{} {}M{} {}L{} {}" stroke="{line}"/>"##,
        num(r.x),
        num(r.y),
        num(r.w),
        num(r.h),
        num(r.x),
        num(r.y),
        num(r.right()),
        num(r.bottom()),
        num(r.right()),
        num(r.y),
        num(r.x),
        num(r.bottom()),
    );
}

/// ` fill="#rrggbb"` (plus `fill-opacity` for translucent colours) or `fill="none"`,
/// the colour painted in `theme`.
fn paint(out: &mut String, what: &str, color: Option<Rgba>, theme: Theme) {
    match color.map(|c| theme.paint(c)) {
        None => {
            let _ = write!(out, r#" {what}="none""#);
        }
        Some(c) => {
            let _ = write!(out, r#" {what}="{}""#, hex(c));
            if c.0[3] < 255 {
                let _ = write!(out, r#" {what}-opacity="{}""#, num(c.0[3] as f64 / 255.0));
            }
        }
    }
}

/// `c` with its alpha as the SVG writes it (an opacity in hundredths), for a
/// backend that draws a part itself to match what usvg makes of the SVG.
pub(crate) fn as_written(c: Rgba) -> Rgba {
    if c.0[3] == u8::MAX {
        return c;
    }
    let hundredths = num(c.0[3] as f64 / 255.0).0;
    c.with_alpha(
        (hundredths as f64 / 100.0 * 255.0)
            .round()
            .clamp(0.0, 255.0) as u8,
    )
}

fn hex(c: Rgba) -> String {
    let [r, g, b, _] = c.0;
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A number with at most two decimals and no trailing zeros, so the SVG is compact
/// and its snapshots stable. Written by hand: it runs for every coordinate.
fn num(v: f64) -> Num {
    let v = if v.is_finite() { v } else { 0.0 };
    let hundredths = (v * 100.0).round() as i64;
    Num(hundredths)
}

/// A number in hundredths, displayed as by [`num`].
struct Num(i64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0;
        if n < 0 {
            f.write_str("-")?;
        }
        let a = n.unsigned_abs();
        let (int, frac) = (a / 100, a % 100);
        write!(f, "{int}")?;
        match frac {
            0 => Ok(()),
            f2 if f2 % 10 == 0 => write!(f, ".{}", f2 / 10),
            f2 => write!(f, ".{f2:02}"),
        }
    }
}

/// Escapes text for XML, dropping the control characters XML cannot hold.
fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}
