//! Which kind of file some bytes are, from their content: a name can lie (a
//! `.xml` may be anything, a `.png` exported by draw.io carries its diagram), so
//! the name is only the tiebreaker, never the judge.

use std::fmt;

use crate::png;

/// The kinds of file this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// draw.io XML: `.drawio`, `.xml`, an `<mxfile>` or a bare `<mxGraphModel>`.
    Drawio,
    /// An SVG exported by draw.io with the diagram in its root's `content`.
    DrawioSvg,
    /// A PNG exported by draw.io with the diagram in a text chunk.
    DrawioPng,
    /// Excalidraw JSON: `.excalidraw`.
    Excalidraw,
    /// An SVG exported by Excalidraw with the scene embedded.
    ExcalidrawSvg,
    /// A PNG exported by Excalidraw with the scene embedded.
    ExcalidrawPng,
}

impl Format {
    /// Every format, in the order declared.
    pub const ALL: [Format; 6] = [
        Format::Drawio,
        Format::DrawioSvg,
        Format::DrawioPng,
        Format::Excalidraw,
        Format::ExcalidrawSvg,
        Format::ExcalidrawPng,
    ];

    /// The format [`Format::name`] names, if any.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A short name for messages and summaries ("draw.io SVG").
    pub fn name(self) -> &'static str {
        match self {
            Format::Drawio => "draw.io",
            Format::DrawioSvg => "draw.io SVG",
            Format::DrawioPng => "draw.io PNG",
            Format::Excalidraw => "Excalidraw",
            Format::ExcalidrawSvg => "Excalidraw SVG",
            Format::ExcalidrawPng => "Excalidraw PNG",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The keyword of Excalidraw's PNG text chunk and SVG payload type.
pub(crate) const EXCALIDRAW_MIME: &str = "application/vnd.excalidraw+json";

/// The endings of the files this crate reads, longest first, so that
/// `plan.drawio.svg` ends in `.drawio.svg`, not only `.svg`.
const ENDINGS: [&str; 9] = [
    ".drawio.svg",
    ".drawio.png",
    ".excalidraw.svg",
    ".excalidraw.png",
    ".drawio",
    ".excalidraw",
    ".xml",
    ".svg",
    ".png",
];

/// The file name `name` without the ending of a file this crate reads (any
/// case: `Plan.drawio.svg` → `Plan`), or `None` when it has no such ending.
/// What the file holds is [`detect`]'s to say; this is for naming what is
/// made from it.
pub fn diagram_stem(name: &str) -> Option<&str> {
    let lower = name.to_ascii_lowercase();
    ENDINGS
        .iter()
        .find(|ending| lower.ends_with(*ending))
        .map(|ending| &name[..name.len() - ending.len()])
}

/// What these bytes are, or `None` when they are no file this crate reads (a
/// picture without a diagram inside included). `name_hint` decides only between
/// readings the content leaves open: JSON that is neither clearly Excalidraw nor
/// anything else is taken as Excalidraw when the name says so.
pub fn detect(bytes: &[u8], name_hint: Option<&str>) -> Option<Format> {
    if png::is_png(bytes) {
        let keywords = png::keywords(bytes);
        if keywords.iter().any(|k| k == EXCALIDRAW_MIME) {
            return Some(Format::ExcalidrawPng);
        }
        if keywords
            .iter()
            .any(|k| k == "mxfile" || k == "mxGraphModel")
        {
            return Some(Format::DrawioPng);
        }
        return None;
    }
    let text = String::from_utf8_lossy(bytes);
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with('{') {
        let head = &body[..floor(body, 4096)];
        let named = name_hint.is_some_and(|n| n.to_ascii_lowercase().contains("excalidraw"));
        return (head.contains("excalidraw") || head.contains("\"elements\"") || named)
            .then_some(Format::Excalidraw);
    }
    if !body.starts_with('<') {
        return None;
    }
    if body.contains("payload-type:application/vnd.excalidraw+json") {
        return Some(Format::ExcalidrawSvg);
    }
    let head = &body[..floor(body, 64 * 1024)];
    if let Some(svg) = head.find("<svg") {
        // The diagram is in the root's content attribute, before the first '>'.
        let tag_end = body[svg..].find('>').map_or(body.len(), |i| svg + i);
        let tag = &body[svg..tag_end];
        return (tag.contains("content=")
            && (tag.contains("mxfile") || tag.contains("mxGraphModel")))
        .then_some(Format::DrawioSvg);
    }
    (head.contains("<mxfile") || head.contains("<mxGraphModel")).then_some(Format::Drawio)
}

/// The largest char boundary at or below `max` in `s`.
pub(crate) fn floor(s: &str, max: usize) -> usize {
    let mut i = max.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart_by_content() {
        assert_eq!(
            detect(b"<mxfile><diagram/></mxfile>", None),
            Some(Format::Drawio)
        );
        assert_eq!(
            detect(b"\xef\xbb\xbf <mxGraphModel/>", None),
            Some(Format::Drawio)
        );
        assert_eq!(
            detect(b"<svg content=\"&lt;mxfile&gt;\"></svg>", None),
            Some(Format::DrawioSvg)
        );
        assert_eq!(detect(b"<svg></svg>", Some("a.drawio.svg")), None);
        assert_eq!(
            detect(b"{\"type\":\"excalidraw\",\"elements\":[]}", None),
            Some(Format::Excalidraw)
        );
        assert_eq!(detect(b"{\"a\":1}", None), None);
        assert_eq!(
            detect(b"{\"a\":1}", Some("x.excalidraw")),
            Some(Format::Excalidraw)
        );
        assert_eq!(detect(b"hello", None), None);
        assert_eq!(detect(b"", None), None);
    }
}
