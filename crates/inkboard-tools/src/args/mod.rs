//! Tools' arguments in one place: the types shared by tools (pages, ids,
//! colours, vocabulary words, points, styles and relative placement), each
//! parsing raw JSON into a validated value at the boundary and describing itself
//! with a compact JSON Schema; the checks of values serde's types do not make
//! ([`checks`]); the parsing of a call's JSON into a tool's argument type with
//! serde's wording made plain ([`parse`]); and what each argument name means,
//! said once for every schema ([`glossary`]). A tool's own argument struct stays
//! in its file under `tools/`, beside its effect.

mod checks;
pub(crate) mod glossary;
pub(crate) mod marks;
mod parse;

pub(crate) use checks::{
    check_nesting, end_label, finite, gap, label_at, positive, rotation, shown_number, side_on,
    waypoints,
};
pub(crate) use parse::{parse_args, plain_words};

use std::borrow::Cow;

use inkboard_core::echo::echo;
use inkboard_core::{
    Align, Board, Color, Dash, FillStyle, Font, ObjectId, PageId, Point, Style, VAlign, Vocabulary,
};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

use crate::tool::Cx;
use crate::ToolError;
use inkboard_arrange::place::{self, Relation, Side};
use inkboard_core::limits::MIN_SIZE;

/// A page, by number (from 1) or by name.
#[derive(Clone, Debug, PartialEq)]
pub enum PageRef {
    Number(u64),
    Name(String),
}

impl<'de> Deserialize<'de> for PageRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u64),
            Name(String),
        }
        match Raw::deserialize(d).map_err(|_| {
            serde::de::Error::custom("expected a page number (from 1) or a page name")
        })? {
            Raw::Number(n) => Ok(PageRef::Number(n)),
            Raw::Name(s) => Ok(PageRef::Name(s)),
        }
    }
}

impl JsonSchema for PageRef {
    fn schema_name() -> Cow<'static, str> {
        "PageRef".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"anyOf": [{"type": "integer"}, {"type": "string"}]})
    }
}

impl PageRef {
    /// The page `page` names, or the first page when it is absent: where a call
    /// without `page` acts.
    pub fn resolve_or_first(page: Option<&PageRef>, board: &Board) -> Result<PageId, ToolError> {
        match page {
            Some(p) => p.resolve(board),
            None => Ok(board.pages()[0].id),
        }
    }

    /// Finds the page on a board; the error lists the pages there are.
    pub fn resolve(&self, board: &Board) -> Result<PageId, ToolError> {
        let pages = board.pages();
        let found = match self {
            PageRef::Number(n) => (*n as usize).checked_sub(1).and_then(|i| pages.get(i)),
            PageRef::Name(name) => pages
                .iter()
                .find(|p| p.name == *name)
                .or_else(|| pages.iter().find(|p| p.name.eq_ignore_ascii_case(name)))
                .or_else(|| {
                    name.parse::<usize>()
                        .ok()
                        .and_then(|n| n.checked_sub(1))
                        .and_then(|i| pages.get(i))
                }),
        };
        found.map(|p| p.id).ok_or_else(|| {
            let names: Vec<String> = pages
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{} \"{}\"", i + 1, p.name))
                .collect();
            let what = match self {
                PageRef::Number(n) => format!("page {n}"),
                PageRef::Name(s) => format!("page \"{}\"", echo(s)),
            };
            ToolError::args(format!(
                "no {what} on this board: use one of {}",
                names.join(", ")
            ))
        })
    }
}

/// A word of a closed vocabulary (geom, arrow, route...), parsed into its enum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Word<T>(pub T);

impl<'de, T: Vocabulary> Deserialize<'de> for Word<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        T::parse(&s).map(Word).map_err(serde::de::Error::custom)
    }
}

impl<T: Vocabulary> JsonSchema for Word<T> {
    fn schema_name() -> Cow<'static, str> {
        T::WHAT.into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let words: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
        json_schema!({"enum": words})
    }
}

/// A colour: CSS hex, a palette name or a CSS colour name ([`Color::parse`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColorArg(pub Color);

impl<'de> Deserialize<'de> for ColorArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Color::parse(&s)
            .map(ColorArg)
            .map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for ColorArg {
    fn schema_name() -> Cow<'static, str> {
        "Color".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string"})
    }
}

/// An object id as given; checked against the board with [`IdArg::resolve`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct IdArg(pub String);

impl JsonSchema for IdArg {
    fn schema_name() -> Cow<'static, str> {
        "Id".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string"})
    }
}

