//! Colours as other programs write them: CSS hex, `rgb()`/`rgba()`, CSS names,
//! draw.io's `none` and `default`, Excalidraw's `transparent`, and draw.io's
//! `light-dark(light, dark)` (the light one is taken).

use inkboard_core::Color;

/// What a colour value in a source file means for the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Paint {
    /// Leave the model's default for this kind of object.
    Default,
    /// Paint nothing: a fully transparent colour.
    None,
    /// This colour.
    Color(Color),
    /// Not understood: the default is used, and the caller reports it.
    Unknown,
}

/// Fully transparent: how "no fill" or "no stroke" is said in the model.
pub(crate) const TRANSPARENT: Color = Color::Rgba([255, 255, 255, 0]);

impl Paint {
    /// The model's colour: `None` keeps the default.
    pub(crate) fn color(self) -> Option<Color> {
        match self {
            Paint::Color(c) => Some(c),
            Paint::None => Some(TRANSPARENT),
            Paint::Default | Paint::Unknown => None,
        }
    }
}

/// Reads one colour value.
pub(crate) fn parse(text: &str) -> Paint {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "" | "default" | "inherit" | "initial" | "swimlane" | "indicated" | "currentcolor" => {
            return Paint::Default
        }
        "none" | "transparent" => return Paint::None,
        _ => {}
    }
    if let Some(inner) = lower
        .strip_prefix("light-dark(")
        .and_then(|r| r.strip_suffix(')'))
    {
        return parse(inner.split(',').next().unwrap_or(""));
    }
    if lower.starts_with('#') {
        return hex(&lower);
    }
    if let Some(args) = lower
        .strip_prefix("rgba(")
        .or_else(|| lower.strip_prefix("rgb("))
        .and_then(|r| r.strip_suffix(')'))
    {
        return rgb(args);
    }
    // CSS's own colours, not the palette's: in another program's file, "red"
    // means #ff0000.
    match inkboard_core::css_color(&lower) {
        Some([r, g, b]) => Paint::Color(Color::Rgba([r, g, b, 255])),
        None => Paint::Unknown,
    }
}

fn hex(text: &str) -> Paint {
    let h = &text[1..];
    if !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return Paint::Unknown;
    }
    // #rgba is CSS too; the model reads the other lengths.
    let expanded;
    let h = if h.len() == 4 {
        expanded = h.chars().flat_map(|c| [c, c]).collect::<String>();
        expanded.as_str()
    } else {
        h
    };
    match Color::parse(&format!("#{h}")) {
        Ok(c) => Paint::Color(c),
        Err(_) => Paint::Unknown,
    }
}

fn rgb(args: &str) -> Paint {
    let parts: Vec<&str> = args
        .split([',', ' ', '/'])
        .filter(|s| !s.is_empty())
        .collect();
    if parts.len() < 3 {
        return Paint::Unknown;
    }
    let channel = |s: &str| -> Option<u8> {
        let v = match s.strip_suffix('%') {
            Some(p) => p.parse::<f64>().ok()? * 2.55,
            None => s.parse::<f64>().ok()?,
        };
        v.is_finite().then(|| v.clamp(0.0, 255.0).round() as u8)
    };
    let alpha = match parts.get(3) {
        None => Some(255),
        Some(a) => match a.strip_suffix('%') {
            Some(p) => p.parse::<f64>().ok().map(|v| v / 100.0),
            None => a.parse::<f64>().ok(),
        }
        .filter(|v| v.is_finite())
        .map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8),
    };
    match (
        channel(parts[0]),
        channel(parts[1]),
        channel(parts[2]),
        alpha,
    ) {
        (Some(r), Some(g), Some(b), Some(a)) => Paint::Color(Color::Rgba([r, g, b, a])),
        _ => Paint::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_of_both_programs_read() {
        let c = |t: &str| parse(t).color().map(|c| c.to_string());
        assert_eq!(c("#DAE8FC").as_deref(), Some("#dae8fc"));
        assert_eq!(c("#fff").as_deref(), Some("#ffffff"));
        assert_eq!(c("none").as_deref(), Some("#ffffff00"));
        assert_eq!(c("transparent").as_deref(), Some("#ffffff00"));
        assert_eq!(c("default"), None);
        assert_eq!(
            c("light-dark(#000000, #ffffff)").as_deref(),
            Some("#000000")
        );
        assert_eq!(c("rgb(255, 0, 0)").as_deref(), Some("#ff0000"));
        assert_eq!(c("rgba(0,0,0,0.5)").as_deref(), Some("#00000080"));
        assert_eq!(c("Red").as_deref(), Some("#ff0000"));
        assert_eq!(c("grey").as_deref(), Some("#808080"));
        assert_eq!(c("RebeccaPurple").as_deref(), Some("#663399"));
        assert_eq!(parse("#12g"), Paint::Unknown);
        assert_eq!(parse("chartreuse-ish"), Paint::Unknown);
    }
}
