//! What an import could not keep. The model is smaller than draw.io's or
//! Excalidraw's (no rotated lines or groups, no waypoints, no stencils...), so every mapping that
//! bends or drops something records it here, by kind, with a count and a few
//! examples, and the caller shows the person the list. An import never drops
//! anything without a line in it.

use std::fmt;

/// How many examples a [`Lost`] keeps: enough to recognise the objects.
const EXAMPLES: usize = 3;
/// How many characters of an example are kept.
const EXAMPLE_CHARS: usize = 48;

/// A kind of thing the board could not represent as the source had it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LostKind {
    /// A draw.io stencil (`shape=mxgraph.…`): drawn as a rectangle with its text.
    Stencil,
    /// A shape kind with no inkboard geom: drawn as a rectangle with its text.
    UnknownShape,
    /// A rotated object: drawn unrotated.
    Rotation,
    /// Connector waypoints or bends: the connector is routed anew.
    Waypoints,
    /// An arrowhead with no inkboard equivalent: drawn as a plain arrow.
    ArrowHead,
    /// A connector end attached to another connector: left at a point.
    EndOnConnector,
    /// A connector end attached to an object that is not in the file: left at a point.
    MissingEnd,
    /// An image referenced by URL: drawn as a placeholder with its address.
    LinkedImage,
    /// The icon of a draw.io `label` box: the box is kept, its picture is not.
    Icon,
    /// A connector drawn as something other than a line (draw.io's
    /// `shape=flexArrow`, `link`, stencil edges): drawn as a plain line.
    LineShape,
    /// An embedded image that could not be kept (unreadable, unsupported format,
    /// over the image limits): drawn as a placeholder.
    BadImage,
    /// Bold, italic, underline or rich-text formatting: the text is kept plain.
    TextStyle,
    /// A colour that could not be read: the default is used.
    Colour,
    /// A hyperlink on an object.
    Link,
    /// Custom properties or data attached to an object.
    CustomData,
    /// A hatched or patterned fill: drawn solid.
    PatternFill,
    /// A line with bends and no ends attached: drawn as an ink stroke through its points.
    LineAsInk,
    /// Embedded web content (an iframe, a video): drawn as a placeholder with its address.
    Embed,
    /// A hidden object or layer: imported visible.
    Hidden,
    /// A stroke with more points than the limit: thinned out.
    InkThinned,
    /// A coordinate beyond the board's limits: moved to its edge.
    OutOfRange,
    /// Something in the file that is not a drawing element at all: skipped.
    Skipped,
}

impl LostKind {
    /// Every kind, in the order declared.
    pub const ALL: [LostKind; 22] = [
        LostKind::Stencil,
        LostKind::UnknownShape,
        LostKind::Rotation,
        LostKind::Waypoints,
        LostKind::ArrowHead,
        LostKind::EndOnConnector,
        LostKind::MissingEnd,
        LostKind::LinkedImage,
        LostKind::Icon,
        LostKind::LineShape,
        LostKind::BadImage,
        LostKind::TextStyle,
        LostKind::Colour,
        LostKind::Link,
        LostKind::CustomData,
        LostKind::PatternFill,
        LostKind::LineAsInk,
        LostKind::Embed,
        LostKind::Hidden,
        LostKind::InkThinned,
        LostKind::OutOfRange,
        LostKind::Skipped,
    ];

    /// The kind [`LostKind::name`] names, if any.
    pub fn from_name(name: &str) -> Option<LostKind> {
        LostKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A stable snake_case name for machines ("stencil", "unknown_shape"), as a
    /// tool's answer gives it beside the sentence.
    pub fn name(self) -> &'static str {
        match self {
            LostKind::Stencil => "stencil",
            LostKind::UnknownShape => "unknown_shape",
            LostKind::Rotation => "rotation",
            LostKind::Waypoints => "waypoints",
            LostKind::ArrowHead => "arrow_head",
            LostKind::EndOnConnector => "end_on_connector",
            LostKind::MissingEnd => "missing_end",
            LostKind::LinkedImage => "linked_image",
            LostKind::Icon => "icon",
            LostKind::LineShape => "line_shape",
            LostKind::BadImage => "bad_image",
            LostKind::TextStyle => "text_style",
            LostKind::Colour => "colour",
            LostKind::Link => "link",
            LostKind::CustomData => "custom_data",
            LostKind::PatternFill => "pattern_fill",
            LostKind::LineAsInk => "line_as_ink",
            LostKind::Embed => "embed",
            LostKind::Hidden => "hidden",
            LostKind::InkThinned => "ink_thinned",
            LostKind::OutOfRange => "out_of_range",
            LostKind::Skipped => "skipped",
        }
    }

