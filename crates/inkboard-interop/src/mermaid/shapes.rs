//! Mermaid's node shapes, and the geom each is drawn with. The board has a dozen
//! outlines and Mermaid some fifty, so most shapes are drawn with the nearest
//! geom; each such [`Shape`] says what its geom does not show, and the import's
//! answer repeats it for every node drawn that way.
//!
//! The classic syntax (`[[ ]]`, `>]`...) names its shape in `parse.rs`'s openers;
//! the v11 form `A@{ shape: name }` looks the name up in [`named`], which knows
//! Mermaid's short names and their aliases (`shapesDefs` in Mermaid's
//! `rendering-elements/shapes.ts`), plus `cloud`, inkboard's own. Mermaid refuses
//! a name it does not know; the import draws it as a rectangle and says so.

use inkboard_core::Geom;

/// A Mermaid node shape and how inkboard draws it.
#[derive(Debug, PartialEq, Eq)]
pub struct Shape {
    /// Its name in the import's answer: Mermaid's name and how it is written.
    pub label: &'static str,
    /// The outline it is drawn with.
    pub geom: Geom,
    /// Drawn as a circle (square bounds) rather than stretched around its text.
    pub round: bool,
    /// What the geom does not show of it; `None` when the geom is the shape.
    pub lost: Option<&'static str>,
}

/// A shape its geom draws as Mermaid does.
const fn exact(label: &'static str, geom: Geom) -> Shape {
    Shape {
        label,
        geom,
        round: false,
        lost: None,
    }
}

/// A shape drawn with the nearest geom, which does not show `lost`.
const fn near(label: &'static str, geom: Geom, lost: &'static str) -> Shape {
    Shape {
        label,
        geom,
        round: false,
        lost: Some(lost),
    }
}

/// A circle, drawn as an ellipse with square bounds; `lost` as for [`near`].
const fn round(label: &'static str, lost: Option<&'static str>) -> Shape {
    Shape {
        label,
        geom: Geom::Ellipse,
        round: true,
        lost,
    }
}

// The shapes of the classic syntax.
pub static RECT: Shape = exact("rectangle '[ ]'", Geom::Rect);
pub static ROUNDED: Shape = exact("rounded '( )'", Geom::Rounded);
pub static STADIUM: Shape = near(
    "stadium '([ ])'",
    Geom::Rounded,
    "with rounded corners, not round ends",
);
pub static SUBROUTINE: Shape = near(
    "subroutine '[[ ]]' (fr-rect)",
    Geom::Rect,
    "without its inner side lines",
);
pub static CYLINDER: Shape = exact("cylinder '[( )]'", Geom::Cylinder);
pub static CIRCLE: Shape = round("circle '(( ))'", None);
pub static DOUBLE_CIRCLE: Shape = round(
    "double circle '((( )))' (dbl-circ)",
    Some("one ring, not two"),
);
pub static ODD: Shape = near(
    "asymmetric '> ]' (odd)",
    Geom::Parallelogram,
    "slanted, not notched on the left",
);
pub static RHOMBUS: Shape = exact("rhombus '{ }'", Geom::Diamond);
pub static HEXAGON: Shape = exact("hexagon '{{ }}'", Geom::Hexagon);
pub static LEAN_RIGHT: Shape = exact("parallelogram '[/ /]'", Geom::Parallelogram);
pub static LEAN_LEFT: Shape = near(
    "alternate parallelogram '[\\ \\]' (lean-l)",
    Geom::Parallelogram,
    "leaning right, not left",
);
pub static TRAPEZOID: Shape = near(
    "trapezoid '[/ \\]' (trap-b)",
    Geom::Parallelogram,
    "both sides leaning right, not widening downwards",
);
pub static INV_TRAPEZOID: Shape = near(
    "inverted trapezoid '[\\ /]' (trap-t)",
    Geom::Parallelogram,
    "both sides leaning right, not narrowing downwards",
);

