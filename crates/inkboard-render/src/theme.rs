//! Light and dark: the colours a picture is painted in. A scene is resolved in
//! the light theme, the board's own colours; [`Theme::Dark`] repaints every colour
//! the backends write (fills, strokes, text, the page's background) by one rule,
//! the very CSS filter the editor draws its dark view with (`web/app.css`:
//! `filter: invert(0.93) hue-rotate(180deg)` on the board), so an export in dark
//! looks like the board on a dark screen. Images are not repainted: a photo stays
//! a photo.
//!
//! The rule is [`DARK`], a list of CSS filter functions computed here as the
//! Filter Effects specification defines them, in sRGB. The editor's stylesheet
//! names the same list ([`Theme::css_filter`]; `inkboard-app/tests/theme.rs` checks
//! it), and a browser test compares the pixels the editor shows with the colours
//! an export writes (`tests/browser/theme_export.test.mjs`).
//!
//! Limitations: colours are mapped one by one, so a translucent colour is mapped
//! and then laid over the mapped background, which equals filtering the composed
//! picture (as the browser does) as long as no channel is clamped.

use inkboard_core::vocabulary;

use crate::scene::Rgba;

vocabulary! {
    /// The colours a picture is painted in: the board's own (light), or the
    /// editor's dark view of them.
    #[derive(Default)]
    pub enum Theme as "theme" {
        #[default]
        Light = "light",
        Dark = "dark",
    }
}

/// One CSS filter function, as the Filter Effects specification defines it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Filter {
    /// `invert(amount)`: each channel `c` becomes `amount + c * (1 - 2 * amount)`.
    Invert(f64),
    /// `hue-rotate(deg)`: the specification's colour matrix for that angle.
    HueRotate(f64),
}

/// The dark theme's rule: inverted, but only to 7% grey so that black is not a
/// hole in the screen nor white a glare, then the hues turned half a turn so that
/// blue stays blue, red red. Excalidraw's dark mode is the same idea.
pub const DARK: [Filter; 2] = [Filter::Invert(0.93), Filter::HueRotate(180.0)];

impl Filter {
    /// The filter applied to `c`, channels from 0 to 1, clamped as a filter
    /// primitive's result is.
    fn apply(self, [r, g, b]: [f64; 3]) -> [f64; 3] {
        let out = match self {
            Filter::Invert(a) => [r, g, b].map(|c| a + c * (1.0 - 2.0 * a)),
            Filter::HueRotate(deg) => {
                let (sin, cos) = deg.to_radians().sin_cos();
                let m = [
                    [
                        0.213 + cos * 0.787 - sin * 0.213,
                        0.715 - cos * 0.715 - sin * 0.715,
                        0.072 - cos * 0.072 + sin * 0.928,
                    ],
                    [
                        0.213 - cos * 0.213 + sin * 0.143,
                        0.715 + cos * 0.285 + sin * 0.140,
                        0.072 - cos * 0.072 - sin * 0.283,
                    ],
                    [
                        0.213 - cos * 0.213 - sin * 0.787,
                        0.715 - cos * 0.715 + sin * 0.715,
                        0.072 + cos * 0.928 + sin * 0.072,
                    ],
                ];
                m.map(|row| row[0] * r + row[1] * g + row[2] * b)
            }
        };
        out.map(|c| c.clamp(0.0, 1.0))
    }

    /// The function as CSS writes it.
    fn css(self) -> String {
        match self {
            Filter::Invert(a) => format!("invert({a})"),
            Filter::HueRotate(deg) => format!("hue-rotate({deg}deg)"),
        }
    }
}

impl Theme {
    /// The filter functions this theme paints with, in order; none for light.
    pub fn filters(self) -> &'static [Filter] {
        match self {
            Theme::Light => &[],
            Theme::Dark => &DARK,
        }
    }

    /// `c` as this theme paints it; its alpha is kept.
    pub fn paint(self, c: Rgba) -> Rgba {
        let filters = self.filters();
        if filters.is_empty() {
            return c;
        }
        let [r, g, b, a] = c.0;
        let mut v = [r, g, b].map(|c| c as f64 / 255.0);
        for f in filters {
            v = f.apply(v);
        }
        let [r, g, b] = v.map(|c| (c * 255.0).round() as u8);
        Rgba([r, g, b, a])
    }

    /// The CSS `filter` value that paints a light drawing in this theme, as the
    /// editor's stylesheet writes it (`none` for light).
    pub fn css_filter(self) -> String {
        let filters = self.filters();
        if filters.is_empty() {
            return "none".into();
        }
        filters
            .iter()
            .map(|f| f.css())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkboard_core::Vocabulary;

    fn hex(c: Rgba) -> String {
        let [r, g, b, _] = c.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    #[test]
    fn light_paints_the_colours_as_they_are() {
        for c in [
            Rgba::rgb(0, 0, 0),
            Rgba::rgb(0x1e, 0x88, 0xe5),
            Rgba([9, 8, 7, 6]),
        ] {
            assert_eq!(Theme::Light.paint(c), c);
        }
    }

    #[test]
    fn dark_turns_paper_dark_and_ink_light_keeping_greys_grey() {
        // White paper to 7% grey, the default ink to a light grey, alpha kept.
        assert_eq!(hex(Theme::Dark.paint(Rgba::rgb(255, 255, 255))), "#121212");
        assert_eq!(hex(Theme::Dark.paint(Rgba::rgb(0, 0, 0))), "#ededed");
        let grey = Theme::Dark.paint(Rgba([0x80, 0x80, 0x80, 40])).0;
        assert_eq!(grey[0], grey[1]);
        assert_eq!(grey[1], grey[2]);
        assert_eq!(grey[3], 40);
    }

    #[test]
    fn dark_keeps_hues() {
        // Blue stays bluest, red reddest: the half turn undoes the inversion's.
        let [r, g, b, _] = Theme::Dark.paint(Rgba::rgb(0x1e, 0x88, 0xe5)).0;
        assert!(b > r && b > g, "{r} {g} {b}");
        let [r, g, b, _] = Theme::Dark.paint(Rgba::rgb(0xe5, 0x39, 0x35)).0;
        assert!(r > g && r > b, "{r} {g} {b}");
    }

    #[test]
    fn the_css_names_the_same_filters() {
        assert_eq!(Theme::Dark.css_filter(), "invert(0.93) hue-rotate(180deg)");
        assert_eq!(Theme::Light.css_filter(), "none");
        assert_eq!(Theme::parse("dark").ok(), Some(Theme::Dark));
        assert!(Theme::parse("sepia").is_err());
    }
}
