//! What each argument name means, said once for every tool that takes it. Model
//! APIs and clients show a property's `description` beside its name, so every
//! argument needs one; writing "Left, px" on each of five tools' `x` would say the
//! same thing five times in the code and let the copies drift. A tool whose
//! argument means something else under a common name (`find`'s `text`, `order`'s
//! `to`) says so in a doc comment on its field, which wins over this list.
//!
//! The words are short on purpose: everything here goes to the model with every
//! `tools/list`, inside a budget (see "The tools/list budget" in
//! `docs/performance.md`).

use serde_json::{Map, Value};

/// Argument name → its description. Units are board units (px at 100% zoom).
/// No default is said here: `update` takes the same style words as `add_shape`
/// and has none (only what is given changes); the adding tools say theirs.
const GLOSSARY: &[(&str, &str)] = &[
    ("path", "Board file"),
    ("page", "Number or name"),
    ("x", "Left, px"),
    ("y", "Top, px"),
    ("w", "Width, px"),
    ("h", "Height, px"),
    ("rotation", "Degrees, clockwise"),
    ("geom", "Shape kind"),
    ("text", "Label"),
    ("fill", "Fill colour"),
    ("stroke", "Line colour"),
    ("stroke_width", "Line width, px"),
    ("dash", "Line style"),
    ("font_size", "Text size, px"),
    ("text_color", "Text colour"),
    ("align", "Text alignment"),
    ("valign", "Vertical alignment"),
    ("font", "sans, serif, mono or hand"),
    ("opacity", "0 to 1"),
    ("roughness", "Hand-drawn look, 0 to 2"),
    ("fill_style", "Fill pattern"),
    ("right_of", "Object id"),
    ("left_of", "Object id"),
    ("below", "Object id"),
    ("above", "Object id"),
    ("gap", "Space, px"),
    ("inside", "Frame id"),
    ("id", "Object id"),
    ("ids", "Object ids"),
    ("from", "Id or {x,y}"),
    ("to", "Id or {x,y}"),
    ("route", "Line path"),
    ("start_arrow", "Start head"),
    ("end_arrow", "End head"),
    ("waypoints", "Bends [[x,y],...]; [] auto"),
    ("label_at", "Label place 0-1; null auto"),
    ("from_side", "Start's side"),
    ("to_side", "End's side"),
    ("merge", "Shared trunk"),
    ("start_label", "Text by the start, e.g. 1"),
    ("end_label", "Text by the end, e.g. 0..*"),
    ("color", "Ink colour"),
    ("width", "Ink width, px"),
    ("locked", "Keep in place"),
    ("link", "http(s) or mailto URL; \"\" removes"),
    (
        "icon",
        "Icon: database, server, cloud, user, lock, queue, mail, browser...; \"\" removes",
    ),
    ("flip_x", "Mirror left-right"),
    ("flip_y", "Mirror up-down"),
    ("background", "Default solid"),
    ("points", "[[x,y],...]"),
    ("source", "Image file"),
    ("data", "data: URL"),
    ("dx", "px right"),
    ("dy", "px down"),
    ("name", "Page name"),
    ("title", "Board title"),
    ("pages", "Page names"),
    ("overwrite", "Replace a file"),
    ("since", "A revision"),
    ("output", "File to write"),
    ("region", "Part of the page"),
    ("theme", "Default light"),
    ("type", "Object type"),
    ("edge", "Edge or centre line"),
    ("axis", "Direction to spread"),
    ("algorithm", "Kind of layout"),
    ("direction", "Flow direction"),
    ("spacing", "Gap, px"),
    ("tool", "A tool's name"),
    ("args", "Its arguments"),
];

/// Gives every property under `schema` without a description the glossary's.
pub(crate) fn describe(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                describe_properties(props);
            }
            for (key, value) in map.iter_mut() {
                if key != "properties" {
                    describe(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(describe),
        _ => {}
    }
}

fn describe_properties(props: &mut Map<String, Value>) {
    for (name, prop) in props.iter_mut() {
        if let Value::Object(p) = prop {
            if !p.contains_key("description") {
                if let Some((_, text)) = GLOSSARY.iter().find(|(n, _)| n == name) {
                    p.insert("description".into(), Value::from(*text));
                }
            }
        }
        describe(prop);
    }
}
