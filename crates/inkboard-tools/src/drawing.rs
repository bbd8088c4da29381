//! What a window shows of a page: every object drawn by the one renderer as its own
//! SVG fragment, with its data as tools read it. A page is drawn whole (connectors
//! are routed page-wide, so moving one shape can redraw others), and then each
//! window is sent only the objects whose fragment or data differ from what it
//! already has ([`Shown::diff`]). A whole page is sent without its fragments (a
//! large page's are megabytes): the window asks for those of the objects in view
//! ([`fragments`]).
//!
//! Two kinds of window draw with it: the editor's (`inkboard-app`'s WebSocket,
//! which remembers what each window has), and the chat view inside a chat
//! (`view_board`, [`crate::tools::chat`]), which remembers nothing between calls:
//! the chat view sends back the hash of each object it holds ([`Shown::from_known`]),
//! and the scene it is answered carries each object's hash (`"h"`).

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use inkboard_core::{Board, PageId};
use inkboard_format::json::{object_to_json, Detail};
use serde_json::Value;

/// One object as drawn, both parts already JSON text, ready to be sent.
pub struct Drawn {
    /// The SVG fragment as a JSON string literal.
    svg: String,
    /// The object as tools read it, as a JSON object.
    obj: String,
    /// The area the drawing covers, `[x,y,w,h]` as JSON (empty when it draws
    /// nothing): the editor draws only what is in view, and it must know where an
    /// object is without drawing it first.
    area: String,
    /// Tells two drawings apart without comparing them.
    hash: u64,
}

