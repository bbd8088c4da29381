//! The font database every backend uses, loaded once: the bundled faces (the four
//! font choices and the symbol, math and emoji fallbacks; `faces.rs`), then the fonts
//! installed on the system, for the scripts no bundled face has (CJK, Arabic, Hebrew,
//! Devanagari, Thai...).
//!
//! System fonts are read from `/usr/share/fonts` and `/usr/local/share/fonts` only
//! (never a user's own folder), file by file in sorted path order, so that two
//! machines with the same packages draw the same picture. A system face whose family
//! is one of the bundled ones is left out, so `Inter` is always the bundled Inter.
//! The system families are tried for a character in a fixed order
//! ([`system_families`]): the Noto families for the big scripts first, then every
//! other family by name. Which Debian packages give full coverage is said in
//! `docs/fonts.md`.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use base64::Engine;
use usvg::fontdb::{self, Database, Family, Query, Source};

use crate::text::faces::{self, FaceRef, BUNDLED};
use crate::text::subset::{self, UsedChars};
use crate::text::{Weight, FONT_FAMILY};

/// The folders system fonts are read from.
const SYSTEM_DIRS: [&str; 2] = ["/usr/share/fonts", "/usr/local/share/fonts"];

/// System families tried first, in this order, for the scripts they cover; every
/// other family follows (see [`system_families`]). Simplified Chinese forms are
/// preferred for the Han characters Chinese, Japanese and Korean share.
const PREFERRED: [&str; 12] = [
    "Noto Sans",
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Noto Sans CJK KR",
    "Noto Sans CJK TC",
    "Noto Sans Arabic",
    "Noto Sans Hebrew",
    "Noto Sans Devanagari",
    "Noto Sans Thai",
    "Noto Sans Bengali",
    "Noto Sans Tamil",
    "DejaVu Sans",
];

/// The shared database: the bundled fonts, then the system's (see the module docs).
pub fn fontdb() -> Arc<Database> {
    static DB: OnceLock<Arc<Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = Database::new();
        for file in &BUNDLED {
            db.load_font_source(Source::Binary(Arc::new(file.data)));
        }
        let mut files = Vec::new();
        for dir in SYSTEM_DIRS {
            font_files(Path::new(dir), &mut files);
        }
        files.sort();
        for path in files {
            // An unreadable or broken file is skipped: it is not a font we can draw.
            let _ = db.load_font_file(&path);
        }
        let clashing: Vec<fontdb::ID> = db
            .faces()
            .filter(|f| !matches!(f.source, Source::Binary(_)))
            .filter(|f| {
                f.families
                    .iter()
                    .any(|(name, _)| BUNDLED.iter().any(|b| b.family == name))
            })
            .map(|f| f.id)
            .collect();
        for id in clashing {
            db.remove_face(id);
        }
        db.set_sans_serif_family(FONT_FAMILY);
        db.set_serif_family(FONT_FAMILY);
        db.set_monospace_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// The font files under `dir`, recursively.
fn font_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => font_files(&path, out),
            Ok(_) => {
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                if ["ttf", "otf", "ttc", "otc"].contains(&ext.to_ascii_lowercase().as_str()) {
                    out.push(path);
                }
            }
            Err(_) => {}
        }
    }
}

/// The English (or first) family name of a face.
fn family_name(face: &fontdb::FaceInfo) -> Option<&str> {
    face.families
        .iter()
        .find(|(_, l)| *l == fontdb::Language::English_UnitedStates)
        .or(face.families.first())
        .map(|(n, _)| n.as_str())
}

/// The system families, in the order they are tried: [`PREFERRED`], then Noto Sans
/// families, Noto Serif families, and the rest, each group by name. A family whose
/// name a `font-family` attribute could not hold plainly is left out.
pub fn system_families() -> &'static [&'static str] {
    static FAMILIES: OnceLock<Vec<&'static str>> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let db = fontdb();
        let mut names: Vec<String> = db
            .faces()
            .filter(|f| !matches!(f.source, Source::Binary(_)))
            .filter_map(family_name)
            .filter(|n| {
                n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            })
            .map(str::to_owned)
            .collect();
        names.sort();
        names.dedup();
        let rank = |n: &str| match PREFERRED.iter().position(|p| *p == n) {
            Some(i) => (0, i),
            None if n.starts_with("Noto Sans") && !n.contains("Mono") => (1, 0),
            None if n.starts_with("Noto Serif") => (2, 0),
            None => (3, 0),
        };
        names.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
        names
            .into_iter()
            .map(|n| &*Box::leak(n.into_boxed_str()))
            .collect()
    })
}

/// The face usvg draws `family` in at `weight`: fontdb's CSS-like match, which is
/// the query usvg makes for a `font-family` naming it.
fn query(db: &Database, family: &str, weight: Weight) -> Option<fontdb::ID> {
    db.query(&Query {
        families: &[Family::Name(family)],
        weight: fontdb::Weight(weight.css_weight()),
        stretch: fontdb::Stretch::Normal,
        style: fontdb::Style::Normal,
    })
}

