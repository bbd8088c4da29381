//! The faces text is set in, and the fallback chain behind them.
//!
//! A [`Typeface`] (a [`Font`] choice and a [`Weight`]) names a bundled primary face:
//! Inter for `sans`, and the `Inkboard Serif`, `Inkboard Mono` and `Inkboard Hand`
//! families for the others (see `fonts/README.md`). A character the primary face
//! lacks is looked for, in this fixed order, in the bundled fallbacks (`Inkboard
//! Symbols`, `Inkboard Math`, `Inkboard Symbols 2`, `Inkboard Emoji`), then in the
//! fonts installed on the system (CJK, Arabic, Hebrew, Devanagari, Thai...: see
//! [`crate::text::fonts`] for how they are found and ordered).
//!
//! [`runs`] splits a line into runs, one face each, a grapheme cluster at a time.
//! Those runs are the one decision: measurement shapes each run's text with its face,
//! the SVG draws each run as a `<text>` naming its family, and usvg (PDF, and the
//! PNG's colour glyphs), the PNG's own letters (`glyphs.rs`) and browsers then draw
//! exactly those faces (usvg's own fallback is switched off:
//! `fonts::usvg_options`), so auto-size, the drawing and the overflow check agree.
//! A character that no face has is drawn with the primary face's `.notdef` box and
//! reported by [`missing`] (the `missing_glyph` problem).
//!
//! **Limitations.** A grapheme cluster is drawn in one face: a cluster whose
//! characters no single face has takes the face of its first character. Emoji are
//! monochrome (the bundled Noto Emoji) unless no bundled face has them.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::{Mutex, OnceLock};

use inkboard_core::Font;
use rustybuzz::Face as RbFace;
use unicode_segmentation::UnicodeSegmentation;

use crate::text::Weight;

/// The face a piece of text asks for: a font choice in a weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Typeface {
    pub font: Font,
    pub weight: Weight,
}

impl Typeface {
    pub const fn new(font: Font, weight: Weight) -> Self {
        Typeface { font, weight }
    }
}

/// A bare weight is that weight of the default face, Inter.
impl From<Weight> for Typeface {
    fn from(weight: Weight) -> Self {
        Typeface::new(Font::Sans, weight)
    }
}

/// One bundled font file.
pub(crate) struct BundledFile {
    pub(crate) family: &'static str,
    /// Its OpenType weight class (what fontdb and browsers match on).
    pub(crate) weight: u16,
    pub(crate) data: &'static [u8],
    /// The file format word of a CSS `format()`.
    pub(crate) format: &'static str,
}

macro_rules! bundled {
    ($family:literal, $weight:literal, $file:literal, $format:literal) => {
        BundledFile {
            family: $family,
            weight: $weight,
            data: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/fonts/", $file)),
            format: $format,
        }
    };
}

/// Every bundled file, primary faces first (two weights per font), then the
/// fallbacks in the order they are tried.
pub(crate) static BUNDLED: [BundledFile; 12] = [
    bundled!("Inter", 400, "Inter-Regular.otf", "opentype"),
    bundled!("Inter", 600, "Inter-SemiBold.otf", "opentype"),
    bundled!("Inkboard Serif", 400, "NotoSerif-Regular.ttf", "truetype"),
    bundled!("Inkboard Serif", 700, "NotoSerif-Bold.ttf", "truetype"),
    bundled!("Inkboard Mono", 400, "NotoSansMono-Regular.ttf", "truetype"),
    bundled!("Inkboard Mono", 700, "NotoSansMono-Bold.ttf", "truetype"),
    bundled!("Inkboard Hand", 400, "Caveat-Regular.ttf", "truetype"),
    bundled!("Inkboard Hand", 600, "Caveat-SemiBold.ttf", "truetype"),
    bundled!(
        "Inkboard Symbols",
        400,
        "DejaVuSans-Symbols.ttf",
        "truetype"
    ),
    bundled!("Inkboard Math", 400, "NotoSansMath-Symbols.ttf", "truetype"),
    bundled!(
        "Inkboard Symbols 2",
        400,
        "NotoSansSymbols2-Symbols.ttf",
        "truetype"
    ),
    bundled!("Inkboard Emoji", 400, "NotoEmoji-Regular.ttf", "truetype"),
];