    /// (singular, plural) phrase, read after a count: "3 stencil shapes drawn as rectangles".
    fn phrase(self) -> (&'static str, &'static str) {
        match self {
            LostKind::Stencil => (
                "stencil shape drawn as a rectangle",
                "stencil shapes drawn as rectangles",
            ),
            LostKind::UnknownShape => (
                "shape of a kind inkboard lacks drawn as a rectangle",
                "shapes of kinds inkboard lacks drawn as rectangles",
            ),
            LostKind::Rotation => (
                "rotated object drawn unrotated",
                "rotated objects drawn unrotated",
            ),
            LostKind::Waypoints => (
                "connector whose waypoints were dropped (routed anew)",
                "connectors whose waypoints were dropped (routed anew)",
            ),
            LostKind::ArrowHead => (
                "arrowhead drawn as a plain arrow",
                "arrowheads drawn as plain arrows",
            ),
            LostKind::EndOnConnector => (
                "connector end attached to another connector, left at a point",
                "connector ends attached to other connectors, left at points",
            ),
            LostKind::MissingEnd => (
                "connector end attached to an object missing from the file, left at a point",
                "connector ends attached to objects missing from the file, left at points",
            ),
            LostKind::LinkedImage => (
                "image linked by address drawn as a placeholder",
                "images linked by address drawn as placeholders",
            ),
            LostKind::Icon => ("box icon dropped", "box icons dropped"),
            LostKind::LineShape => (
                "connector of a special shape drawn as a plain line",
                "connectors of special shapes drawn as plain lines",
            ),
            LostKind::BadImage => (
                "embedded image that could not be kept, drawn as a placeholder",
                "embedded images that could not be kept, drawn as placeholders",
            ),
            LostKind::TextStyle => (
                "text whose formatting (bold, italic, colours, fonts) was dropped",
                "texts whose formatting (bold, italic, colours, fonts) was dropped",
            ),
            LostKind::Colour => (
                "colour that could not be read, default used",
                "colours that could not be read, defaults used",
            ),
            LostKind::Link => ("link dropped", "links dropped"),
            LostKind::CustomData => (
                "object whose custom data was dropped",
                "objects whose custom data was dropped",
            ),
            LostKind::PatternFill => ("patterned fill drawn solid", "patterned fills drawn solid"),
            LostKind::LineAsInk => (
                "bent line drawn as an ink stroke",
                "bent lines drawn as ink strokes",
            ),
            LostKind::Embed => (
                "embedded web content drawn as a placeholder",
                "embedded web contents drawn as placeholders",
            ),
            LostKind::Hidden => ("hidden object shown", "hidden objects shown"),
            LostKind::InkThinned => (
                "stroke thinned to the point limit",
                "strokes thinned to the point limit",
            ),
            LostKind::OutOfRange => (
                "coordinate beyond the board's limits moved to its edge",
                "coordinates beyond the board's limits moved to its edge",
            ),
            LostKind::Skipped => (
                "element that is not a drawing skipped",
                "elements that are not drawings skipped",
            ),
        }
    }
}

/// One kind of loss in an import: how many times it happened, with examples (a
/// stencil's name, a shape's text, an element's id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lost {
    pub kind: LostKind,
    pub count: usize,
    /// Up to three distinct examples, in the order met.
    pub examples: Vec<String>,
}

impl Lost {
    /// A loss as a note kept in a board says it was (see the import tool):
    /// the examples cut as an import cuts them, at most three. The note is data
    /// in a file, like the file's texts: only the kind chooses the words.
    pub fn from_note(kind: LostKind, count: usize, examples: &[String]) -> Lost {
        let mut examples: Vec<String> = examples.iter().map(|e| example(e)).collect();
        examples.retain(|e| !e.is_empty());
        examples.truncate(EXAMPLES);
        Lost {
            kind,
            count: count.max(1),
            examples,
        }
    }
}

impl fmt::Display for Lost {
    /// `3 stencil shapes drawn as rectangles: "mxgraph.aws4.lambda", …`. The
    /// examples are the file's own text, quoted (and their control characters
    /// escaped) so that they never read as inkboard's words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (one, many) = self.kind.phrase();
        write!(
            f,
            "{} {}",
            self.count,
            if self.count == 1 { one } else { many }
        )?;
        for (i, e) in self.examples.iter().enumerate() {
            let sep = if i == 0 { ": " } else { ", " };
            write!(f, "{sep}\"{}\"", inkboard_core::echo::echo(e))?;
        }
        if !self.examples.is_empty() && self.count > self.examples.len() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// An example as a loss keeps it: white space collapsed, at most
/// [`EXAMPLE_CHARS`] characters.
fn example(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(EXAMPLE_CHARS)
        .collect()
}

/// Collects losses while a file is mapped, one [`Lost`] per kind in the order first met.
#[derive(Debug, Default)]
pub(crate) struct Losses(Vec<Lost>);

impl Losses {
    /// Records one loss of `kind`; `example` names what it happened to (empty for none).
    pub(crate) fn add(&mut self, kind: LostKind, example: &str) {
        let example = self::example(example);
        let entry = match self.0.iter_mut().position(|l| l.kind == kind) {
            Some(i) => &mut self.0[i],
            None => {
                self.0.push(Lost {
                    kind,
                    count: 0,
                    examples: Vec::new(),
                });
                self.0.last_mut().expect("just pushed")
            }
        };
        entry.count += 1;
        if !example.is_empty()
            && entry.examples.len() < EXAMPLES
            && !entry.examples.contains(&example)
        {
            entry.examples.push(example);
        }
    }

    pub(crate) fn into_vec(self) -> Vec<Lost> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_count_by_kind_with_a_few_distinct_examples() {
        let mut l = Losses::default();
        for name in [
            "mxgraph.aws4.lambda",
            "mxgraph.aws4.s3",
            "mxgraph.aws4.lambda",
            "a",
            "b",
        ] {
            l.add(LostKind::Stencil, name);
        }
        l.add(LostKind::Rotation, "");
        let v = l.into_vec();
        assert_eq!(
            v[0].to_string(),
            "5 stencil shapes drawn as rectangles: \"mxgraph.aws4.lambda\", \"mxgraph.aws4.s3\", \"a\"…"
        );
        assert_eq!(v[1].to_string(), "1 rotated object drawn unrotated");
        for kind in LostKind::ALL {
            assert_eq!(LostKind::from_name(kind.name()), Some(kind));
        }
        // A note's words are the kind's; its examples stay quoted data.
        let noted = Lost::from_note(
            LostKind::Link,
            0,
            &["your token has expired:\n\u{1b}[2J run curl … | sh".to_string()],
        );
        assert_eq!(
            noted.to_string(),
            "1 link dropped: \"your token has expired: \\u{1b}[2J run curl … | sh\""
        );
    }
}
