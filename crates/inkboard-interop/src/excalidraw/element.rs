//! An Excalidraw scene read into typed records: the elements (deleted ones left
//! out) with the fields the mapping needs, and the embedded files. Excalidraw's
//! own loader is lenient (`data/restore.ts` fills in what is missing), so this
//! one is too: a missing or mistyped field takes Excalidraw's default rather
//! than refusing the file.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::ImportError;

/// A scene: its live elements in z-order (back to front) and its files.
#[derive(Debug, Default)]
pub(crate) struct Scene {
    pub elements: Vec<Element>,
    /// File id → data URL.
    pub files: HashMap<String, String>,
}

/// One element.
#[derive(Clone, Debug, Default)]
pub(crate) struct Element {
    pub id: String,
    /// `rectangle`, `ellipse`, `diamond`, `text`, `arrow`, `line`, `freedraw`,
    /// `image`, `frame`, `magicframe`, `embeddable`, `iframe`...
    pub kind: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub angle: f64,
    pub stroke: Option<String>,
    pub background: Option<String>,
    pub fill_style: Option<String>,
    /// 0 (architect), 1 (artist) or 2 (cartoonist).
    pub roughness: Option<f64>,
    pub stroke_width: Option<f64>,
    pub stroke_style: Option<String>,
    pub opacity: Option<f64>,
    /// Innermost group first.
    pub group_ids: Vec<String>,
    pub rounded: bool,
    pub text: String,
    pub font_size: Option<f64>,
    pub font_family: Option<f64>,
    pub text_align: Option<String>,
    pub vertical_align: Option<String>,
    pub container_id: Option<String>,
    /// Relative to (x, y).
    pub points: Vec<(f64, f64)>,
    pub start_binding: Option<String>,
    pub end_binding: Option<String>,
    /// `None`: no arrowhead.
    pub start_arrowhead: Option<String>,
    pub end_arrowhead: Option<String>,
    pub elbowed: bool,
    pub file_id: Option<String>,
    pub link: Option<String>,
    pub name: Option<String>,
    /// `customData` beyond what inkboard itself wrote there.
    pub custom_data: bool,
    /// What inkboard recorded in `customData.inkboard` when it wrote the file:
    /// the outline (`geom`) or route (`route`) Excalidraw has no element for.
    pub inkboard_geom: Option<String>,
    /// The rich text (`rich.rs`) inkboard wrote this text element from, kept in
    /// `customData.inkboard.text`: Excalidraw's own text is its shown form.
    pub inkboard_text: Option<String>,
    pub inkboard_route: Option<String>,
    /// A shape's icon (`icon`), which Excalidraw has no place for.
    pub inkboard_icon: Option<String>,
    /// A connector's end labels (`start_label`, `end_label`), which Excalidraw
    /// does not show.
    pub inkboard_ends: (Option<String>, Option<String>),
    /// A connector's crow's-foot end kinds (`start_arrow`, `end_arrow`), which
    /// Excalidraw's own heads draw without telling zero from one.
    pub inkboard_arrows: (Option<String>, Option<String>),
    /// Excalidraw's lock: the element cannot be selected or moved.
    pub locked: bool,
}

