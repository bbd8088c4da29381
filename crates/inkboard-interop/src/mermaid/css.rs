//! The CSS of `classDef`, `style` and `linkStyle` lines (`fill:#f9f,stroke:#333,
//! stroke-width:4px,color:#fff`) turned into a [`Style`]. Only what a `Style` can
//! say is kept; anything else (fonts, radii, colours we cannot read) is left
//! out, the way a browser drops CSS it does not understand, and named, so that
//! the import's answer can say so.

use inkboard_core::{Color, Dash, Style};

/// The style that a list of `property:value` pairs sets, and the properties
/// left out (`font-weight`, or `fill:oops` for a value that cannot be read).
pub(super) fn style_of(props: &str) -> (Style, Vec<String>) {
    let mut style = Style::default();
    let mut left_out = Vec::new();
    for prop in split_outside_parens(props) {
        let Some((key, value)) = prop.split_once(':') else {
            let prop = prop.trim();
            if !prop.is_empty() {
                left_out.push(short(prop));
            }
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim().trim_end_matches("!important").trim();
        // Whether the value could be read.
        let read = match key.as_str() {
            "fill" | "background" | "background-color" => {
                style.fill = color(value);
                style.fill.is_some()
            }
            "stroke" => {
                style.stroke = color(value);
                style.stroke.is_some()
            }
            "color" => {
                style.text_color = color(value);
                style.text_color.is_some()
            }
            "stroke-width" => {
                style.stroke_width = length(value).filter(|w| *w <= 1000.0);
                style.stroke_width.is_some()
            }
            "font-size" => {
                style.font_size = length(value).filter(|s| *s > 0.0 && *s <= 1000.0);
                style.font_size.is_some()
            }
            "opacity" => {
                style.opacity = number(value).filter(|o| (0.0..=1.0).contains(o));
                style.opacity.is_some()
            }
            "stroke-dasharray" => {
                // The first dash length tells dots (short) from dashes.
                let first = value
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .find(|s| !s.is_empty());
                style.dash = match first.map(|s| (s, length(s))) {
                    Some(("none", _)) | Some((_, Some(0.0))) => Some(Dash::Solid),
                    Some((_, Some(d))) if d <= 2.0 => Some(Dash::Dotted),
                    Some((_, Some(_))) => Some(Dash::Dashed),
                    _ => None,
                };
                style.dash.is_some()
            }
            _ => {
                left_out.push(short(&key));
                continue;
            }
        };
        if !read {
            left_out.push(short(&format!("{key}:{value}")));
        }
    }
    (style, left_out)
}

/// `text`, cut to a length fit for a message.
fn short(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Splits on commas that are not inside parentheses (`rgb(1, 2, 3)` stays whole).
fn split_outside_parens(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A plain number, or one in px (`4px`, `4`).
fn length(value: &str) -> Option<f64> {
    number(value.trim().strip_suffix("px").unwrap_or(value))
}

fn number(value: &str) -> Option<f64> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// A CSS colour: hex (`#f9f`, `#ff99ff`, `#ff99ff80`), `rgb()`/`rgba()`, one of
/// inkboard's palette names (kept as the name, so it follows the theme), or any
/// other CSS colour name ([`Color::parse`] reads names and hex).
fn color(value: &str) -> Option<Color> {
    let v = value.trim().to_ascii_lowercase();
    if let Ok(c) = Color::parse(&v) {
        return Some(c);
    }
    if let Some(args) = v
        .strip_prefix("rgba(")
        .or_else(|| v.strip_prefix("rgb("))
        .and_then(|r| r.strip_suffix(')'))
    {
        let parts: Vec<&str> = args
            .split(|c: char| c == ',' || c == '/' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        let channel = |s: &str| s.parse::<f64>().ok().filter(|v| (0.0..=255.0).contains(v));
        let alpha = match parts.get(3) {
            None => Some(255.0),
            Some(a) => match a.strip_suffix('%') {
                Some(p) => p.parse::<f64>().ok().map(|p| p / 100.0 * 255.0),
                None => a.parse::<f64>().ok().map(|a| a * 255.0),
            }
            .filter(|a| (0.0..=255.0).contains(a)),
        };
        if let ([r, g, b, ..], Some(a)) = (parts.as_slice(), alpha) {
            let (r, g, b) = (channel(r)?, channel(g)?, channel(b)?);
            return Some(Color::Rgba([
                r.round() as u8,
                g.round() as u8,
                b.round() as u8,
                a.round() as u8,
            ]));
        }
    }
    None
}
