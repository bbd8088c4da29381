//! Mermaid entity-relationship diagrams (`erDiagram`), read into a typed [`Er`]
//! for `import_mermaid`, and a page of tables written back as one ([`to_er`]).
//!
//! The reader takes what Mermaid's documentation shows: entities named alone,
//! with an alias (`p[Person]`, `p["Person"]`), quoted (`"Line item"`) or with an
//! attribute block `{ ... }` (on its lines or on one line), attributes as
//! `type name`, then key marks (`PK`, `FK`, `UK`, several split by commas) and a
//! `"comment"`; relationships `A ||--o{ B : label` with every end Mermaid writes
//! (`|o`, `||`, `}o`, `}|` on the left, `o|`, `||`, `o{`, `|{` on the right),
//! identifying (`--`) or not (`..`), and their word forms (`only one to zero or
//! more`, `1+ optionally to 0+`, ...); `direction`, `%%` comments. What a board
//! does not draw (`classDef`, `class`, `style`, `:::`, `title`, `accTitle`,
//! `accDescr`, directives, front matter) becomes a [`Note`] with its line.
//!
//! Each entity becomes a table shape (`geom: "table"`): its name, then a row per
//! attribute, `type | name | keys | comment` (Mermaid's own order), whose text
//! [`Table`] reads. Each relationship becomes a connector with crow's-foot ends
//! ([`Arrow::One`] and the rest), solid when identifying and dashed when not.
//!
//! Limitations: an entity name is what Mermaid's lexer takes (letters, digits,
//! `-` and `_`) or a quoted string; a relationship must have spaces around its
//! symbol; a relationship without `: label` is taken with an empty label.

mod parse;
mod write;

pub(crate) use parse::is_er;
pub use parse::parse;
pub use write::{is_er_page, to_er};

use inkboard_core::{Arrow, Connector, Dash, End, Style, Table};

use super::{Counted, Direction, Note};

/// The most entities one import may make.
pub const MAX_ENTITIES: usize = 500;
/// The most relationships one import may make.
pub const MAX_RELATIONSHIPS: usize = 2000;

/// A parsed ER diagram: what the text says, resolved, before any geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct Er {
    /// `direction`, else top to bottom, as Mermaid lays ER diagrams out.
    pub direction: Direction,
    /// Every entity, in the order first mentioned.
    pub entities: Vec<Entity>,
    /// Every relationship, in the order written.
    pub relationships: Vec<Relationship>,
    /// What the text says that the import leaves out, in the order written.
    pub notes: Vec<Note>,
}

/// An entity: a table of attributes.
#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    /// The name relationships use.
    pub id: String,
    /// What its title shows: the alias in `[ ]`, else the name.
    pub label: String,
    pub attributes: Vec<Attribute>,
    /// The line it was first mentioned on.
    pub line: usize,
}

/// One attribute of an entity: a row of its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub kind: String,
    pub name: String,
    /// `PK`, `FK`, `UK`, in the order written.
    pub keys: Vec<String>,
    pub comment: String,
}

/// A relationship between two entities (indexes into [`Er::entities`]), with the
/// cardinality at each end as the crow's-foot end drawn there.
#[derive(Clone, Debug, PartialEq)]
pub struct Relationship {
    pub from: usize,
    pub to: usize,
    pub from_end: Arrow,
    pub to_end: Arrow,
    /// `--` (solid) rather than `..` (dashed).
    pub identifying: bool,
    pub label: String,
    pub line: usize,
}

impl Er {
    /// What a drawing of the diagram leaves out, counted by kind and message,
    /// in the order first written.
    pub fn report(&self) -> Vec<Counted> {
        super::report::count(self.notes.clone())
    }
}

impl Entity {
    /// The text of the entity's table shape: its name, then one row per
    /// attribute, `type | name | keys | comment`, trailing empty cells left out.
    pub fn table_text(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .attributes
            .iter()
            .map(|a| {
                let mut cells = vec![
                    a.kind.clone(),
                    a.name.clone(),
                    a.keys.join(", "),
                    a.comment.clone(),
                ];
                while cells.last().is_some_and(String::is_empty) {
                    cells.pop();
                }
                cells
            })
            .collect();
        Table {
            title: self.label.clone(),
            compartments: if rows.is_empty() {
                Vec::new()
            } else {
                vec![rows]
            },
        }
        .to_text()
    }
}

impl Relationship {
    /// The connector this relationship draws from `from` to `to`: its crow's-foot
    /// ends, dashed when non-identifying, its label as its text.
    pub fn connector(&self, from: End, to: End) -> Connector {
        let mut c = Connector::new(from, to);
        c.start_arrow = self.from_end;
        c.end_arrow = self.to_end;
        c.text = self.label.clone();
        if !self.identifying {
            c.style = Style {
                dash: Some(Dash::Dashed),
                ..Style::default()
            };
        }
        c
    }
}

/// The crow's-foot end a cardinality names, in symbols (`||`, `o{`...) or
/// words (`zero or more`, `1+`...); `left` when it is written on the left of
/// the line.
pub(crate) fn cardinality(word: &str, left: bool) -> Option<Arrow> {
    let symbol = if left {
        match word {
            "||" => Some(Arrow::One),
            "|o" => Some(Arrow::ZeroOrOne),
            "}|" => Some(Arrow::OneOrMany),
            "}o" => Some(Arrow::ZeroOrMany),
            _ => None,
        }
    } else {
        match word {
            "||" => Some(Arrow::One),
            "o|" => Some(Arrow::ZeroOrOne),
            "|{" => Some(Arrow::OneOrMany),
            "o{" => Some(Arrow::ZeroOrMany),
            _ => None,
        }
    };
    symbol.or_else(|| {
        let words: Vec<String> = word
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        match words.join(" ").as_str() {
            "only one" | "1" | "one" => Some(Arrow::One),
            "zero or one" | "one or zero" => Some(Arrow::ZeroOrOne),
            "one or more" | "one or many" | "many(1)" | "1+" => Some(Arrow::OneOrMany),
            "zero or more" | "zero or many" | "many(0)" | "0+" => Some(Arrow::ZeroOrMany),
            _ => None,
        }
    })
}

/// The symbol Mermaid writes for a crow's-foot end on the left or right of the
/// line: `many` (no lower bound drawn) as one or many, and an end that is no
/// cardinality at all as exactly one.
pub(crate) fn symbol(a: Arrow, left: bool) -> &'static str {
    match (a, left) {
        (Arrow::ZeroOrOne, true) => "|o",
        (Arrow::ZeroOrOne, false) => "o|",
        (Arrow::OneOrMany | Arrow::Many, true) => "}|",
        (Arrow::OneOrMany | Arrow::Many, false) => "|{",
        (Arrow::ZeroOrMany, true) => "}o",
        (Arrow::ZeroOrMany, false) => "o{",
        _ => "||",
    }
}