impl Drawn {
    /// The hash that tells this drawing from another (sent to the chat view as
    /// 16 hex digits, which it hands back in `known`).
    pub fn hash(&self) -> u64 {
        self.hash
    }
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
    let mut svgs: HashMap<&str, (String, String)> = scene
        .items
        .iter()
        .map(|item| {
            let area = inkboard_render::item_extent(item)
                .map(|r| {
                    let n = |v: f64| (v * 10.0).round() / 10.0;
                    format!("[{},{},{},{}]", n(r.x), n(r.y), n(r.w), n(r.h))
                })
                .unwrap_or_default();
            (item.id.as_str(), (inkboard_render::item_svg(item), area))
        })
        .collect();
    let objects = board
        .page(page)
        .map(|p| p.objects.as_slice())
        .unwrap_or(&[]);
    let mut order = Vec::with_capacity(objects.len());
    let mut items = HashMap::with_capacity(objects.len());
    for object in objects {
        let id: Arc<str> = Arc::from(object.id.as_str());
        let (svg, area) = svgs.remove(object.id.as_str()).unwrap_or_default();
        let svg = Value::String(svg).to_string();
        let obj = Value::Object(object_to_json(object, Detail::Editor)).to_string();
        let mut h = DefaultHasher::new();
        svg.hash(&mut h);
        obj.hash(&mut h);
        order.push(id.clone());
        items.insert(
            id,
            Drawn {
                svg,
                obj,
                area,
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
    /// The z-order last sent, hashed: a change of order alone changes no
    /// object's drawing, and must still reach the window.
    order: u64,
    /// Each item sent carries its hash (`"h"`): for a window that keeps no
    /// connection, and hands the hashes back with its next request.
    with_hashes: bool,
    /// A full scene carries the fragments too (a small page, to a window for
    /// which each request is a round trip through a host).
    svg_in_full: bool,
}

impl Shown {
    /// What a window that keeps no connection (the chat view) says it holds:
    /// object id → hash, as the hex text it was sent. A hash that is not hex
    /// counts as a drawing that differs. The z-order is always sent again. A full
    /// scene carries the fragments when `svg_in_full`.
    pub fn from_known<'a>(
        known: impl IntoIterator<Item = (&'a str, &'a str)>,
        svg_in_full: bool,
    ) -> Self {
        let hashes = known
            .into_iter()
            .filter_map(|(id, h)| Some((Arc::from(id), u64::from_str_radix(h, 16).ok()?)))
            .collect();
        Shown {
            hashes,
            order: 0,
            with_hashes: true,
            svg_in_full,
        }
    }

    /// The `scene` message (JSON text) that brings the window from what it shows to
    /// `view`, and notes that it was sent. `full` sends everything (a new page or
    /// board), fragments left out. `agent` lists objects to mark as an agent's change. `None` when
    /// nothing differs. The message is written as text straight from the drawn
    /// parts: a full scene of a large page is megabytes, and building it as a JSON
    /// tree first cost more than drawing it.
    pub fn diff(
        &mut self,
        page: usize,
        view: &PageView,
        full: bool,
        agent: Vec<String>,
    ) -> Option<String> {
        if full {
            self.hashes.clear();
        }
        let mut items = String::new();
        let mut sent: HashSet<&str> = HashSet::new();
        for id in &view.order {
            let drawn = &view.items[id];
            if self.hashes.get(id) != Some(&drawn.hash) {
                write_item(&mut items, id, drawn, !full || self.svg_in_full);
                if self.with_hashes {
                    items.pop();
                    let _ = write!(items, ",\"h\":\"{:016x}\"}}", drawn.hash);
                }
                self.hashes.insert(id.clone(), drawn.hash);
                sent.insert(id);
            }
        }
        let removed: Vec<String> = self
            .hashes
            .keys()
            .filter(|id| !view.items.contains_key(*id))
            .map(|id| id.to_string())
            .collect();
        self.hashes.retain(|id, _| view.items.contains_key(id));
        let mut h = DefaultHasher::new();
        view.order.hash(&mut h);
        let order = h.finish();
        let reordered = std::mem::replace(&mut self.order, order) != order;
        if !full && sent.is_empty() && removed.is_empty() && !reordered {
            return None;
        }
        let agent: Vec<String> = agent
            .into_iter()
            .filter(|id| sent.contains(id.as_str()))
            .collect();
        let order: Vec<&str> = view.order.iter().map(|id| &**id).collect();
        Some(format!(
            "{{\"t\":\"scene\",\"page\":{page},\"revision\":{},\"full\":{full},\"order\":{},\"items\":{{{items}}},\"removed\":{},\"agent\":{}}}",
            view.revision,
            serde_json::to_string(&order).unwrap_or_default(),
            serde_json::to_string(&removed).unwrap_or_default(),
            serde_json::to_string(&agent).unwrap_or_default(),
        ))
    }

    /// The fragments of a draft (a preview) that differ from what is shown, without
    /// noting them as sent: a JSON object (as text) of id → `{"svg", "obj"}`.
    pub fn preview(&self, view: &PageView) -> String {
        let mut items = String::new();
        for id in &view.order {
            let drawn = &view.items[id];
            if self.hashes.get(id) != Some(&drawn.hash) {
                write_item(&mut items, id, drawn, true);
            }
        }
        format!("{{{items}}}")
    }
}

/// The `fragments` message (JSON text) answering a window's `draw`: the fragments of
/// the objects `ids` of `view` (ids not on the page are left out, and each id is
/// answered once: a message naming one big image a million times must not
/// make a string of gigabytes).
pub fn fragments(seq: u64, view: &PageView, ids: &[String]) -> String {
    let mut items = String::new();
    let mut seen = std::collections::HashSet::new();
    for id in ids {
        if !seen.insert(id.as_str()) {
            continue;
        }
        if let Some(drawn) = view.items.get(id.as_str()) {
            if !items.is_empty() {
                items.push(',');
            }
            let _ = write!(items, "{}:{}", Value::String(id.clone()), drawn.svg);
        }
    }
    format!(
        "{{\"t\":\"fragments\",\"seq\":{seq},\"revision\":{},\"items\":{{{items}}}}}",
        view.revision
    )
}

/// Appends `"id":{"svg":…,"obj":…,"box":…}` to a JSON object's members being
/// written (`svg` only if `with_svg`).
fn write_item(items: &mut String, id: &str, drawn: &Drawn, with_svg: bool) {
    if !items.is_empty() {
        items.push(',');
    }
    let _ = write!(items, "{}:{{", Value::String(id.to_string()));
    if with_svg {
        let _ = write!(items, "\"svg\":{},", drawn.svg);
    }
    let _ = write!(items, "\"obj\":{}", drawn.obj);
    if !drawn.area.is_empty() {
        let _ = write!(items, ",\"box\":{}", drawn.area);
    }
    items.push('}');
}

#[cfg(test)]
mod tests {
    use inkboard_core::{Actor, Board, Geom, Kind, Rect, Shape, Style, Transaction};

    use super::*;

    fn shape(text: &str, x: f64) -> Kind {
        Kind::Shape(Shape {
            geom: Geom::Rect,
            bounds: Rect::new(x, 0.0, 100.0, 50.0),
            text: text.to_string(),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        })
    }

    #[test]
    fn each_fragment_is_sent_once_however_often_it_is_asked() {
        let mut board = Board::new("t", &[]);
        let page = board.pages()[0].id;
        let mut tx = Transaction::begin(&mut board);
        let a = tx.add(page, None, shape("a", 0.0)).unwrap();
        tx.commit(Actor::Agent).unwrap();
        let view = draw(&board, page);
        let once = fragments(1, &view, &[a.to_string()]);
        let asked = vec![a.to_string(); 1000];
        assert_eq!(fragments(1, &view, &asked), once);
    }

    #[test]
    fn a_change_of_z_order_alone_reaches_the_window() {
        let mut board = Board::new("t", &[]);
        let page = board.pages()[0].id;
        let mut tx = Transaction::begin(&mut board);
        let a = tx.add(page, None, shape("a", 0.0)).unwrap();
        tx.add(page, None, shape("b", 200.0)).unwrap();
        tx.commit(Actor::Agent).unwrap();
        let mut shown = Shown::default();
        assert!(shown.diff(1, &draw(&board, page), true, vec![]).is_some());
        assert_eq!(shown.diff(1, &draw(&board, page), false, vec![]), None);

        let mut tx = Transaction::begin(&mut board);
        tx.reorder(&a, 1).unwrap();
        tx.commit(Actor::Agent).unwrap().expect("a change");
        let scene = shown
            .diff(1, &draw(&board, page), false, vec![])
            .expect("the new order is sent");
        assert!(scene.contains(r#""order":["s2","s1"]"#), "{scene}");
        assert_eq!(shown.diff(1, &draw(&board, page), false, vec![]), None);
    }
}
