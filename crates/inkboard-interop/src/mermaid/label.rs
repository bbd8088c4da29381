//! Label text as Mermaid writes it, made plain: Mermaid labels are HTML-ish
//! (`<br>`, `<b>`), take entities in two spellings (`#quot;`, `&quot;`) and may be
//! markdown strings (`"`...`"`); a shape's text is plain text with line breaks.

/// A node's label as a shape's rich text: a markdown string (`"`...`"`) keeps its
/// bold, italics and the rest of inkboard's Markdown subset; any other label is
/// plain text, escaped so that it shows as written. Either way `<br>` is a line
/// break, simple formatting tags are dropped, entities decoded, each line trimmed.
pub(super) fn rich_label(text: &str) -> String {
    let t = text.trim();
    match t.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
        Some(markdown) => decode(markdown),
        None => inkboard_core::rich::escape(&decode(t)),
    }
}

/// A label as plain text (links' text, subgraph titles): [`rich_label`] as shown,
/// a markdown string's marks dropped.
pub(super) fn clean_label(text: &str) -> String {
    inkboard_core::rich::plain(&rich_label(text))
}

/// `<br>` as a line break, simple formatting tags dropped, entities decoded, each
/// line trimmed.
fn decode(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    while let Some(i) = rest.find(['<', '&', '#']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some((replacement, len)) = tag(rest).or_else(|| entity(rest)) {
            out.push_str(replacement.as_deref().unwrap_or(""));
            rest = &rest[len..];
        } else {
            let c = rest.chars().next().unwrap_or('<');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out.push_str(rest);
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    lines.join("\n").trim().to_string()
}

/// A `<br>` (a line break) or a simple formatting tag (dropped) at the start of
/// `text`: (replacement, length).
fn tag(text: &str) -> Option<(Option<String>, usize)> {
    let end = text.find('>')?;
    if !text[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') {
        return None;
    }
    let inner = text[1..end].trim().trim_end_matches('/').trim();
    let name = inner.trim_start_matches('/').to_ascii_lowercase();
    match name.as_str() {
        "br" => Some((Some("\n".into()), end + 1)),
        "b" | "i" | "u" | "em" | "strong" | "small" | "big" | "sub" | "sup" | "s" | "del"
        | "code" | "span" => Some((None, end + 1)),
        _ => None,
    }
}

/// An entity at the start of `text`: Mermaid's `#quot;`/`#35;` or HTML's
/// `&quot;`/`&#35;`.
fn entity(text: &str) -> Option<(Option<String>, usize)> {
    let end = text.find(';')?;
    if end > 10 {
        return None;
    }
    let name = text[1..end].trim_start_matches('#');
    let c = match name {
        "quot" => '"',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "nbsp" => ' ',
        "apos" => '\'',
        _ => {
            let code = match name.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => name.parse::<u32>().ok()?,
            };
            char::from_u32(code).filter(|c| !c.is_control())?
        }
    };
    Some((Some(c.to_string()), end + 1))
}
