//! The font database every backend uses: the bundled Inter faces and nothing else,
//! loaded once. A fresh machine has no system fonts, and a picture must not depend on
//! which fonts happen to be installed, so system fonts are never loaded.

use std::sync::{Arc, OnceLock};

use base64::Engine;

use crate::text::{font_data, Weight, FONT_FAMILY};

/// The shared database of the bundled fonts (Inter Regular and SemiBold).
pub fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        for weight in [Weight::Regular, Weight::SemiBold] {
            db.load_font_source(usvg::fontdb::Source::Binary(Arc::new(font_data(weight))));
        }
        db.set_sans_serif_family(FONT_FAMILY);
        db.set_serif_family(FONT_FAMILY);
        db.set_monospace_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// usvg options that resolve every font to the bundled ones. An image link that
/// is not a data URL is never followed: usvg would read it from the disk, and an
/// embedded SVG naming a file must not pull the file into a picture.
pub(crate) fn usvg_options() -> usvg::Options<'static> {
    usvg::Options {
        fontdb: fontdb(),
        font_family: FONT_FAMILY.to_owned(),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_string: Box::new(|_, _| None),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// CSS `@font-face` rules embedding both bundled faces as base64 data URLs, so that
/// browsers draw an exported SVG with the very font it was measured with. Built once
/// (it is about 700 KB).
pub fn font_face_css() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        let mut css = String::new();
        for weight in [Weight::Regular, Weight::SemiBold] {
            css.push_str(&format!(
                "@font-face{{font-family:\"{FONT_FAMILY}\";font-style:normal;font-weight:{};src:url(data:font/otf;base64,{}) format(\"opentype\")}}",
                weight.css_weight(),
                base64::engine::general_purpose::STANDARD.encode(font_data(weight)),
            ));
        }
        css
    })
}
