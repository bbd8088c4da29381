//! JSON Schemas for tool arguments and results, generated from the Rust types and
//! made compact: every tool's schema goes to the client in `tools/list`, whose whole
//! answer must stay small, so nullable wrappers, titles and formats are dropped.
//! [`portable`] then bends them to the rules of the strictest model APIs that
//! clients forward them to.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// The compact schema of `T`, as a JSON object.
pub(crate) fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    compact(&mut value);
    match value {
        Value::Object(mut map) => {
            // The type's own doc comment speaks to Rust readers; the tool's
            // description speaks to the client.
            map.remove("description");
            map
        }
        _ => Map::new(),
    }
}

fn compact(value: &mut Value) {
    match value {
        Value::Object(map) => {
            // Under "properties" the keys are argument names, not keywords.
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                props.values_mut().for_each(compact);
            }
            map.remove("title");
            map.remove("format");
            map.remove("$schema");
            if map.get("minimum") == Some(&Value::from(0)) {
                map.remove("minimum");
            }
            // Unknown arguments are refused with a message naming them; the schema
            // need not say so on every tool.
            if map.contains_key("additionalProperties") {
                map.remove("additionalProperties");
            }
            if map.get("default") == Some(&Value::Null) {
                map.remove("default");
            }
            if map
                .get("required")
                .is_some_and(|r| r.as_array().is_some_and(|a| a.is_empty()))
            {
                map.remove("required");
            }
            // `Option<T>` becomes "T or null"; absent already means none here.
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types[0].clone();
                    map.insert("type".into(), only);
                }
            }
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(options)) = map.get_mut(key) {
                    options.retain(|o| o.get("type") != Some(&Value::String("null".into())));
                    if options.len() == 1 {
                        let only = options.pop().unwrap_or_default();
                        map.remove(key);
                        if let Value::Object(inner) = only {
                            for (k, v) in inner {
                                map.entry(k).or_insert(v);
                            }
                        }
                    }
                }
            }
            if let Some(Value::Array(e)) = map.get("enum") {
                if e.contains(&Value::Null) {
                    let kept: Vec<Value> = e.iter().filter(|v| !v.is_null()).cloned().collect();
                    map.insert("enum".into(), Value::Array(kept));
                }
            }
            for (k, v) in map.iter_mut() {
                if k != "properties" {
                    compact(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(compact),
        _ => {}
    }
}

/// The compact schema of a tool's result: like [`schema_of`], without
/// descriptions, since the field names and the tool's description say enough,
/// and with the fields' own fields left out (a nested object is an `object`, a
/// list of them a list of `object`s): a client checks the answer's shape by it,
/// no model reads it, and it counts in the `tools/list` budget.
pub(crate) fn output_schema_of<T: JsonSchema>() -> Map<String, Value> {
    let mut schema = rewritten(schema_of::<T>(), strip_descriptions);
    if let Some(Value::Object(fields)) = schema.get_mut("properties") {
        for field in fields.values_mut() {
            shallow(field);
            if let Some(items) = field.get_mut("items") {
                shallow(items);
            }
        }
    }
    schema
}

/// An object's schema without its fields: `{"type": "object"}`.
fn shallow(schema: &mut Value) {
    if let Value::Object(map) = schema {
        if map.remove("properties").is_some() {
            map.remove("additionalProperties");
            map.insert("type".into(), "object".into());
        }
    }
}

/// `schema` after `rewrite`, which walks it as a JSON value.
pub(crate) fn rewritten(
    schema: Map<String, Value>,
    rewrite: impl Fn(&mut Value),
) -> Map<String, Value> {
    let mut value = Value::Object(schema);
    rewrite(&mut value);
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn strip_descriptions(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("description").is_some_and(Value::is_string) {
                map.remove("description");
            }
            // Results always carry their fields; saying so costs bytes, not meaning.
            map.remove("required");
            map.values_mut().for_each(strip_descriptions);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_descriptions),
        _ => {}
    }
}

/// Rewrites `schema` within the subset that every model API takes, since MCP
/// clients hand input schemas on to the model's function declarations, and some
/// (Gemini's `parameters`, used by many clients and frameworks) refuse a whole
/// request for one declaration outside it: a list of types becomes an `anyOf` of
/// single types, and an `enum` of words says `"type": "string"`. What no rewrite
/// can fix (an object without `properties`, a bare `true` schema) is fixed where
/// the schema is written; `crates/inkboard/tests/schema_lint.rs` holds all of it.
pub(crate) fn portable(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Array(types)) = map.get("type") {
                let options: Vec<Value> = types
                    .iter()
                    .map(|t| {
                        let mut one = Map::new();
                        one.insert("type".into(), t.clone());
                        Value::Object(one)
                    })
                    .collect();
                map.remove("type");
                map.insert("anyOf".into(), Value::Array(options));
            }
            let words = map
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.iter().all(Value::is_string));
            if words && !map.contains_key("type") {
                map.insert("type".into(), Value::from("string"));
            }
            map.values_mut().for_each(portable);
        }
        Value::Array(items) => items.iter_mut().for_each(portable),
        _ => {}
    }
}
