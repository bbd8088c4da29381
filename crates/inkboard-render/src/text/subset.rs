//! Subsets of the bundled faces, for the fonts an exported SVG embeds.
//!
//! An SVG export carries the bundled faces it draws as `@font-face` data URLs, so
//! that a browser draws its `<text>` in the very faces the text was measured with
//! (`fonts::font_face_css_used`). Whole faces made a 12-shape board's SVG 680 KB; a
//! face cut down to the characters the picture draws is a few KB. The browser
//! still shapes the text itself, so a subset keeps what shaping reads: the `cmap`
//! of those characters, the glyphs the default features reach from them (skera's
//! GSUB closure, as HarfBuzz's `hb-subset` does) and the GSUB, GPOS and GDEF
//! lookups between them, so kerning and contextual forms come out as
//! `text/measure.rs` laid them out.
//!
//! skera (fontations' port of `hb-subset`) subsets every table but CFF outlines in
//! the version the workspace can use, and Inter is a CFF font: its outlines are cut
//! by `subsetter` (the PDF backend's subsetter, through krilla), told to number the
//! glyphs exactly as skera's plan did, and the two are put together by write-fonts'
//! `FontBuilder`.
//!
//! **Limitations.** A subset serves only the characters it was made for: text added
//! later (the chat view's) needs its own subset or the whole face. Hinting is
//! dropped (browsers do not hint CFF, and the renderer never hints).

use std::collections::{BTreeMap, BTreeSet};

use read_fonts::collections::IntSet;
use read_fonts::types::{GlyphId, NameId, Tag};
use read_fonts::{FontRef, TableProvider};
use skera::{Plan, SubsetFlags, DEFAULT_LAYOUT_FEATURES};

use crate::text::faces::{FaceRef, BUNDLED};

