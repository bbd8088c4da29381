//! Batch references: a string that is exactly `$N.key[.key...]` stands for a value
//! of the result of an earlier operation N (batch.md, point 3). This module finds
//! them at any depth of an operation's arguments and replaces them, or says which
//! reference failed and what was there instead.

use inkboard_core::echo::echo;
use serde_json::Value;

/// Parses `s` as a reference: the operation index and the path segments.
/// Strings that do not match `^\$[0-9]+(\.[^.]+)+$` as a whole are not references.
pub(crate) fn parse(s: &str) -> Option<(usize, Vec<&str>)> {
    let rest = s.strip_prefix('$')?;
    let mut parts = rest.split('.');
    let index = parts.next()?;
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let segments: Vec<&str> = parts.collect();
    if segments.is_empty() || segments.iter().any(|s| s.is_empty()) {
        return None;
    }
    // An index too large for usize can only be "later than this operation".
    Some((index.parse().unwrap_or(usize::MAX), segments))
}

/// Replaces every reference in `value` with what it names in `results`, where
/// `results[i]` is the result of operation i and `current` is the index of the
/// operation being prepared.
pub(crate) fn resolve(value: &mut Value, results: &[Value], current: usize) -> Result<(), String> {
    match value {
        Value::String(s) => {
            if let Some((n, segments)) = parse(s) {
                *value = lookup(s, n, &segments, results, current)?;
            }
            Ok(())
        }
        Value::Array(items) => items
            .iter_mut()
            .try_for_each(|v| resolve(v, results, current)),
        Value::Object(map) => map
            .values_mut()
            .try_for_each(|v| resolve(v, results, current)),
        _ => Ok(()),
    }
}

fn lookup(
    reference: &str,
    n: usize,
    segments: &[&str],
    results: &[Value],
    current: usize,
) -> Result<Value, String> {
    // Quoted back shortened: a reference can be as long as the client likes.
    let reference = echo(reference);
    if n >= current {
        let which = if n == current {
            "this operation itself"
        } else {
            "a later operation"
        };
        let earlier = match current {
            0 => "the first operation has no earlier result to use: give the value itself"
                .to_string(),
            1 => "a reference may only use the result of an earlier operation, here $0".to_string(),
            _ => format!(
                "a reference may only use the result of an earlier operation ($0 to ${})",
                current - 1
            ),
        };
        return Err(format!(
            "reference \"{reference}\" names {which}: {earlier}"
        ));
    }
    let mut at = results
        .get(n)
        .ok_or_else(|| format!("reference \"{reference}\": operation {n} has no result"))?;
    let mut walked = format!("${n}");
    for &segment in segments {
        at = match at {
            Value::Object(map) => map.get(segment).ok_or_else(|| {
                let keys: Vec<&str> = map.keys().map(String::as_str).collect();
                format!(
                    "reference \"{reference}\": {walked} has no key \"{}\" (it has: {})",
                    echo(segment),
                    if keys.is_empty() {
                        "no keys".to_string()
                    } else {
                        keys.join(", ")
                    }
                )
            })?,
            Value::Array(items) => {
                let i: usize = segment.parse().map_err(|_| {
                    format!("reference \"{reference}\": {walked} is a list, so \"{}\" must be an index from 0", echo(segment))
                })?;
                items.get(i).ok_or_else(|| {
                    format!("reference \"{reference}\": {walked} has {} items, so index {i} is past its end", items.len())
                })?
            }
            other => {
                return Err(format!(
                    "reference \"{reference}\": {walked} is {}, which has no \"{}\"",
                    describe(other),
                    echo(segment)
                ))
            }
        };
        walked.push('.');
        walked.push_str(segment);
    }
    Ok(at.clone())
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{}\"", echo(s)),
        Value::Array(_) | Value::Object(_) => "a value".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_whole_strings_are_references() {
        assert_eq!(parse("$0.id"), Some((0, vec!["id"])));
        assert_eq!(parse("$3.ids.1"), Some((3, vec!["ids", "1"])));
        assert_eq!(parse("$3.99"), Some((3, vec!["99"])));
        for literal in [
            "see $0.id",
            "$0",
            "$x.id",
            "$0.",
            "$.id",
            "$0..id",
            "0.id",
            "$0.id ",
        ] {
            assert_eq!(
                parse(literal).map(|p| p.0),
                if literal == "$0.id " { Some(0) } else { None },
                "{literal}"
            );
        }
    }

    #[test]
    fn references_resolve_at_any_depth_to_any_type() {
        let results =
            vec![json!({"id": "s1", "n": 3, "ok": true, "list": ["a", "b"], "obj": {"k": null}})];
        let mut v = json!({"a": "$0.id", "b": ["$0.n", {"c": "$0.list.1"}], "d": "$0.ok", "e": "$0.obj", "f": "$0.obj.k", "g": "$0.list"});
        resolve(&mut v, &results, 1).unwrap();
        assert_eq!(
            v,
            json!({"a": "s1", "b": [3, {"c": "b"}], "d": true, "e": {"k": null}, "f": null, "g": ["a", "b"]})
        );
    }
}
