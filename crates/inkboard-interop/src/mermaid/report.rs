//! What a diagram's drawing leaves out or draws otherwise, counted: the
//! notes of an import's answer, so that nothing is lost without a word.

use inkboard_core::Vocabulary;

use super::{Flowchart, Head, Note, NoteKind, Stroke};

/// At most this many lines are listed for a note; its count says how many more.
pub const MAX_LINES_LISTED: usize = 10;

/// Notes of one kind and message, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    pub kind: NoteKind,
    pub message: String,
    /// How many times the text says it.
    pub count: usize,
    /// The first lines it is on (at most [`MAX_LINES_LISTED`]).
    pub lines: Vec<usize>,
}

impl Flowchart {
    /// What a drawing of the chart leaves out or draws otherwise: the parser's
    /// notes, a note for each node drawn with the nearest geom and for each cross
    /// end, counted by kind and message, in the order first written.
    pub fn report(&self) -> Vec<Counted> {
        let chart = self;
        let shapes = chart.nodes.iter().filter_map(|n| {
            let lost = n.shape.lost?;
            Some(Note {
                kind: NoteKind::Shape,
                line: n.line,
                message: format!("{} drawn as {}, {lost}", n.shape.label, n.shape.geom.name()),
            })
        });
        let crosses = chart
            .edges
            .iter()
            .filter(|e| e.stroke != Stroke::Invisible)
            .filter(|e| e.start == Head::Cross || e.end == Head::Cross)
            .map(|e| Note {
                kind: NoteKind::Link,
                line: e.line,
                message: "cross end 'x' drawn as a diamond: a board has no cross".into(),
            });
        let all: Vec<Note> = chart
            .notes
            .iter()
            .cloned()
            .chain(shapes)
            .chain(crosses)
            .collect();
        count(all)
    }
}

/// Notes counted by kind and message, in the order of their lines (the order
/// first written).
pub(super) fn count(mut all: Vec<Note>) -> Vec<Counted> {
    all.sort_by_key(|n| n.line);
    let mut out: Vec<Counted> = Vec::new();
    // Where each kind and message is in `out`: a client writes the messages, so
    // a search of `out` for each would be quadratic in them.
    let mut at: std::collections::HashMap<(NoteKind, String), usize> =
        std::collections::HashMap::new();
    for note in all {
        let kind = note.kind;
        let key = (kind, note.message);
        match at.get(&key).map(|&i| &mut out[i]) {
            Some(o) => {
                o.count += 1;
                if o.lines.len() < MAX_LINES_LISTED && o.lines.last() != Some(&note.line) {
                    o.lines.push(note.line);
                }
            }
            None => {
                out.push(Counted {
                    kind,
                    message: key.1.clone(),
                    count: 1,
                    lines: vec![note.line],
                });
                at.insert(key, out.len() - 1);
            }
        }
    }
    out
}
