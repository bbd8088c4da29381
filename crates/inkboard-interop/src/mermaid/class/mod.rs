//! Mermaid class diagrams (`classDiagram`), read into a typed [`ClassDiagram`]
//! for `import_mermaid`, and a page of classes written back as one
//! ([`to_class`]).
//!
//! The reader takes what Mermaid's documentation shows: classes declared with
//! `class` (with a `["label"]`, a generic `~T~`, an annotation `<<interface>>`,
//! a member block `{ ... }`), by `Class : +member` lines or by a relation;
//! annotations on a line of their own (`<<interface>> Shape`) or in the block;
//! every relation Mermaid writes (`<|--`, `*--`, `o--`, `-->`, `--`, `..>`,
//! `..|>`, `..`, the lollipop `()--`, either way round and two-way) with
//! cardinalities in quotes on either side and a `: label`; `namespace Name { }`;
//! `note "text"` and `note for Class "text"`; `direction`; `%%` comments. What a
//! board does not draw (`classDef`, `style`, `cssClass`, `:::`, `click`, `link`,
//! `callback`, `title`, `accTitle`, `accDescr`, directives, front matter)
//! becomes a [`Note`] with its line.
//!
//! Each class becomes a table shape (`geom: "table"`, [`Table`]): its title the
//! name (a generic `List~T~` shown as `List<T>`) after its annotation
//! (`<<interface>> Shape`, drawn above the name), then the attributes, a `---`,
//! the methods (members with `(`), one row each, as written (visibility marks,
//! `$` and `*` classifiers). Each relation becomes a connector whose ends are
//! the UML ends ([`Arrow::HollowTriangle`], [`Arrow::Diamond`],
//! [`Arrow::HollowDiamond`], [`Arrow::Arrow`]), dashed for `..`, with the
//! cardinalities as its end labels and the label as its text.
//!
//! A page is written as a class diagram rather than an ER one when one of its
//! tables is a class ([`Table::is_class`]: it has an annotation or a methods
//! compartment); see [`is_class_page`].
//!
//! Limitations: generics with a comma (`Map~K, V~`) are kept as written, as
//! Mermaid does not read them either; a member holding `|` splits into cells of
//! its row; `$` (static) and `*` (abstract) are not drawn underlined or in
//! italics, they stay as written; a lollipop interface is drawn as a circle end.

mod parse;
mod write;

pub(crate) use parse::is_class;
pub use parse::parse;
pub use write::{is_class_page, to_class};

use inkboard_core::{Arrow, Connector, Dash, End, Style, Table};

use super::{Counted, Direction, Note};

/// The most classes one import may make.
pub const MAX_CLASSES: usize = 500;
/// The most relations one import may make.
pub const MAX_RELATIONS: usize = 2000;

/// A parsed class diagram: what the text says, resolved, before any geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassDiagram {
    /// `direction`, else top to bottom, as Mermaid lays class diagrams out.
    pub direction: Direction,
    /// Every class, in the order first mentioned.
    pub classes: Vec<Class>,
    /// Every relation, in the order written.
    pub relations: Vec<Relation>,
    /// Every namespace, in the order opened.
    pub namespaces: Vec<Namespace>,
    /// The `note` lines, drawn as sticky notes.
    pub stickies: Vec<Sticky>,
    /// What the text says that the import leaves out, in the order written.
    pub notes: Vec<Note>,
}

/// A class: a name, an annotation, attributes and methods.
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    /// The name relations use (without its generic part).
    pub id: String,
    /// What its title shows: the `["label"]`, else the name with its generic
    /// part as `<T>`.
    pub label: String,
    /// The annotation between `<<` and `>>` (`interface`), if any.
    pub annotation: Option<String>,
    /// Members without `(`, as written, generics as `<T>`.
    pub attributes: Vec<String>,
    /// Members with `(`.
    pub methods: Vec<String>,
    /// The namespace it is declared in (index into [`ClassDiagram::namespaces`]).
    pub namespace: Option<usize>,
    /// The line it was first mentioned on.
    pub line: usize,
}

/// A relation between two classes (indexes into [`ClassDiagram::classes`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Relation {
    pub from: usize,
    pub to: usize,
    /// The end drawn at `from` (what is written left of the line) and at `to`.
    pub from_end: Arrow,
    pub to_end: Arrow,
    /// `..` rather than `--`.
    pub dashed: bool,
    /// The cardinalities written in quotes before and after the relation.
    pub from_cardinality: String,
    pub to_cardinality: String,
    pub label: String,
    pub line: usize,
}

/// A `namespace` block: a frame around its classes.
#[derive(Clone, Debug, PartialEq)]
pub struct Namespace {
    pub name: String,
    /// The namespace it is nested in: always an earlier one.
    pub parent: Option<usize>,
    pub line: usize,
}

