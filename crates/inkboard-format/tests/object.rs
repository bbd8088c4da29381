//! The JSON form of single objects, as the tools crate uses it: compact output in a
//! fixed key order, exact round trips, unknown fields kept, and numbers rounded.

use std::sync::Arc;

use inkboard_core::{
    Align, Arrow, Board, Color, Connector, Dash, End, Extra, Geom, Group, Image, ImageFormat, Ink,
    Kind, Object, ObjectId, Page, PageId, Palette, Point, Rect, Route, Shape, Side, Style,
};
use inkboard_format::json::{
    board_from_json, num, object_from_json, object_to_json, style_to_json, to_pretty_string, Detail,
};
use serde_json::{json, Map, Value};

fn id(s: &str) -> ObjectId {
    ObjectId::parse(s).unwrap()
}

fn shape(name: &str, geom: Geom) -> Object {
    Object::new(
        id(name),
        Kind::Shape(Shape {
            geom,
            bounds: Rect::new(1.0, 2.0, 30.0, 40.0),
            text: String::new(),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        }),
    )
}

fn text(map: Map<String, Value>) -> String {
    Value::Object(map).to_string()
}

#[test]
fn numbers_are_rounded_to_hundredths_and_integral_ones_have_no_fraction() {
    for (input, shown) in [
        (10.0, "10"),
        (-0.0, "0"),
        (0.125, "0.13"),
        (12.3456, "12.35"),
        (-7.004, "-7"),
        (1e20, "1e+20"),
        (f64::NAN, "0"),
        (f64::INFINITY, "0"),
        (123456789.5, "123456789.5"),
    ] {
        assert_eq!(num(input).to_string(), shown, "{input}");
    }
}

#[test]
fn style_fields_come_in_order_and_only_when_set() {
    let mut out = Map::new();
    style_to_json(&Style::default(), &mut out);
    assert!(out.is_empty());
    let style = Style {
        opacity: Some(0.5),
        align: Some(Align::Right),
        fill: Some(Color::Named(Palette::Red)),
        stroke: Some(Color::Rgba([0x1e, 0x88, 0xe5, 0x80])),
        dash: Some(Dash::Dotted),
        stroke_width: Some(2.0),
        ..Style::default()
    };
    style_to_json(&style, &mut out);
    assert_eq!(
        text(out),
        r##"{"fill":"red","stroke":"#1e88e580","stroke_width":2,"dash":"dotted","align":"right","opacity":0.5}"##
    );
}

#[test]
fn defaults_are_left_out() {
    assert_eq!(
        text(object_to_json(&shape("s1", Geom::Rect), Detail::File)),
        r#"{"id":"s1","type":"shape","x":1,"y":2,"w":30,"h":40}"#
    );
    let c = Object::new(
        id("c2"),
        Kind::Connector(Connector::new(
            End::Object(id("s1")),
            End::Point(Point { x: 5.0, y: 6.5 }),
        )),
    );
    assert_eq!(
        text(object_to_json(&c, Detail::Read)),
        r#"{"id":"c2","type":"connector","from":"s1","to":{"x":5,"y":6.5}}"#
    );
    let mut c2 = Connector::new(End::Object(id("a")), End::Object(id("b")));
    c2.end_arrow = Arrow::None;
    c2.start_arrow = Arrow::Arrow;
    c2.route = Route::Curved;
    c2.text = "yes".into();
    assert_eq!(
        text(object_to_json(
            &Object::new(id("c3"), Kind::Connector(c2)),
            Detail::File
        )),
        r#"{"id":"c3","type":"connector","from":"a","to":"b","text":"yes","route":"curved","start_arrow":"arrow","end_arrow":"none"}"#
    );
}

/// Waypoints and a label place are written only when set, so a connector routed
/// automatically is written as before they existed; set, they round-trip.
#[test]
fn connector_bends_and_label_place_round_trip_and_are_left_out_when_automatic() {
    let mut c = Connector::new(End::Object(id("a")), End::Object(id("b")));
    let plain = Object::new(id("c1"), Kind::Connector(c.clone()));
    assert_eq!(
        text(object_to_json(&plain, Detail::File)),
        r#"{"id":"c1","type":"connector","from":"a","to":"b"}"#
    );
    c.set_waypoints(vec![Point { x: 10.0, y: 20.5 }, Point { x: 40.0, y: 20.5 }]);
    c.set_label_at(Some(0.25));
    let bent = Object::new(id("c1"), Kind::Connector(c));
    let json = object_to_json(&bent, Detail::File);
    assert_eq!(
        text(json.clone()),
        r#"{"id":"c1","type":"connector","from":"a","to":"b","waypoints":[[10,20.5],[40,20.5]],"label_at":0.25}"#
    );
    assert_eq!(object_from_json(&Value::Object(json)).unwrap(), bent);
}