// Shapes only the v11 form names.
static TEXT: Shape = exact("text block 'text'", Geom::Text);
static TRIANGLE: Shape = exact("triangle 'tri'", Geom::Triangle);
static NOTE: Shape = exact("note 'note'", Geom::Note);
static CLOUD: Shape = exact("cloud 'cloud'", Geom::Cloud);
static FLIPPED_TRIANGLE: Shape = near(
    "flipped triangle 'flip-tri'",
    Geom::Triangle,
    "pointing up, not down",
);
static NOTCHED_RECT: Shape = near("card 'notch-rect'", Geom::Rect, "without its cut corner");
static LINED_RECT: Shape = near(
    "lined rectangle 'lin-rect'",
    Geom::Rect,
    "without its side line",
);
static SMALL_CIRCLE: Shape = round(
    "small circle 'sm-circ'",
    Some("sized to its text, not a small dot"),
);
static FRAMED_CIRCLE: Shape = round("framed circle 'fr-circ'", Some("without its inner disc"));
static FORK: Shape = near(
    "fork 'fork'",
    Geom::Rect,
    "an outlined box, not a filled bar",
);
static HOURGLASS: Shape = near(
    "hourglass 'hourglass'",
    Geom::Triangle,
    "one triangle, not two meeting at their tips",
);
static BRACE: Shape = near("comment 'brace'", Geom::Text, "without its curly brace");
static BRACE_RIGHT: Shape = near("comment 'brace-r'", Geom::Text, "without its curly brace");
static BRACES: Shape = near("comment 'braces'", Geom::Text, "without its curly braces");
static BOLT: Shape = near(
    "lightning bolt 'bolt'",
    Geom::Parallelogram,
    "a slanted box, not a zigzag",
);
static DOCUMENT: Shape = near("document 'doc'", Geom::Rect, "without its wavy lower edge");
static LINED_DOCUMENT: Shape = near(
    "lined document 'lin-doc'",
    Geom::Rect,
    "without its wavy lower edge and side line",
);
static STACKED_DOCUMENT: Shape = near(
    "stacked document 'docs'",
    Geom::Rect,
    "one flat page, not a stack of wavy ones",
);
static TAGGED_DOCUMENT: Shape = near(
    "tagged document 'tag-doc'",
    Geom::Rect,
    "without its wavy lower edge and corner tag",
);
static DELAY: Shape = near(
    "delay 'delay'",
    Geom::Rounded,
    "with rounded corners, not one round end",
);
static HORIZONTAL_CYLINDER: Shape = near(
    "horizontal cylinder 'h-cyl'",
    Geom::Cylinder,
    "standing, not lying",
);
static LINED_CYLINDER: Shape = near(
    "lined cylinder 'lin-cyl'",
    Geom::Cylinder,
    "without its extra rim line",
);
static DISPLAY: Shape = near(
    "display 'curv-trap'",
    Geom::Hexagon,
    "pointed at both ends, not curved on the right",
);
static DIVIDED_RECT: Shape = near(
    "divided rectangle 'div-rect'",
    Geom::Rect,
    "without its dividing line",
);
static WINDOW_PANE: Shape = near(
    "window pane 'win-pane'",
    Geom::Rect,
    "without its inner lines",
);
static FILLED_CIRCLE: Shape = round("filled circle 'f-circ'", Some("outlined, not filled"));
static LOOP_LIMIT: Shape = near(
    "loop limit 'notch-pent'",
    Geom::Hexagon,
    "pointed at both sides, not cut at the top corners",
);
static MANUAL_INPUT: Shape = near(
    "manual input 'sl-rect'",
    Geom::Parallelogram,
    "slanted at the sides, not sloped on top",
);
static STACKED_RECT: Shape = near(
    "stacked rectangle 'st-rect'",
    Geom::Rect,
    "one box, not a stack",
);
static STORED_DATA: Shape = near(
    "stored data 'bow-rect'",
    Geom::Rounded,
    "with rounded corners, not curved ends",
);
static CROSSED_CIRCLE: Shape = round("crossed circle 'cross-circ'", Some("without its cross"));
static TAGGED_RECT: Shape = near(
    "tagged rectangle 'tag-rect'",
    Geom::Rect,
    "without its corner tag",
);
static PAPER_TAPE: Shape = near("paper tape 'flag'", Geom::Rect, "without its wavy edges");
static CLASS_BOX: Shape = near(
    "class box 'classBox'",
    Geom::Rect,
    "without its compartments",
);