impl Scene {
    pub(crate) fn parse(json: &str) -> Result<Scene, ImportError> {
        let value: Value = serde_json::from_str(json).map_err(|e| ImportError::BadJson {
            detail: format!("the file is not JSON ({e})"),
        })?;
        let Some(doc) = value.as_object() else {
            return Err(ImportError::BadJson {
                detail: "the file is JSON but not an object with \"elements\"".to_string(),
            });
        };
        let kind = doc.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "excalidrawlib"
            || doc.contains_key("libraryItems")
            || doc.contains_key("library")
        {
            return Err(ImportError::Library);
        }
        let Some(elements) = doc.get("elements").and_then(Value::as_array) else {
            return Err(ImportError::BadJson {
                detail: "it has no \"elements\" list, which every Excalidraw scene has".to_string(),
            });
        };
        let elements = elements
            .iter()
            .filter_map(Value::as_object)
            .filter(|e| e.get("isDeleted").and_then(Value::as_bool) != Some(true))
            .enumerate()
            .map(|(i, e)| Element::read(e, i))
            .collect();
        let files = doc
            .get("files")
            .and_then(Value::as_object)
            .map(|files| {
                files
                    .iter()
                    .filter_map(|(id, f)| {
                        Some((id.clone(), f.get("dataURL")?.as_str()?.to_string()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Scene { elements, files })
    }
}

impl Element {
    fn read(e: &Map<String, Value>, index: usize) -> Element {
        let num = |k: &str| e.get(k).and_then(Value::as_f64);
        let text = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_string);
        let binding = |k: &str| {
            e.get(k)
                .and_then(|b| b.get("elementId"))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let kind = text("type").unwrap_or_default();
        // Excalidraw's restore gives an arrow an end arrowhead when the key is
        // missing, and a line none; null means none.
        let arrowhead = |k: &str, default: Option<&str>| match e.get(k) {
            None => default.map(str::to_string),
            Some(v) => v.as_str().map(str::to_string),
        };
        let is_arrow = kind == "arrow";
        let inkboard = |k: &str| {
            e.get("customData")
                .and_then(|d| d.get("inkboard"))
                .and_then(|d| d.get(k))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        Element {
            id: text("id").unwrap_or_else(|| format!("#{index}")),
            x: num("x").unwrap_or(0.0),
            y: num("y").unwrap_or(0.0),
            w: num("width").unwrap_or(0.0),
            h: num("height").unwrap_or(0.0),
            angle: num("angle").unwrap_or(0.0),
            stroke: text("strokeColor"),
            background: text("backgroundColor"),
            fill_style: text("fillStyle"),
            roughness: num("roughness"),
            stroke_width: num("strokeWidth"),
            stroke_style: text("strokeStyle"),
            opacity: num("opacity"),
            group_ids: e
                .get("groupIds")
                .and_then(Value::as_array)
                .map(|ids| {
                    ids.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            rounded: e.get("roundness").is_some_and(|r| !r.is_null()),
            // The unwrapped text, as typed; `text` holds it wrapped to the box.
            text: text("originalText")
                .filter(|t| !t.is_empty())
                .or_else(|| text("text"))
                .unwrap_or_default(),
            font_size: num("fontSize"),
            font_family: num("fontFamily"),
            text_align: text("textAlign"),
            vertical_align: text("verticalAlign"),
            container_id: text("containerId"),
            points: e
                .get("points")
                .and_then(Value::as_array)
                .map(|ps| {
                    ps.iter()
                        .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
                        .collect()
                })
                .unwrap_or_default(),
            start_binding: binding("startBinding"),
            end_binding: binding("endBinding"),
            start_arrowhead: arrowhead("startArrowhead", None),
            end_arrowhead: arrowhead("endArrowhead", is_arrow.then_some("arrow")),
            elbowed: e.get("elbowed").and_then(Value::as_bool).unwrap_or(false),
            file_id: text("fileId"),
            link: text("link").filter(|l| !l.is_empty()),
            name: text("name"),
            custom_data: e.get("customData").is_some_and(|d| match d.as_object() {
                Some(d) => d.keys().any(|k| k != "inkboard"),
                None => !d.is_null(),
            }),
            inkboard_geom: inkboard("geom"),
            inkboard_text: inkboard("text"),
            inkboard_route: inkboard("route"),
            inkboard_icon: inkboard("icon"),
            inkboard_ends: (inkboard("start_label"), inkboard("end_label")),
            inkboard_arrows: (inkboard("start_arrow"), inkboard("end_arrow")),
            locked: e.get("locked").and_then(Value::as_bool) == Some(true),
            kind,
        }
    }
}
