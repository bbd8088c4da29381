//! What a window shows of a page: every object drawn by the one renderer as its own
//! SVG fragment, with its data as tools read it. A page is drawn whole (connectors
//! are routed page-wide, so moving one shape can redraw others), and then each
//! window is sent only the objects whose fragment or data differ from what it
//! already has ([`Shown::diff`]).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use inkboard_core::{Board, PageId};
use inkboard_format::json::{object_to_json, Detail};
use serde_json::{Map, Value};

/// One object as drawn.
pub struct Drawn {
    pub svg: String,
    pub obj: Value,
    /// Tells two drawings apart without comparing them.
    hash: u64,
}

/// A page as drawn at one revision.
pub struct PageView {
    pub revision: u64,
    /// Object ids in z-order, bottom first.
    pub order: Vec<Arc<str>>,
    pub items: HashMap<Arc<str>, Drawn>,
}

/// Draws `page` of `board`.
pub fn draw(board: &Board, page: PageId) -> PageView {
    let scene = inkboard_render::resolve(board, page);
    let mut svgs: HashMap<&str, String> = scene
        .items
        .iter()
        .map(|item| (item.id.as_str(), inkboard_render::item_svg(item)))
        .collect();
    let objects = board.page(page).map(|p| p.objects.as_slice()).unwrap_or(&[]);
    let mut order = Vec::with_capacity(objects.len());
    let mut items = HashMap::with_capacity(objects.len());
    for object in objects {
        let id: Arc<str> = Arc::from(object.id.as_str());
        let svg = svgs.remove(object.id.as_str()).unwrap_or_default();
        let obj = Value::Object(object_to_json(object, Detail::Read));
        let mut h = DefaultHasher::new();
        svg.hash(&mut h);
        obj.to_string().hash(&mut h);
        order.push(id.clone());
        items.insert(
            id,
            Drawn {
                svg,
                obj,
                hash: h.finish(),
            },
        );
    }
    PageView {
        revision: board.revision(),
        order,
        items,
    }
}

/// What one window has been sent of its page.
#[derive(Default)]
pub struct Shown {
    hashes: HashMap<Arc<str>, u64>,
}

impl Shown {
    /// The `scene` message that brings the window from what it shows to `view`, and
    /// notes that it was sent. `full` sends everything (a new page or board).
    /// `agent` lists objects to mark as an agent's change. `None` when nothing
    /// differs.
    pub fn diff(
        &mut self,
        page: usize,
        view: &PageView,
        full: bool,
        agent: Vec<String>,
    ) -> Option<Value> {
        if full {
            self.hashes.clear();
        }
        let mut items = Map::new();
        for id in &view.order {
            let drawn = &view.items[id];
            if self.hashes.get(id) != Some(&drawn.hash) {
                let mut item = Map::new();
                item.insert("svg".into(), Value::String(drawn.svg.clone()));
                item.insert("obj".into(), drawn.obj.clone());
                items.insert(id.to_string(), Value::Object(item));
                self.hashes.insert(id.clone(), drawn.hash);
            }
        }
        let removed: Vec<Value> = self
            .hashes
            .keys()
            .filter(|id| !view.items.contains_key(*id))
            .map(|id| Value::String(id.to_string()))
            .collect();
        self.hashes.retain(|id, _| view.items.contains_key(id));
        if !full && items.is_empty() && removed.is_empty() {
            return None;
        }
        let order: Vec<Value> = view
            .order
            .iter()
            .map(|id| Value::String(id.to_string()))
            .collect();
        let agent: Vec<Value> = agent
            .into_iter()
            .filter(|id| items.contains_key(id))
            .map(Value::String)
            .collect();
        Some(serde_json::json!({
            "t": "scene",
            "page": page,
            "revision": view.revision,
            "full": full,
            "order": order,
            "items": items,
            "removed": removed,
            "agent": agent,
        }))
    }

    /// The fragments of a draft (a preview) that differ from what is shown, without
    /// noting them as sent.
    pub fn preview(&self, view: &PageView) -> Map<String, Value> {
        let mut items = Map::new();
        for id in &view.order {
            let drawn = &view.items[id];
            if self.hashes.get(id) != Some(&drawn.hash) {
                items.insert(
                    id.to_string(),
                    serde_json::json!({"svg": drawn.svg, "obj": drawn.obj}),
                );
            }
        }
        items
    }
}