/// Index in [`BUNDLED`] of the first fallback, and of the emoji face.
const FIRST_FALLBACK: usize = 8;
const EMOJI: usize = 11;

/// The family name of a font choice's primary face.
pub fn family(font: Font) -> &'static str {
    BUNDLED[primary_index(font, Weight::Regular)].family
}

fn primary_index(font: Font, weight: Weight) -> usize {
    let base = match font {
        Font::Sans => 0,
        Font::Serif => 2,
        Font::Mono => 4,
        Font::Hand => 6,
    };
    // fontdb and CSS match weight 600 to the family's 600 or 700 face, 400 to 400.
    base + usize::from(weight == Weight::SemiBold)
}

/// A face, parsed and ready to shape, loaded once for the life of the process.
pub struct LoadedFace {
    id: u32,
    family: &'static str,
    pub(crate) rb: RbFace<'static>,
    pub(crate) units_per_em: f32,
}

/// A handle on a loaded face; equal when it is the same face.
#[derive(Clone, Copy)]
pub struct FaceRef(&'static LoadedFace);

impl FaceRef {
    /// The family name the SVG names this face by.
    pub fn family(self) -> &'static str {
        self.0.family
    }

    pub(crate) fn face(self) -> &'static LoadedFace {
        self.0
    }

    pub(crate) fn id(self) -> u32 {
        self.0.id
    }

    /// Whether the face has a glyph for `c`.
    pub(crate) fn has(self, c: char) -> bool {
        self.0.rb.glyph_index(c).is_some()
    }
}

impl PartialEq for FaceRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for FaceRef {}

impl Hash for FaceRef {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl std::fmt::Debug for FaceRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FaceRef({:?})", self.0.family)
    }
}

fn bundled_faces() -> &'static [FaceRef] {
    static FACES: OnceLock<Vec<FaceRef>> = OnceLock::new();
    FACES.get_or_init(|| {
        BUNDLED
            .iter()
            .enumerate()
            .map(|(i, file)| {
                let rb = RbFace::from_slice(file.data, 0).expect("bundled fonts must parse");
                let units_per_em = rb.units_per_em() as f32;
                FaceRef(Box::leak(Box::new(LoadedFace {
                    id: i as u32,
                    family: file.family,
                    rb,
                    units_per_em,
                })))
            })
            .collect()
    })
}

/// The primary face of `tf`.
pub fn primary(tf: Typeface) -> FaceRef {
    bundled_faces()[primary_index(tf.font, tf.weight)]
}

/// The bundled file of `tf`'s primary face.
pub(crate) fn bundled_file(tf: Typeface) -> &'static BundledFile {
    &BUNDLED[primary_index(tf.font, tf.weight)]
}

/// A bundled file's data, for the font database and CSS.
pub(crate) fn primary_data(tf: Typeface) -> &'static [u8] {
    BUNDLED[primary_index(tf.font, tf.weight)].data
}

/// A character that takes no glyph of its own: controls, joiners, variation
/// selectors, bidi marks and tags. They never make a face unsuitable nor count as
/// missing.
pub(crate) fn ignorable(c: char) -> bool {
    matches!(c as u32,
        0..=0x1F | 0x7F..=0x9F | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
        | 0xFE00..=0xFE0F | 0xFEFF | 0xE0000..=0xE0FFF)
}

/// One run of a line: a byte range of its text and the face it is set in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub start: usize,
    pub end: usize,
    pub face: FaceRef,
}