/// Every v11 name, Mermaid's short name first, then its aliases (compared
/// without regard to case).
static NAMED: &[(&[&str], &Shape)] = &[
    (
        &["rect", "proc", "process", "rectangle", "squarerect"],
        &RECT,
    ),
    (&["rounded", "event", "roundedrect", "state"], &ROUNDED),
    (&["stadium", "terminal", "pill"], &STADIUM),
    (
        &[
            "fr-rect",
            "subprocess",
            "subproc",
            "framed-rectangle",
            "subroutine",
        ],
        &SUBROUTINE,
    ),
    (&["cyl", "db", "database", "cylinder"], &CYLINDER),
    (&["circle", "circ"], &CIRCLE),
    (
        &["diam", "decision", "diamond", "question", "choice"],
        &RHOMBUS,
    ),
    (&["hex", "hexagon", "prepare"], &HEXAGON),
    (
        &["lean-r", "lean-right", "in-out", "lean_right"],
        &LEAN_RIGHT,
    ),
    (&["lean-l", "lean-left", "out-in", "lean_left"], &LEAN_LEFT),
    (
        &["trap-b", "priority", "trapezoid-bottom", "trapezoid"],
        &TRAPEZOID,
    ),
    (
        &[
            "trap-t",
            "manual",
            "trapezoid-top",
            "inv-trapezoid",
            "inv_trapezoid",
        ],
        &INV_TRAPEZOID,
    ),
    (
        &["dbl-circ", "double-circle", "doublecircle"],
        &DOUBLE_CIRCLE,
    ),
    (&["text"], &TEXT),
    (&["notch-rect", "card", "notched-rectangle"], &NOTCHED_RECT),
    (
        &[
            "lin-rect",
            "lined-rectangle",
            "lined-process",
            "lin-proc",
            "shaded-process",
        ],
        &LINED_RECT,
    ),
    (
        &["sm-circ", "start", "small-circle", "statestart"],
        &SMALL_CIRCLE,
    ),
    (
        &["fr-circ", "stop", "framed-circle", "stateend"],
        &FRAMED_CIRCLE,
    ),
    (&["fork", "join", "forkjoin"], &FORK),
    (&["hourglass", "collate"], &HOURGLASS),
    (&["brace", "comment", "brace-l"], &BRACE),
    (&["brace-r"], &BRACE_RIGHT),
    (&["braces"], &BRACES),
    (&["bolt", "com-link", "lightning-bolt"], &BOLT),
    (&["doc", "document"], &DOCUMENT),
    (&["delay", "half-rounded-rectangle"], &DELAY),
    (
        &["h-cyl", "das", "horizontal-cylinder"],
        &HORIZONTAL_CYLINDER,
    ),
    (&["lin-cyl", "disk", "lined-cylinder"], &LINED_CYLINDER),
    (&["curv-trap", "curved-trapezoid", "display"], &DISPLAY),
    (
        &[
            "div-rect",
            "div-proc",
            "divided-rectangle",
            "divided-process",
        ],
        &DIVIDED_RECT,
    ),
    (&["tri", "extract", "triangle"], &TRIANGLE),
    (
        &["win-pane", "internal-storage", "window-pane"],
        &WINDOW_PANE,
    ),
    (&["f-circ", "junction", "filled-circle"], &FILLED_CIRCLE),
    (
        &["notch-pent", "loop-limit", "notched-pentagon"],
        &LOOP_LIMIT,
    ),
    (
        &["flip-tri", "manual-file", "flipped-triangle"],
        &FLIPPED_TRIANGLE,
    ),
    (
        &["sl-rect", "manual-input", "sloped-rectangle"],
        &MANUAL_INPUT,
    ),
    (
        &["docs", "documents", "st-doc", "stacked-document"],
        &STACKED_DOCUMENT,
    ),
    (
        &["st-rect", "procs", "processes", "stacked-rectangle"],
        &STACKED_RECT,
    ),
    (
        &["bow-rect", "stored-data", "bow-tie-rectangle"],
        &STORED_DATA,
    ),
    (
        &["cross-circ", "summary", "crossed-circle"],
        &CROSSED_CIRCLE,
    ),
    (&["tag-doc", "tagged-document"], &TAGGED_DOCUMENT),
    (
        &["tag-rect", "tagged-rectangle", "tag-proc", "tagged-process"],
        &TAGGED_RECT,
    ),
    (&["flag", "paper-tape"], &PAPER_TAPE),
    (&["odd", "rect_left_inv_arrow"], &ODD),
    (&["lin-doc", "lined-document"], &LINED_DOCUMENT),
    (&["classbox", "class-box"], &CLASS_BOX),
    (&["note"], &NOTE),
    (&["cloud"], &CLOUD),
];

/// The shape a v11 `shape:` name names, if Mermaid (or inkboard) knows it.
pub fn named(name: &str) -> Option<&'static Shape> {
    let name = name.trim().to_ascii_lowercase();
    NAMED
        .iter()
        .find(|(names, _)| names.contains(&name.as_str()))
        .map(|(_, shape)| *shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_listed_once_in_lower_case() {
        let mut seen = std::collections::HashSet::new();
        for (names, _) in NAMED {
            for name in *names {
                assert_eq!(*name, name.to_ascii_lowercase());
                assert!(seen.insert(*name), "{name} twice");
            }
        }
    }

    #[test]
    fn a_shape_is_exact_or_says_what_it_loses() {
        for (_, shape) in NAMED {
            let exact = shape.lost.is_none();
            // An ellipse is a circle only with square bounds.
            assert!(
                !exact || shape.geom != Geom::Ellipse || shape.round,
                "{shape:?}"
            );
        }
        assert_eq!(named("Squarerect"), Some(&RECT));
        assert_eq!(named("nope"), None);
    }
}