/// Pinned sides and `merge` are written only when set, after the label's place,
/// and round-trip; unpinned and unmerged, the connector is written as before.
#[test]
fn connector_sides_and_merge_round_trip_and_are_left_out_when_automatic() {
    let mut c = Connector::new(End::Object(id("a")), End::Object(id("b")));
    c.set_side(true, Some(Side::Bottom));
    c.set_side(false, Some(Side::Left));
    c.set_merge(true);
    let pinned = Object::new(id("c1"), Kind::Connector(c.clone()));
    let json = object_to_json(&pinned, Detail::File);
    assert_eq!(
        text(json.clone()),
        r#"{"id":"c1","type":"connector","from":"a","to":"b","from_side":"bottom","to_side":"left","merge":true}"#
    );
    assert_eq!(object_from_json(&Value::Object(json)).unwrap(), pinned);
    c.set_side(true, None);
    c.set_side(false, None);
    c.set_merge(false);
    assert!(c.by_hand.is_none(), "nothing set keeps no box");
}

/// End labels are written only when set, after `merge`, and round-trip; taken
/// away, the connector is written as before they existed and keeps no box.
#[test]
fn connector_end_labels_round_trip_and_are_left_out_when_empty() {
    let mut c = Connector::new(End::Object(id("a")), End::Object(id("b")));
    c.set_merge(true);
    c.set_end_label(true, "1".into());
    c.set_end_label(false, "0..* \"orders\"".into());
    let labelled = Object::new(id("c1"), Kind::Connector(c.clone()));
    let json = object_to_json(&labelled, Detail::File);
    assert_eq!(
        text(json.clone()),
        r#"{"id":"c1","type":"connector","from":"a","to":"b","merge":true,"start_label":"1","end_label":"0..* \"orders\""}"#
    );
    assert_eq!(object_from_json(&Value::Object(json)).unwrap(), labelled);
    c.set_end_label(true, String::new());
    assert_eq!(c.start_label(), "");
    assert_eq!(c.end_label(), "0..* \"orders\"");
    c.set_end_label(false, String::new());
    c.set_merge(false);
    assert!(c.by_hand.is_none(), "nothing set keeps no box");
    assert_eq!(
        text(object_to_json(
            &Object::new(id("c1"), Kind::Connector(c)),
            Detail::File
        )),
        r#"{"id":"c1","type":"connector","from":"a","to":"b"}"#
    );
}