/// A `note`: a sticky note, joined to its class when it is `note for`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sticky {
    /// Its text, line breaks (`<br>`, `\n`) made real.
    pub text: String,
    /// The class it is for (index into [`ClassDiagram::classes`]).
    pub class: Option<usize>,
    pub line: usize,
}

impl ClassDiagram {
    /// What a drawing of the diagram leaves out, counted by kind and message,
    /// in the order first written.
    pub fn report(&self) -> Vec<Counted> {
        super::report::count(self.notes.clone())
    }
}

impl Class {
    /// The text of the class's table shape: its title (the annotation, then the
    /// label), the attributes, `---`, the methods, a member a row.
    pub fn table_text(&self) -> String {
        let rows = |members: &[String]| -> Vec<Vec<String>> {
            members.iter().map(|m| vec![m.clone()]).collect()
        };
        let title = match &self.annotation {
            Some(a) => format!("<<{a}>> {}", self.label),
            None => self.label.clone(),
        };
        Table {
            title,
            compartments: vec![rows(&self.attributes), rows(&self.methods)],
        }
        .to_text()
    }
}

impl Relation {
    /// The connector this relation draws from `from` to `to`: its UML ends,
    /// dashed for `..`, the cardinalities as end labels, the label as its text.
    pub fn connector(&self, from: End, to: End) -> Connector {
        let mut c = Connector::new(from, to);
        c.start_arrow = self.from_end;
        c.end_arrow = self.to_end;
        c.text = self.label.clone();
        c.set_end_label(true, self.from_cardinality.clone());
        c.set_end_label(false, self.to_cardinality.clone());
        if self.dashed {
            c.style = Style {
                dash: Some(Dash::Dashed),
                ..Style::default()
            };
        }
        c
    }
}

/// The end a relation's head names, written left of the line (`<|`, `*`, `o`,
/// `<`, `()`) or right of it (`|>`, `*`, `o`, `>`, `()`).
pub(crate) fn head(token: &str) -> Option<Arrow> {
    Some(match token {
        "" => Arrow::None,
        "<|" | "|>" => Arrow::HollowTriangle,
        "*" => Arrow::Diamond,
        "o" => Arrow::HollowDiamond,
        "<" | ">" => Arrow::Arrow,
        "()" => Arrow::Circle,
        _ => return None,
    })
}

/// The head Mermaid writes for an end, left or right of the line; an end it has
/// no head for (a crow's foot, a bar) as an association's arrow.
pub(crate) fn head_token(a: Arrow, left: bool) -> &'static str {
    match (a, left) {
        (Arrow::None, _) => "",
        (Arrow::HollowTriangle | Arrow::Triangle, true) => "<|",
        (Arrow::HollowTriangle | Arrow::Triangle, false) => "|>",
        (Arrow::Diamond, _) => "*",
        (Arrow::HollowDiamond, _) => "o",
        (Arrow::Circle | Arrow::Dot, _) => "()",
        (_, true) => "<",
        (_, false) => ">",
    }
}

/// `List~int~` as `List<int>`: a `~` between a word and what follows opens a
/// generic, any other closes the one open; a `~` with none open (a package
/// visibility mark, `~int id`) stays.
pub fn generics(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut open = 0usize;
    for (i, &c) in chars.iter().enumerate() {
        if c != '~' {
            out.push(c);
            continue;
        }
        let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
        let opens = i > 0 && word(chars.get(i - 1)) && word(chars.get(i + 1));
        if opens {
            open += 1;
            out.push('<');
        } else if open > 0 {
            open -= 1;
            out.push('>');
        } else {
            out.push('~');
        }
    }
    out
}

/// `List<int>` as Mermaid writes it, `List~int~` (the other way from
/// [`generics`]).
pub fn tildes(text: &str) -> String {
    text.replace(['<', '>'], "~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generics_nest_and_a_visibility_mark_stays() {
        assert_eq!(generics("List~int~ position"), "List<int> position");
        assert_eq!(
            generics("+getDistanceMatrix() List~List~int~~"),
            "+getDistanceMatrix() List<List<int>>"
        );
        assert_eq!(generics("~int packageField"), "~int packageField");
        assert_eq!(generics("Square~Shape~"), "Square<Shape>");
        assert_eq!(tildes("List<List<int>>"), "List~List~int~~");
    }

    #[test]
    fn heads_both_ways() {
        for (t, left) in [("<|", true), ("|>", false), ("*", true), ("o", false)] {
            let a = head(t).expect("a head");
            assert_eq!(head_token(a, left), t);
        }
    }
}