impl IdArg {
    /// The id of an object that exists on the board; `arg` names the argument in
    /// the error.
    pub fn resolve(&self, board: &Board, arg: &str) -> Result<ObjectId, ToolError> {
        let missing = || {
            ToolError::args(format!(
                "'{arg}' refers to no object: \"{}\"",
                echo(&self.0)
            ))
        };
        let id = ObjectId::parse(&self.0).map_err(|_| missing())?;
        if board.locate(&id).is_none() {
            return Err(missing());
        }
        Ok(id)
    }

    /// Resolves a list of ids, refusing an empty list and repeats.
    pub fn resolve_all(
        ids: &[IdArg],
        board: &Board,
        arg: &str,
    ) -> Result<Vec<ObjectId>, ToolError> {
        if ids.is_empty() {
            return Err(ToolError::args(format!(
                "'{arg}' is empty: give at least one object id"
            )));
        }
        let mut out: Vec<ObjectId> = Vec::with_capacity(ids.len());
        for id in ids {
            let id = id.resolve(board, arg)?;
            if !out.contains(&id) {
                out.push(id);
            }
        }
        Ok(out)
    }
}

/// A point `{"x", "y"}`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PointArg {
    pub x: f64,
    pub y: f64,
}

impl From<PointArg> for Point {
    fn from(p: PointArg) -> Point {
        Point { x: p.x, y: p.y }
    }
}

/// A connector end: an object id or a free point.
#[derive(Clone, Debug, PartialEq)]
pub enum EndArg {
    Object(IdArg),
    Point(PointArg),
}

impl<'de> Deserialize<'de> for EndArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Object(IdArg),
            Point(PointArg),
        }
        // Untagged enums only say that nothing matched; say what would.
        match Raw::deserialize(d).map_err(|e: D::Error| {
            if e.to_string().starts_with("data did not match") {
                serde::de::Error::custom(
                    "expected an object id like \"s1\" or a point like {\"x\": 0, \"y\": 0}",
                )
            } else {
                e
            }
        })? {
            Raw::Object(id) => Ok(EndArg::Object(id)),
            Raw::Point(p) => Ok(EndArg::Point(p)),
        }
    }
}

impl JsonSchema for EndArg {
    fn schema_name() -> Cow<'static, str> {
        "End".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // Spelled out as `anyOf`, with the point's properties: model APIs refuse
        // type lists and objects without properties (see `schema::portable`).
        json_schema!({"anyOf": [
            {"type": "string"},
            {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}
        ]})
    }
}

/// The style arguments shared by the tools that create or update objects.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, JsonSchema)]
pub struct StyleArgs {
    pub fill: Option<ColorArg>,
    pub stroke: Option<ColorArg>,
    pub stroke_width: Option<f64>,
    pub dash: Option<Word<Dash>>,
    pub font_size: Option<f64>,
    pub text_color: Option<ColorArg>,
    pub align: Option<Word<Align>>,
    pub valign: Option<Word<VAlign>>,
    pub font: Option<Word<Font>>,
    /// 0 to 1.
    pub opacity: Option<f64>,
    pub roughness: Option<f64>,
    pub fill_style: Option<Word<FillStyle>>,
}

impl StyleArgs {
    /// The error of the first flattened argument in `args` (a style argument or a
    /// [`Relative`] one) that does not parse, naming it: a flatten hides the
    /// argument's name from serde.
    pub(crate) fn culprit(args: &serde_json::Map<String, serde_json::Value>) -> Option<ToolError> {
        culprit_in::<StyleArgs>(args, &Style::FIELDS)
            .or_else(|| culprit_in::<Relative>(args, &Relative::FIELDS))
    }

    /// The style these arguments set, checked.
    pub fn to_style(&self) -> Result<Style, ToolError> {
        positive("font_size", self.font_size)?;
        // 0 draws no line; a width next to 0 would be saved as 0 all the same. The
        // style's own check says the rest of the range.
        if let Some(v) = self.stroke_width.filter(|v| *v > 0.0 && *v < MIN_SIZE) {
            return Err(ToolError::args(format!(
                "'stroke_width' must be 0 (no line) or from {MIN_SIZE} to 1000, got {}",
                shown_number(v)
            )));
        }
        let style = Style {
            fill: self.fill.map(|c| c.0),
            stroke: self.stroke.map(|c| c.0),
            stroke_width: self.stroke_width,
            dash: self.dash.map(|w| w.0),
            font_size: self.font_size,
            text_color: self.text_color.map(|c| c.0),
            align: self.align.map(|w| w.0),
            valign: self.valign.map(|w| w.0),
            font: self.font.map(|w| w.0),
            opacity: self.opacity,
            roughness: self.roughness,
            fill_style: self.fill_style.map(|w| w.0),
        };
        style.validate()?;
        Ok(style)
    }
}