fn every_kind() -> Vec<Object> {
    let mut note = shape("s1", Geom::Note);
    if let Kind::Shape(s) = &mut note.kind {
        s.text = "multi\nline \"quoted\"".into();
        s.style.font_size = Some(18.0);
    }
    note.locked = true;
    note.extra.insert("pinned".into(), "true".into());
    note.extra
        .insert("meta".into(), r#"{"z":1,"a":[1,2]}"#.into());
    let image = Object::new(
        id("i2"),
        Kind::Image(Image {
            bounds: Rect::new(0.0, 0.0, 8.0, 8.0),
            format: ImageFormat::Svg,
            data: Arc::from(&b"<svg xmlns='http://www.w3.org/2000/svg'/>"[..]),
            style: Style::default(),
            rotation: inkboard_core::Rotation::degrees(-45.0).unwrap(),
        }),
    );
    let ink = Object::new(
        id("k3"),
        Kind::Ink(Ink {
            points: vec![Point { x: 0.0, y: 0.0 }, Point { x: 3.25, y: -1.5 }],
            style: Style {
                stroke: Some(Color::Named(Palette::Blue)),
                stroke_width: Some(4.0),
                opacity: Some(0.75),
                fill: Some(Color::Named(Palette::White)),
                ..Style::default()
            },
        }),
    );
    let mut group = Object::new(
        id("g4"),
        Kind::Group(Group {
            members: vec![id("s1"), id("i2")],
        }),
    );
    group.locked = true;
    vec![note, image, ink, group]
}

#[test]
fn every_kind_round_trips_with_its_unknown_fields() {
    for object in every_kind() {
        let json = Value::Object(object_to_json(&object, Detail::File));
        let back = object_from_json(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(back, object, "{json}");
    }
}

/// `locked` is written after the known fields, only when true, and read back;
/// anything but a boolean is refused with its place.
#[test]
fn locked_is_written_only_when_true() {
    let [note, image, _, group] = <[Object; 4]>::try_from(every_kind()).unwrap();
    let note_json = text(object_to_json(&note, Detail::File));
    assert!(
        note_json
            .ends_with(r#""font_size":18,"locked":true,"meta":{"z":1,"a":[1,2]},"pinned":true}"#),
        "{note_json}"
    );
    assert!(!text(object_to_json(&image, Detail::File)).contains("locked"));
    assert_eq!(
        text(object_to_json(&group, Detail::Read)),
        r#"{"id":"g4","type":"group","ids":["s1","i2"],"locked":true}"#
    );
    let bad: Value =
        serde_json::from_str(r#"{"id":"s1","type":"shape","x":0,"y":0,"w":1,"h":1,"locked":1}"#)
            .unwrap();
    assert_eq!(
        object_from_json(&bad).unwrap_err().to_string(),
        "locked: expected true or false, got the number 1"
    );
}

#[test]
fn ink_calls_its_stroke_color_and_width() {
    let ink = &every_kind()[2];
    assert_eq!(
        text(object_to_json(ink, Detail::File)),
        r#"{"id":"k3","type":"ink","points":[[0,0],[3.25,-1.5]],"color":"blue","width":4,"fill":"white","opacity":0.75}"#
    );
}

#[test]
fn reads_show_image_size_not_data() {
    let image = &every_kind()[1];
    let read = object_to_json(image, Detail::Read);
    assert_eq!(read.get("bytes"), Some(&json!(41)));
    assert!(!read.contains_key("data"));
    let file = object_to_json(image, Detail::File);
    assert!(file["data"]
        .as_str()
        .unwrap()
        .starts_with("data:image/svg+xml;base64,PHN2Zy"));
    let err = object_from_json(&Value::Object(read))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("missing \"data\""), "{err}");
}

#[test]
fn unknown_fields_never_shadow_known_ones() {
    let mut object = shape("s1", Geom::Rect);
    object.extra = Extra::from([
        ("geom".to_string(), "\"circle\"".to_string()),
        ("fill".to_string(), "\"nope\"".to_string()),
        ("zeta".to_string(), "not json".to_string()),
        ("alpha".to_string(), "[1, 2]".to_string()),
    ]);
    assert_eq!(
        text(object_to_json(&object, Detail::File)),
        r#"{"id":"s1","type":"shape","x":1,"y":2,"w":30,"h":40,"alpha":[1,2],"zeta":"not json"}"#
    );
}

#[test]
fn errors_name_the_field() {
    for (input, message) in [
        (json!("s1"), "expected an object (a JSON object {...}), got the text \"s1\""),
        (json!({"type": "shape"}), "missing \"id\": add it (a text)"),
        (
            json!({"id": "s1", "type": "shape", "geom": "circle", "x": 0, "y": 0, "w": 1, "h": 1}),
            "geom: unknown geom \"circle\": use one of rect, rounded, ellipse, diamond, triangle, hexagon, parallelogram, cylinder, cloud, star, note, text, frame, table, end_state",
        ),
        (
            json!({"id": "c1", "type": "connector", "from": 3, "to": "s1"}),
            "from: expected an object id or a point {\"x\", \"y\"}, got the number 3",
        ),
        (
            json!({"id": "k1", "type": "ink", "points": [], "width": 2000}),
            "width: width must be a finite number from 0 to 1000, got 2000",
        ),
        (
            json!({"id": "c1", "type": "connector", "from": "a", "to": "b", "end_arrow": "big"}),
            "end_arrow: unknown arrow \"big\": use one of none, arrow, triangle, diamond, circle, bar, dot, one, zero_or_one, one_or_many, zero_or_many, many, hollow_triangle, hollow_diamond",
        ),
        (
            json!({"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 1, "h": 1, "link": "javascript:alert(1)"}),
            "link: link \"javascript:alert(1)\" is not a web or mail address: give an http:, https: or mailto: one, or a domain",
        ),
        (
            json!({"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 1, "h": 1, "flip_x": "yes"}),
            "flip_x: expected true or false, got the text \"yes\"",
        ),
        (
            json!({"id": "c1", "type": "connector", "from": "a", "to": "b", "waypoints": [[1, 2], [3]]}),
            "waypoints[1]: expected a point [x, y], got a list of 1 value",
        ),
        (
            json!({"id": "c1", "type": "connector", "from": "a", "to": "b", "label_at": 1.5}),
            "label_at: label_at must be a finite number from 0 to 1, got 1.5",
        ),
        (
            json!({"id": "c1", "type": "connector", "from": "a", "to": "b", "to_side": "north"}),
            "to_side: unknown side \"north\": use one of top, right, bottom, left",
        ),
        (
            json!({"id": "c1", "type": "connector", "from": "a", "to": "b", "merge": 1}),
            "merge: expected true or false, got the number 1",
        ),
        (
            json!({"id": "c1", "type": "connector", "from": "a", "to": "b", "end_label": 1}),
            "end_label: expected a text, got the number 1",
        ),
    ] {
        let got = object_from_json(&input).unwrap_err().to_string();
        assert_eq!(got, message, "{input}");
    }
}

#[test]
fn a_board_keeps_its_unknown_fields_and_known_names_win() {
    let mut page = Page::new(PageId(3), "Third");
    page.objects.push(shape("s7", Geom::Frame));
    page.extra.insert("pages".into(), "1".into()); // harmless: pages have no "pages"
    page.extra.insert("name".into(), "\"shadow\"".into()); // a known name: not written
    let board = Board::from_parts(
        "T".into(),
        vec![page],
        1,
        9,
        Extra::from([
            ("version".to_string(), "99".to_string()),
            ("zoom".to_string(), "1.5".to_string()),
        ]),
    )
    .unwrap();
    let text = to_pretty_string(&board);
    assert!(text.ends_with("\n  \"zoom\": 1.5\n}\n"), "{text}");
    assert!(text.contains("\"version\": 3,"), "{text}");
    let back = board_from_json(&text).unwrap();
    assert_eq!(back.pages()[0].id, PageId(3));
    assert_eq!(back.pages()[0].name, "Third");
    assert_eq!(back.revision(), 9);
    assert_eq!(back.next_object(), 8, "raised past s7");
    assert_eq!(to_pretty_string(&back), text);
}

/// Issue 12 (memory): a read shows a long ink stroke by at most
/// `READ_INK_POINTS` of its points, spread along it with its ends kept, and says
/// how many it has; the file and the editor get every point.
#[test]
fn reads_show_a_long_ink_stroke_by_some_of_its_points() {
    let n = 1000;
    let points: Vec<Point> = (0..n)
        .map(|i| Point {
            x: i as f64,
            y: (i % 7) as f64,
        })
        .collect();
    let ink = Object::new(
        id("k1"),
        Kind::Ink(Ink {
            points,
            style: Style::default(),
        }),
    );
    let read = object_to_json(&ink, Detail::Read);
    let shown = read["points"].as_array().expect("points");
    assert_eq!(shown.len(), inkboard_format::READ_INK_POINTS);
    assert_eq!(shown.first(), Some(&json!([0, 0])));
    assert_eq!(shown.last(), Some(&json!([999, 5])));
    assert_eq!(read["point_count"], json!(n));
    for detail in [Detail::File, Detail::Editor] {
        let all = object_to_json(&ink, detail);
        assert_eq!(all["points"].as_array().map(Vec::len), Some(n));
        assert!(!all.contains_key("point_count"));
    }
    // A short stroke is shown whole, with no count.
    let short = &every_kind()[2];
    assert!(!object_to_json(short, Detail::Read).contains_key("point_count"));
}

#[test]
fn link_and_flips_are_written_only_when_set_and_read_back() {
    let plain = json!({"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 10, "h": 10});
    let o = object_from_json(&plain).unwrap();
    assert_eq!(Value::Object(object_to_json(&o, Detail::File)), plain);
    let marked = json!({"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 10, "h": 10,
        "link": "https://example.com/a", "flip_x": true, "flip_y": true});
    let o = object_from_json(&marked).unwrap();
    assert_eq!(
        o.link.as_ref().map(|l| l.as_str()),
        Some("https://example.com/a")
    );
    assert!(o.flip.x && o.flip.y);
    assert!(o.extra.is_empty(), "known fields, not unknown ones");
    assert_eq!(Value::Object(object_to_json(&o, Detail::File)), marked);
}