impl Run {
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

/// The runs of `text` (one line) set in `tf`: the primary face wherever it has the
/// characters, else the first face of the chain that has a whole grapheme cluster
/// (the emoji face first for a cluster asking for emoji presentation, U+FE0F).
/// Whitespace stays in the run before it when that face has it. Empty text has no
/// runs.
pub fn runs(text: &str, tf: Typeface) -> Vec<Run> {
    let primary = primary(tf);
    if text.is_empty() {
        return Vec::new();
    }
    // Most labels are set wholly in the primary face: one cmap look-up per character.
    if text.chars().all(|c| ignorable(c) || primary.has(c)) {
        return vec![Run {
            start: 0,
            end: text.len(),
            face: primary,
        }];
    }
    let mut out: Vec<Run> = Vec::new();
    for (i, cluster) in text.grapheme_indices(true) {
        let previous = out.last().map(|r| r.face);
        let face = match previous {
            Some(p) if cluster.chars().all(char::is_whitespace) && covers(p, cluster) => p,
            _ => choose(cluster, tf.weight, primary),
        };
        match out.last_mut() {
            Some(run) if run.face == face => run.end = i + cluster.len(),
            _ => out.push(Run {
                start: i,
                end: i + cluster.len(),
                face,
            }),
        }
    }
    out
}

fn covers(face: FaceRef, cluster: &str) -> bool {
    cluster.chars().all(|c| ignorable(c) || face.has(c))
}

/// The face a grapheme cluster is drawn in (see [`runs`]).
fn choose(cluster: &str, weight: Weight, primary: FaceRef) -> FaceRef {
    let Some(base) = cluster.chars().find(|&c| !ignorable(c)) else {
        return primary;
    };
    let bundled = bundled_faces();
    if cluster.contains('\u{FE0F}') && bundled[EMOJI].has(base) {
        return bundled[EMOJI];
    }
    let chain = std::iter::once(primary).chain(bundled[FIRST_FALLBACK..].iter().copied());
    let mut first_with_base = None;
    for face in chain {
        if covers(face, cluster) {
            return face;
        }
        if first_with_base.is_none() && face.has(base) {
            first_with_base = Some(face);
        }
    }
    if let Some(face) = first_with_base {
        return face;
    }
    match crate::text::fonts::system_face_for(base, weight) {
        Some(face) => face,
        None => primary,
    }
}

/// The characters of `text` that no face of the chain has, each once, in order of
/// first appearance.
pub fn missing(text: &str, tf: Typeface) -> Vec<char> {
    let mut out = Vec::new();
    // Seen ones in a set: a text of 100,000 characters no face has, each looked
    // for among all before it, was billions of comparisons.
    let mut seen = std::collections::HashSet::new();
    for line in text.lines() {
        for run in runs(line, tf) {
            for c in line[run.range()].chars() {
                if !ignorable(c) && !c.is_whitespace() && !run.face.has(c) && seen.insert(c) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Loads a face of the system (its file is read into memory once, on first use),
/// under a family name; the same file and index give the same face.
pub(crate) fn load_system_face(
    family: &'static str,
    path: &std::path::Path,
    index: u32,
) -> Option<FaceRef> {
    type Key = (std::path::PathBuf, u32);
    static LOADED: OnceLock<Mutex<HashMap<Key, Option<FaceRef>>>> = OnceLock::new();
    let mut loaded = LOADED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let next_id = (BUNDLED.len() + loaded.len()) as u32;
    *loaded.entry((path.to_owned(), index)).or_insert_with(|| {
        let data: &'static [u8] = Box::leak(std::fs::read(path).ok()?.into_boxed_slice());
        let rb = RbFace::from_slice(data, index)?;
        let units_per_em = rb.units_per_em() as f32;
        Some(FaceRef(Box::leak(Box::new(LoadedFace {
            id: next_id,
            family,
            rb,
            units_per_em,
        }))))
    })
}
