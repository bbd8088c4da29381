//! The checks of argument values that serde's types do not make: numbers
//! within the board's range, sizes and gaps, rotations, waypoints, label places,
//! pinned sides, and how deep a call's JSON nests. Each error names the argument
//! and says what it takes, quoting a number back as JSON writes it
//! ([`shown_number`]).

use inkboard_core::limits::{Limit, MAX_COORD};
use serde_json::Value;

use crate::ToolError;

/// Checks a coordinate or size argument against the model's range, so that the
/// message names the argument (the model would refuse the object anyway).
pub(crate) fn finite(name: &str, v: Option<f64>) -> Result<Option<f64>, ToolError> {
    match v {
        Some(v) if !v.is_finite() || v.abs() > MAX_COORD => Err(ToolError::args(format!(
            "'{name}' must be a number between -{MAX_COORD} and {MAX_COORD}, got {}",
            shown_number(v)
        ))),
        other => Ok(other),
    }
}

/// A connector's `waypoints` checked: finite, within the board, at most
/// [`MAX_WAYPOINTS`](inkboard_core::limits::MAX_WAYPOINTS). `[]` gives the route
/// back to the router.
pub(crate) fn waypoints(list: &[[f64; 2]]) -> Result<Vec<inkboard_core::Point>, ToolError> {
    inkboard_core::limits::Limit::Waypoints
        .check(|| "'waypoints'".to_string(), list.len() as u64)?;
    list.iter()
        .map(|&[x, y]| {
            finite("waypoints", Some(x))?;
            finite("waypoints", Some(y))?;
            Ok(inkboard_core::Point { x, y })
        })
        .collect()
}

/// A label place checked: a fraction from 0 to 1, or `None` (null) for automatic.
pub(crate) fn label_at(at: Option<f64>) -> Result<Option<f64>, ToolError> {
    if let Some(v) = at {
        finite("label_at", Some(v))?;
        if !(0.0..=1.0).contains(&v) {
            return Err(ToolError::args(format!(
                "'label_at' must be from 0 (the start) to 1 (the end), got {}",
                shown_number(v)
            )));
        }
    }
    Ok(at)
}

/// An end label (`name`: `start_label` or `end_label`) checked: within the text
/// limit, named in the error; none (null) is empty, which takes it away.
pub(crate) fn end_label(name: &str, text: Option<String>) -> Result<String, ToolError> {
    let text = text.unwrap_or_default();
    inkboard_core::limits::check_text(&format!("'{name}'"), &text)?;
    Ok(text)
}

/// Checks that a pinned side (`name`: `from_side` or `to_side`) meets an
/// object: a free end has no sides.
pub(crate) fn side_on(
    end: &inkboard_core::End,
    side: Option<inkboard_core::Side>,
    name: &str,
) -> Result<(), ToolError> {
    match (end, side) {
        (inkboard_core::End::Point(_), Some(side)) => Err(ToolError::args(format!(
            "'{name}': the {} is a free point, which has no {side} side: attach it to an object, or leave '{name}' out",
            if name == "from_side" { "start" } else { "end" },
        ))),
        _ => Ok(()),
    }
}

/// Checks a rotation argument: degrees, any finite number, normalised into
/// [0, 360) (-90 is 270).
pub(crate) fn rotation(
    name: &str,
    v: Option<f64>,
) -> Result<Option<inkboard_core::Rotation>, ToolError> {
    v.map(|deg| {
        inkboard_core::Rotation::degrees(deg).ok_or_else(|| {
            ToolError::args(format!(
                "'{name}' must be a number of degrees, got {}",
                shown_number(deg)
            ))
        })
    })
    .transpose()
}

/// Checks a size argument: finite, and at least
/// [`MIN_SIZE`](inkboard_core::limits::MIN_SIZE) (the size of nothing is no
/// size, and a size next to 0 would be saved as 0).
pub(crate) fn positive(name: &str, v: Option<f64>) -> Result<Option<f64>, ToolError> {
    use inkboard_core::limits::MIN_SIZE;
    match finite(name, v)? {
        Some(v) if v < MIN_SIZE => Err(ToolError::args(format!(
            "'{name}' must be {MIN_SIZE} or more, got {}",
            shown_number(v)
        ))),
        other => Ok(other),
    }
}

/// Checks a gap or spacing argument: from 0 to
/// [`MAX_GAP`](inkboard_core::limits::MAX_GAP).
pub(crate) fn gap(name: &str, v: Option<f64>) -> Result<Option<f64>, ToolError> {
    use inkboard_core::limits::MAX_GAP;
    match v {
        Some(v) if !(v.is_finite() && (0.0..=MAX_GAP).contains(&v)) => {
            Err(ToolError::args(format!(
                "'{name}' must be from 0 to {MAX_GAP}, got {}",
                shown_number(v)
            )))
        }
        other => Ok(other),
    }
}

/// Refuses a call whose arguments nest lists and objects deeper than
/// [`MAX_JSON_DEPTH`](inkboard_core::limits::MAX_JSON_DEPTH), before anything walks them.
pub(crate) fn check_nesting(
    tool: &str,
    args: &serde_json::Map<String, Value>,
) -> Result<(), ToolError> {
    // The arguments object itself is the first level.
    let depth = 1 + args
        .values()
        .map(inkboard_format::json::depth)
        .max()
        .unwrap_or(0);
    Limit::JsonDepth.check(|| format!("the call to {tool}"), depth as u64)?;
    Ok(())
}

/// A number a message quotes back: as written in JSON, in exponent form when
/// huge or tiny (Rust writes 1e308 with 309 digits, and 5e-324 with 324 zeros).
pub(crate) fn shown_number(v: f64) -> String {
    if v != 0.0 && !(1e-4..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