/// The first system face, in [`system_families`] order, that has `c`; remembered
/// per character and weight.
pub(crate) fn system_face_for(c: char, weight: Weight) -> Option<FaceRef> {
    type Found = HashMap<(char, Weight), Option<FaceRef>>;
    static FOUND: OnceLock<Mutex<Found>> = OnceLock::new();
    let found = FOUND.get_or_init(Default::default);
    if let Some(hit) = found
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(c, weight))
    {
        return *hit;
    }
    let db = fontdb();
    let face = system_families().iter().find_map(|&family| {
        let id = query(&db, family, weight)?;
        let has = db
            .with_face_data(id, |data, index| {
                rustybuzz::ttf_parser::Face::parse(data, index)
                    .ok()
                    .and_then(|f| f.glyph_index(c))
                    .is_some()
            })
            .unwrap_or(false);
        if !has {
            return None;
        }
        let info = db.face(id)?;
        let path = match &info.source {
            Source::File(p) | Source::SharedFile(p, _) => p.clone(),
            Source::Binary(_) => return None,
        };
        faces::load_system_face(family, &path, info.index)
    });
    found
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert((c, weight), face);
    face
}

/// usvg options that draw text in exactly the faces the SVG names. usvg's own
/// fallback is off: the runs of `faces.rs` already name a face for every character,
/// and a fallback of usvg's choosing would draw what was not measured. An image
/// link that is not a data URL is never followed: usvg would read it from the disk,
/// and an embedded SVG naming a file must not pull the file into a picture. A data
/// URL is read only within the limits of a board's images ([`nested_data`]).
pub(crate) fn usvg_options() -> usvg::Options<'static> {
    usvg::Options {
        fontdb: fontdb(),
        font_family: FONT_FAMILY.to_owned(),
        font_resolver: usvg::FontResolver {
            select_font: usvg::FontResolver::default_font_selector(),
            select_fallback: Box::new(|_, _, _| None),
        },
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_string: Box::new(|_, _| None),
            resolve_data: nested_data(),
        },
        ..Default::default()
    }
}

/// usvg's reader of the `data:` URLs in an SVG (every board image is drawn as one,
/// and an SVG image may hold more), taking only what a board's image may be
/// (`check_image`: bytes, a PNG's or JPEG's pixels, an SVG's XML cost, entities
/// included), and never a gzip-compressed SVG, which usvg would inflate without
/// a bound. A board's own images passed the same check on their way in; the ones
/// nested inside them did not.
fn nested_data() -> usvg::ImageHrefDataResolverFn<'static> {
    let read = usvg::ImageHrefResolver::default_data_resolver();
    Box::new(move |mime, data, options| {
        let svgz = data.starts_with(&[0x1f, 0x8b]);
        if svgz || inkboard_core::limits::check_image("an image", &data).is_err() {
            return None;
        }
        read(mime, data, options)
    })
}

/// One `@font-face` rule embedding a bundled file, or `data` cut from it, as a
/// base64 data URL.
fn font_face_rule(css: &mut String, file: &faces::BundledFile, data: &[u8]) {
    let _ = write!(
        css,
        "@font-face{{font-family:\"{}\";font-style:normal;font-weight:{};src:url(data:font/{};base64,",
        file.family,
        file.weight,
        if file.format == "opentype" { "otf" } else { "ttf" },
    );
    base64::engine::general_purpose::STANDARD.encode_string(data, css);
    let _ = write!(css, ") format(\"{}\")}}", file.format);
}

/// CSS `@font-face` rules embedding every bundled face, so that the editor draws
/// with the very faces text was measured with (system faces are named by family and
/// found by the browser). Built once (about 5 MB).
pub fn font_face_css() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        let mut css = String::new();
        for file in &BUNDLED {
            font_face_rule(&mut css, file, file.data);
        }
        css
    })
}

/// `@font-face` rules for the bundled faces `used` draws, each cut down to the
/// characters drawn in it (`subset.rs`): what an exported SVG embeds. A face that
/// cannot be cut is embedded whole, which draws the same.
pub(crate) fn font_face_css_used(used: &UsedChars) -> String {
    let mut css = String::new();
    for (index, chars) in used.faces() {
        let file = &BUNDLED[index];
        match subset::subset(file.data, chars) {
            Ok(cut) => font_face_rule(&mut css, file, &cut),
            Err(_) => font_face_rule(&mut css, file, file.data),
        }
    }
    css
}

/// A bundled face for a page that loads it with the FontFace API: its CSS family and
/// weight, and the font file (see [`latin_faces`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebFace {
    pub family: &'static str,
    pub weight: u16,
    pub data: Vec<u8>,
}

/// The characters [`latin_faces`] keep: Basic Latin, typographic quotes and
/// dashes, the dagger, the bullet and the ellipsis. Latin-1's accented letters
/// would double a face (Inter's 400 is 20 KB with these, 40 KB with Latin-1) and the
/// arrows pull in Inter's arrow ligatures (6 KB more).
const LATIN: [(char, char); 4] = [
    (' ', '~'),
    ('\u{2013}', '\u{2014}'),
    ('\u{2018}', '\u{201E}'),
    ('\u{2020}', '\u{2026}'),
];

/// The primary faces of `fonts` (both weights each), cut down to the Latin
/// characters most board text is written in ([`LATIN`]): what a page embeds when it
/// must draw text it does not know yet (the chat view). Other characters fall back
/// to the page's next family, letter by letter, so a word with an accented letter
/// mixes faces. A face that cannot be cut is left out.
pub fn latin_faces(fonts: &[inkboard_core::Font]) -> Vec<WebFace> {
    let chars: std::collections::BTreeSet<char> = LATIN.iter().flat_map(|&(a, b)| a..=b).collect();
    let mut out = Vec::new();
    for &font in fonts {
        for weight in [Weight::Regular, Weight::SemiBold] {
            let file = faces::bundled_file(faces::Typeface::new(font, weight));
            // Characters the face lacks are passed over by the subsetter.
            if let Ok(data) = subset::subset(file.data, &chars) {
                out.push(WebFace {
                    family: file.family,
                    weight: file.weight,
                    data,
                });
            }
        }
    }
    out
}