/// The error of the first of `fields` in `args` that does not parse as part of `T`.
fn culprit_in<T: DeserializeOwned>(
    args: &serde_json::Map<String, serde_json::Value>,
    fields: &[&str],
) -> Option<ToolError> {
    args.iter()
        .filter(|(key, _)| fields.contains(&key.as_str()))
        .find_map(|(key, value)| {
            let alone =
                serde_json::Value::Object([(key.clone(), value.clone())].into_iter().collect());
            // In the plain words of [`parse_args`].
            T::deserialize(&alone).err().map(|e| {
                let e = plain_words(&e.to_string());
                ToolError::args(format!("'{key}': {e}"))
            })
        })
}

/// Relative placement, flattened into the arguments of `add_shape`, `move` and
/// `duplicate`: beside an object (`right_of`, `left_of`, `below`, `above`, `gap`
/// apart, default 40) and/or into a frame (`inside`). [`Relative::resolve`] checks
/// it; [`place::relative`] finds the place (and says how: taken spots, frames).
///
/// The fields carry no doc comments on purpose: the names say enough, and
/// `tools/list` has no bytes to spare.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, JsonSchema)]
pub struct Relative {
    pub right_of: Option<IdArg>,
    pub left_of: Option<IdArg>,
    pub below: Option<IdArg>,
    pub above: Option<IdArg>,
    pub gap: Option<f64>,
    pub inside: Option<IdArg>,
}

impl Relative {
    /// The argument names, for error messages lost in the flatten.
    pub const FIELDS: [&'static str; 6] =
        ["right_of", "left_of", "below", "above", "gap", "inside"];

    /// True when a side (`right_of`, `left_of`, `below`, `above`) is given.
    pub fn has_side(&self) -> bool {
        self.sides().next().is_some()
    }

    fn sides(&self) -> impl Iterator<Item = (&IdArg, Side, &'static str)> {
        [
            (&self.right_of, Side::Right, "right_of"),
            (&self.left_of, Side::Left, "left_of"),
            (&self.below, Side::Below, "below"),
            (&self.above, Side::Above, "above"),
        ]
        .into_iter()
        .filter_map(|(id, side, name)| id.as_ref().map(|id| (id, side, name)))
    }

    /// Checks the arguments against the call's page: `None` when neither a side
    /// nor `inside` is given. `placed` are the objects placed (what `move` moves or
    /// `duplicate` copies): they must be on that page too. `moving` are the
    /// objects that leave their place (what `move` moves, with what moves along):
    /// they cannot be the reference or the frame. [`place::relative`] then says
    /// where a box goes.
    pub fn resolve(
        &self,
        cx: &Cx<'_, '_>,
        placed: &[ObjectId],
        moving: &[ObjectId],
    ) -> Result<Option<Relation>, ToolError> {
        let mut sides = self.sides();
        let side = sides.next();
        if sides.next().is_some() {
            return Err(ToolError::args(
                "give only one of right_of, left_of, below, above",
            ));
        }
        let gap = gap("gap", self.gap)?;
        if gap.is_some() && side.is_none() {
            return Err(ToolError::args(
                "'gap' goes with right_of, left_of, below or above",
            ));
        }
        let gap = gap.unwrap_or(place::GAP);
        // An object that moves along cannot say where the move goes.
        let staying = |id: &ObjectId, arg: &str, what: &str| {
            if moving.contains(id) {
                Err(ToolError::args(format!(
                    "'{arg}': \"{id}\" is being moved too: give {what} that stays"
                )))
            } else {
                Ok(())
            }
        };
        let beside = match side {
            Some((id, side, arg)) => {
                let id = id.resolve(cx.board(), arg)?;
                cx.on_page(&id, arg)?;
                staying(&id, arg, "an object")?;
                let bounds = cx.board().bounds(&id).ok_or_else(|| {
                    ToolError::args(format!("'{arg}': \"{id}\" has no extent to place by"))
                })?;
                Some((id, bounds, side))
            }
            None => None,
        };
        let inside = match &self.inside {
            Some(frame) => {
                let frame = frame.resolve(cx.board(), "inside")?;
                cx.on_page(&frame, "inside")?;
                if !cx.board().object(&frame).is_some_and(|o| o.is_frame()) {
                    return Err(ToolError::args(format!(
                        "'inside': \"{frame}\" is not a frame: give the id of a shape with geom frame"
                    )));
                }
                staying(&frame, "inside", "a frame")?;
                Some(frame)
            }
            None => None,
        };
        if beside.is_none() && inside.is_none() {
            return Ok(None);
        }
        for id in placed {
            cx.on_page(id, "ids")?;
        }
        Ok(Some(Relation {
            beside,
            gap,
            inside,
        }))
    }
}