/// Why a face could not be subset; the caller then embeds the whole face.
#[derive(Debug, thiserror::Error)]
pub enum SubsetError {
    /// The face's file is not a font read-fonts can read.
    #[error("the font cannot be read: {0}")]
    Read(#[from] read_fonts::ReadError),
    /// skera failed on one of the face's tables.
    #[error("skera could not subset the font: {0}")]
    Tables(#[from] skera::SubsetError),
    /// subsetter failed on the face's CFF outlines.
    #[error("the CFF outlines could not be subset: {0}")]
    Cff(subsetter::Error),
    /// skera's glyph numbering could not be given to subsetter (not numbered
    /// 0, 1, 2..., or more glyphs than a font holds).
    #[error("the subset's glyph numbering is not contiguous")]
    Numbering,
}

/// The characters a picture draws in each bundled face, keyed by the face's index
/// in [`BUNDLED`]: what the SVG embeds. System faces are not embedded (they are
/// named, and found by the viewer), so their text is not kept.
#[derive(Debug, Default)]
pub(crate) struct UsedChars(BTreeMap<usize, BTreeSet<char>>);

impl UsedChars {
    /// Notes that `text` is drawn in `face`.
    pub(crate) fn add(&mut self, face: FaceRef, text: &str) {
        let index = face.id() as usize;
        if index < BUNDLED.len() && !text.is_empty() {
            self.0.entry(index).or_default().extend(text.chars());
        }
    }

    /// The bundled faces drawn, by index in [`BUNDLED`], with their characters.
    pub(crate) fn faces(&self) -> impl Iterator<Item = (usize, &BTreeSet<char>)> {
        self.0.iter().map(|(i, chars)| (*i, chars))
    }
}

/// The letters FreeType's auto-hinter reads a Latin face's blue zones (the heights
/// of capitals, x-height, ascenders and descenders) and its standard stem widths
/// from (`afblue.dat`'s Latin strings).
const AUTOHINT_REFERENCE: &str = "THEZOCQSLUfijkdbhuvxzoescnrpqgjy";

/// `data` (a bundled face) cut down to what drawing `chars` needs (see the module
/// notes), as an OpenType file.
pub(crate) fn subset(data: &[u8], chars: &BTreeSet<char>) -> Result<Vec<u8>, SubsetError> {
    let font = FontRef::new(data)?;
    let mut unicodes: IntSet<u32> = chars.iter().map(|&c| u32::from(c)).collect();
    if font.data_for_tag(Tag::new(b"glyf")).is_some() {
        // FreeType's auto-hinter, which Chromium on Linux runs on TrueType faces
        // without hints of their own, measures a face's blue zones on these letters:
        // without them the subset's letters were snapped to other heights.
        unicodes.extend(AUTOHINT_REFERENCE.chars().map(u32::from));
    }
    let mut scripts = IntSet::<Tag>::empty();
    // Every script: the lookups a character's own script selects are closed over.
    scripts.invert();
    let features: IntSet<Tag> = DEFAULT_LAYOUT_FEATURES.iter().copied().collect();
    // The names CSS and font tools show (copyright, family, style, version...).
    let mut names = IntSet::<NameId>::empty();
    names.insert_range(NameId::from(0)..=NameId::from(6));
    let languages: IntSet<u16> = [0x409].into_iter().collect();
    let drop: IntSet<Tag> = skera::DEFAULT_DROP_TABLES.iter().copied().collect();
    let plan = Plan::new(
        &IntSet::<GlyphId>::empty(),
        &unicodes,
        &font,
        SubsetFlags::SUBSET_FLAGS_NO_HINTING,
        &drop,
        &scripts,
        &features,
        &names,
        &languages,
    );
    let tables = skera::subset_font(&font, &plan)?;
    let cff = Tag::new(b"CFF ");
    if font.data_for_tag(cff).is_none() {
        return Ok(tables);
    }
    // skera left the CFF table out: subsetter cuts it with the same numbering.
    let outlines = cff_outlines(data, &plan)?;
    let outlines_font = FontRef::new(&outlines)?;
    let cff_table = outlines_font
        .data_for_tag(cff)
        .ok_or(SubsetError::Numbering)?;
    let tables_font = FontRef::new(&tables)?;
    if tables_font.maxp()?.num_glyphs() != outlines_font.maxp()?.num_glyphs() {
        return Err(SubsetError::Numbering);
    }
    Ok(write_fonts::FontBuilder::new()
        .add_raw(cff, cff_table.as_bytes())
        .copy_missing_tables(tables_font)
        .build())
}

/// subsetter's subset of `data` (a CFF font) holding the glyphs of `plan`, numbered
/// as `plan` numbers them.
fn cff_outlines(data: &[u8], plan: &Plan) -> Result<Vec<u8>, SubsetError> {
    let mut pairs: Vec<(u32, u32)> = plan
        .old_to_new_glyph_mapping()
        .map(|(old, new)| (new.to_u32(), old.to_u32()))
        .collect();
    pairs.sort_unstable();
    let mut remapper = subsetter::GlyphRemapper::new();
    for (i, (new, old)) in pairs.into_iter().enumerate() {
        let old = u16::try_from(old).map_err(|_| SubsetError::Numbering)?;
        // `GlyphRemapper` numbers glyphs in the order it is given them, from
        // `.notdef` = 0: skera's numbering must be that order with no gaps.
        if new as usize != i || u32::from(remapper.remap(old)) != new {
            return Err(SubsetError::Numbering);
        }
    }
    subsetter::subset(data, 0, &remapper).map_err(SubsetError::Cff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustybuzz::ttf_parser;

    fn chars(s: &str) -> BTreeSet<char> {
        s.chars().collect()
    }

    /// The advances a shaper gives `text` in `data`: what the browser lays out.
    fn advances(data: &[u8], text: &str) -> Vec<i32> {
        let face = rustybuzz::Face::from_slice(data, 0).expect("a font");
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        let shaped = rustybuzz::shape(&face, &[], buffer);
        shaped
            .glyph_positions()
            .iter()
            .map(|p| p.x_advance)
            .collect()
    }

    #[test]
    fn every_bundled_face_subsets_small_and_shapes_as_the_whole() {
        let text = "Step 1: check the AVATAR's input, Tokyo → fin";
        for file in &BUNDLED {
            let used: BTreeSet<char> = text
                .chars()
                .filter(|&c| {
                    ttf_parser::Face::parse(file.data, 0)
                        .unwrap()
                        .glyph_index(c)
                        .is_some()
                })
                .collect();
            let sample: String = text.chars().filter(|c| used.contains(c)).collect();
            let cut = subset(file.data, &used).unwrap_or_else(|e| panic!("{}: {e}", file.family));
            assert!(
                cut.len() * 4 < file.data.len(),
                "{} {}: {} of {} bytes",
                file.family,
                file.weight,
                cut.len(),
                file.data.len()
            );
            // Kerning (AV, Ta, "To") and every advance come out as in the whole face.
            assert_eq!(
                advances(&cut, &sample),
                advances(file.data, &sample),
                "{} {}",
                file.family,
                file.weight
            );
            let face = ttf_parser::Face::parse(&cut, 0).unwrap();
            for c in &used {
                assert!(
                    face.glyph_index(*c).is_some(),
                    "{} keeps {c:?}",
                    file.family
                );
            }
            // A letter neither drawn nor read by the auto-hinter is left out.
            assert!(face.glyph_index('M').is_none(), "{} drops M", file.family);
        }
    }

    #[test]
    fn inter_keeps_its_outlines() {
        let inter = BUNDLED[0].data;
        let cut = subset(inter, &chars("Ag")).unwrap();
        let (whole, part) = (
            ttf_parser::Face::parse(inter, 0).unwrap(),
            ttf_parser::Face::parse(&cut, 0).unwrap(),
        );
        for c in ['A', 'g'] {
            let bbox = |f: &ttf_parser::Face| f.glyph_bounding_box(f.glyph_index(c).unwrap());
            assert!(bbox(&part).is_some(), "{c} has an outline");
            assert_eq!(bbox(&part), bbox(&whole), "{c}");
        }
    }
}
