//! Reference renders: one small board per geom, style property, connector route
//! (orthogonal ones round obstacles, through shared channels and across frames),
//! label placement (end labels too), arrowhead and text case, and a board in the dark theme. Each board's SVG is kept as a text
//! snapshot (`tests/reference/NAME.svg`) and its PNG, drawn at scale 1, is compared with
//! `tests/reference/NAME.png` within a small pixel tolerance (anti-aliasing may
//! differ by a shade between machines). Refresh both with `UPDATE_EXPECT=1`, and
//! look at the pictures before committing them.

mod common;

use std::path::PathBuf;

use common::*;
use inkboard_core::{
    Align, Arrow, Color, Connector, Dash, FillStyle, Font, Geom, ImageFormat, Palette, Route,
    Style, VAlign, Vocabulary,
};
use inkboard_render::{resolve, to_png_scaled, to_svg_with, SvgOptions, Theme};

/// A channel may differ by this much before a pixel counts as different.
const CHANNEL_TOLERANCE: u8 = 8;
/// At most this share of pixels may differ.
const PIXEL_SHARE: f64 = 0.002;

type Case = (&'static str, fn(&mut Build));

fn cases() -> Vec<Case> {
    let mut v: Vec<Case> = vec![
        ("geom_rect", |b| geom(b, Geom::Rect)),
        ("geom_rounded", |b| geom(b, Geom::Rounded)),
        ("geom_ellipse", |b| geom(b, Geom::Ellipse)),
        ("geom_diamond", |b| geom(b, Geom::Diamond)),
        ("geom_triangle", |b| geom(b, Geom::Triangle)),
        ("geom_hexagon", |b| geom(b, Geom::Hexagon)),
        ("geom_parallelogram", |b| geom(b, Geom::Parallelogram)),
        ("geom_cylinder", |b| geom(b, Geom::Cylinder)),
        ("geom_cloud", |b| geom(b, Geom::Cloud)),
        ("geom_star", |b| geom(b, Geom::Star)),
        ("geom_note", |b| geom(b, Geom::Note)),
        ("geom_text", |b| geom(b, Geom::Text)),
        ("geom_table", |b| {
            // An entity, a class with two compartments (a row of one cell
            // spans), and a table set too small for its rows.
            b.shape(
                Geom::Table,
                [0.0, 0.0, 260.0, 122.0],
                "Customer\nint | id | PK\nstring | email | UK | login\nstring | name",
            );
            b.shape(
                Geom::Table,
                [290.0, 0.0, 190.0, 130.0],
                "Order\n+id: int\n+placed: date\n---\n+total(): Money",
            );
            b.shape(
                Geom::Table,
                [0.0, 150.0, 120.0, 40.0],
                "Small\nint | id\nint | too_many",
            );
        }),
        ("geom_frame", |b| {
            b.shape(Geom::Frame, [0.0, 0.0, 280.0, 170.0], "Frame title");
            b.shape(Geom::Rounded, [30.0, 60.0, 100.0, 60.0], "Inside");
            b.shape(Geom::Note, [150.0, 50.0, 100.0, 90.0], "Note");
        }),
    ];
    v.extend::<Vec<Case>>(vec![
        ("style_fill", |b| {
            for (i, c) in [
                Palette::Blue,
                Palette::Yellow,
                Palette::Green,
                Palette::Black,
            ]
            .into_iter()
            .enumerate()
            {
                b.styled(
                    Geom::Rounded,
                    [i as f64 * 110.0, 0.0, 100.0, 50.0],
                    c.to_string().as_str(),
                    Style {
                        fill: Some(Color::Named(c)),
                        ..Style::default()
                    },
                );
            }
            b.styled(
                Geom::Rect,
                [0.0, 70.0, 100.0, 50.0],
                "#ffe0e0",
                Style {
                    fill: Some(Color::parse("#ffe0e0").unwrap()),
                    ..Style::default()
                },
            );
            b.styled(
                Geom::Rect,
                [110.0, 70.0, 100.0, 50.0],
                "half alpha",
                Style {
                    fill: Some(Color::parse("#1e88e580").unwrap()),
                    ..Style::default()
                },
            );
        }),
        // Sticky notes by palette name draw the pastel tone; the same names as a
        // stroke and as text, and a CSS name as a fill, keep their own colour.
        ("note_colours", |b| {
            let fills = Palette::ALL.iter().map(|p| Some(Color::Named(*p)));
            let fills = [None, Color::parse("lightblue").ok()].into_iter().chain(fills);
            for (i, fill) in fills.enumerate() {
                let label = fill.map_or("default".to_string(), |c| c.to_string());
                let (col, row) = ((i % 6) as f64, (i / 6) as f64);
                b.styled(
                    Geom::Note,
                    [col * 110.0, row * 110.0, 100.0, 100.0],
                    &label,
                    Style {
                        fill,
                        ..Style::default()
                    },
                );
            }
            b.styled(
                Geom::Note,
                [0.0, 220.0, 210.0, 60.0],
                "blue outline, red text",
                style_with(|s| {
                    s.fill = Some(Color::Named(Palette::Pink));
                    s.stroke = Some(Color::Named(Palette::Blue));
                    s.text_color = Some(Color::Named(Palette::Red));
                }),
            );
        }),
        ("style_stroke", |b| {
            b.styled(
                Geom::Rect,
                [0.0, 0.0, 100.0, 50.0],
                "red",
                style_with(|s| s.stroke = Some(Color::Named(Palette::Red))),
            );
            b.styled(
                Geom::Ellipse,
                [120.0, 0.0, 100.0, 60.0],
                "purple",
                style_with(|s| s.stroke = Some(Color::Named(Palette::Purple))),
            );
        }),
        ("style_stroke_width", |b| {
            for (i, w) in [0.0, 1.0, 4.0, 8.0].into_iter().enumerate() {
                b.styled(
                    Geom::Rounded,
                    [i as f64 * 110.0, 0.0, 90.0, 50.0],
                    &format!("{w} px"),
                    style_with(|s| s.stroke_width = Some(w)),
                );
            }
        }),
        ("style_dash", |b| {
            b.styled(
                Geom::Rect,
                [0.0, 0.0, 100.0, 50.0],
                "dashed",
                style_with(|s| s.dash = Some(Dash::Dashed)),
            );
            b.styled(
                Geom::Ellipse,
                [120.0, 0.0, 100.0, 50.0],
                "dotted",
                style_with(|s| s.dash = Some(Dash::Dotted)),
            );
            let a = b.shape(Geom::Rect, [0.0, 90.0, 80.0, 40.0], "a");
            let c = b.shape(Geom::Rect, [160.0, 90.0, 80.0, 40.0], "b");
            b.connector(Connector {
                style: style_with(|s| s.dash = Some(Dash::Dashed)),
                ..Connector::new(obj(&a), obj(&c))
            });
        }),
        ("style_opacity", |b| {
            b.shape(Geom::Rect, [0.0, 0.0, 120.0, 60.0], "under");
            b.styled(
                Geom::Ellipse,
                [60.0, 20.0, 160.0, 70.0],
                "opacity 0.5",
                style_with(|s| {
                    s.opacity = Some(0.5);
                    s.fill = Some(Color::Named(Palette::Orange));
                }),
            );
        }),
        ("style_font_size", |b| {
            for (i, fs) in [10.0, 16.0, 24.0].into_iter().enumerate() {
                b.styled(
                    Geom::Rect,
                    [i as f64 * 130.0, 0.0, 120.0, 60.0],
                    &format!("{fs} px"),
                    style_with(|s| s.font_size = Some(fs)),
                );
            }
        }),
        ("style_text_color", |b| {
            b.styled(
                Geom::Rect,
                [0.0, 0.0, 120.0, 50.0],
                "red text",
                style_with(|s| s.text_color = Some(Color::Named(Palette::Red))),
            );
            b.styled(
                Geom::Rect,
                [130.0, 0.0, 120.0, 50.0],
                "on dark",
                style_with(|s| s.fill = Some(Color::parse("#1f2933").unwrap())),
            );
        }),
        ("text_align", |b| {
            for (i, a) in [Align::Left, Align::Center, Align::Right]
                .into_iter()
                .enumerate()
            {
                b.styled(
                    Geom::Rect,
                    [0.0, i as f64 * 60.0, 200.0, 50.0],
                    &format!("align {a}"),
                    style_with(|s| s.align = Some(a)),
                );
            }
        }),
        ("text_valign", |b| {
            for (i, a) in [VAlign::Top, VAlign::Middle, VAlign::Bottom]
                .into_iter()
                .enumerate()
            {
                b.styled(
                    Geom::Rect,
                    [i as f64 * 110.0, 0.0, 100.0, 100.0],
                    &format!("{a}"),
                    style_with(|s| s.valign = Some(a)),
                );
            }
        }),
        ("text_wrap", |b| {
            b.shape(
                Geom::Rect,
                [0.0, 0.0, 160.0, 110.0],
                "A longer label that wraps onto several lines inside its box",
            );
            b.shape(
                Geom::Ellipse,
                [180.0, 0.0, 160.0, 110.0],
                "Wrapped inside an ellipse too",
            );
        }),
        ("text_overflow", |b| {
            b.shape(
                Geom::Rect,
                [0.0, 0.0, 140.0, 60.0],
                "This text is much too long to fit in such a small box, so it is clipped",
            );
            b.shape(
                Geom::Diamond,
                [160.0, 0.0, 120.0, 80.0],
                "Far too much text for a diamond of this size",
            );
        }),
        // The fit rule: a fixed box shrinks its text (to 60% at most) rather than
        // cutting it, and past that the text runs out of the box, whole.
        ("fit_shrink", |b| {
            b.shape(Geom::Rect, [0.0, 0.0, 56.0, 48.0], "Node 12");
            b.shape(Geom::Diamond, [80.0, 0.0, 100.0, 70.0], "Decide?");
            b.shape(
                Geom::Rounded,
                [200.0, 0.0, 140.0, 60.0],
                "A label a little too long for its box",
            );
        }),
        ("fit_floor_overflow", |b| {
            b.shape(
                Geom::Rect,
                [0.0, 50.0, 110.0, 30.0],
                "Far too much text for a box this small: at 60% of its size it still runs past the top and bottom edges",
            );
            b.shape(Geom::Ellipse, [160.0, 40.0, 60.0, 40.0], "Overflowing");
        }),
        ("fit_breaks", |b| {
            b.shape(Geom::Diamond, [0.0, 0.0, 120.0, 80.0], "Ready to ship?");
            b.shape(
                Geom::Note,
                [140.0, 0.0, 160.0, 160.0],
                "See https://example.com/a/very/long/path/without/any/spaces",
            );
            b.styled(
                Geom::Rect,
                [320.0, 0.0, 200.0, 90.0],
                "Self-serve onboarding",
                style_with(|s| s.font_size = Some(40.0)),
            );
        }),
        ("text_newlines", |b| {
            b.styled(
                Geom::Note,
                [0.0, 0.0, 160.0, 150.0],
                "To do:\n- one\n- two\n\n- three",
                style_with(|s| {
                    s.align = Some(Align::Left);
                    s.valign = Some(VAlign::Top);
                }),
            );
        }),
        ("text_cyrillic_greek", |b| {
            b.shape(Geom::Rounded, [0.0, 0.0, 160.0, 60.0], "Привет, доска!");
            b.shape(Geom::Rounded, [180.0, 0.0, 160.0, 60.0], "Γειά σου κόσμε");
        }),
        // Every script in real glyphs: Inter first, then the bundled symbol, math
        // and emoji faces, then the system's fonts (CJK, Arabic, Hebrew...).
        ("text_cjk_emoji", |b| {
            b.shape(Geom::Rounded, [0.0, 0.0, 160.0, 60.0], "日本語のテキスト");
            b.shape(Geom::Rounded, [180.0, 0.0, 160.0, 60.0], "Ship it 🚀 😀");
        }),
        ("text_cjk", |b| {
            b.shape(Geom::Rounded, [0.0, 0.0, 160.0, 60.0], "简体中文 繁體中文");
            b.shape(Geom::Rounded, [180.0, 0.0, 160.0, 60.0], "ひらがな カタカナ 漢字");
            b.shape(Geom::Rounded, [360.0, 0.0, 160.0, 60.0], "한국어 텍스트");
        }),
        ("text_emoji", |b| {
            b.shape(Geom::Note, [0.0, 0.0, 160.0, 100.0], "Done ✅ ❤️ 👍🏽 👨‍👩‍👧 🇫🇷");
        }),
        ("text_arrows_box", |b| {
            b.shape(Geom::Rect, [0.0, 0.0, 200.0, 60.0], "A → B ⇒ C ⟶ D ↺ ⇄");
            b.styled(
                Geom::Rect,
                [220.0, 0.0, 160.0, 110.0],
                "┌──┬──┐\n│ab│cd│\n├──┼──┤\n└──┴──┘ ░▒▓█",
                style_with(|s| s.font = Some(Font::Mono)),
            );
            b.shape(Geom::Rect, [0.0, 80.0, 200.0, 40.0], "╔══╗ box ╚══╝");
        }),
        ("text_math", |b| {
            b.shape(Geom::Rect, [0.0, 0.0, 220.0, 60.0], "∀x ∈ ℝ: x² ≥ 0 ⇔ ∑ ∫ √2 ≠ π");
            b.shape(Geom::Rect, [240.0, 0.0, 200.0, 60.0], "⨁ ⊗ ⟦a⟧ ≼ 𝔸𝔹ℂ ∮");
        }),
        ("text_rtl", |b| {
            b.shape(Geom::Rounded, [0.0, 0.0, 160.0, 60.0], "שלום עולם");
            b.shape(Geom::Rounded, [180.0, 0.0, 160.0, 60.0], "مرحبا بالعالم");
            b.shape(Geom::Rounded, [360.0, 0.0, 200.0, 60.0], "Hello שלום 123 world");
        }),
        ("text_scripts", |b| {
            b.shape(Geom::Rounded, [0.0, 0.0, 160.0, 60.0], "नमस्ते दुनिया");
            b.shape(Geom::Rounded, [180.0, 0.0, 160.0, 60.0], "สวัสดีชาวโลก");
        }),
        // The four font choices, Regular in shapes and SemiBold in frame titles.
        ("font_choice", |b| {
            for (i, f) in Font::ALL.iter().enumerate() {
                let x = i as f64 * 170.0;
                b.styled(
                    Geom::Frame,
                    [x, 0.0, 160.0, 130.0],
                    &format!("{f} title"),
                    style_with(|s| s.font = Some(*f)),
                );
                b.styled(
                    Geom::Note,
                    [x + 10.0, 40.0, 140.0, 80.0],
                    "Quick brown fox → jumps 😀 Ünïcödé",
                    style_with(|s| s.font = Some(*f)),
                );
            }
        }),
        ("rich_text", |b| {
            let top_left = || {
                style_with(|s| {
                    s.align = Some(Align::Left);
                    s.valign = Some(VAlign::Top);
                })
            };
            b.styled(
                Geom::Note,
                [0.0, 0.0, 220.0, 170.0],
                "**Launch plan** for _Q3_\n- ship ~~v1~~ **v2**\n- run `cargo test`\n  - then [the docs](https://example.com)\n1. decide\n10. announce",
                top_left(),
            );
            b.shape(
                Geom::Rounded,
                [240.0, 0.0, 180.0, 80.0],
                "A **bold** and *italic* idea with `code`",
            );
            b.styled(
                Geom::Rect,
                [240.0, 100.0, 180.0, 70.0],
                "On dark: [a link](https://example.com) and **bold**",
                style_with(|s| s.fill = Some(Color::Named(Palette::Black))),
            );
            b.styled(
                Geom::Note,
                [440.0, 0.0, 150.0, 170.0],
                "*Serif* **bold** ***both***\n- 確認 → done 😀\n- 2\\*3\\*4 stays",
                style_with(|s| {
                    s.font = Some(Font::Serif);
                    s.align = Some(Align::Left);
                }),
            );
        }),
    ]);
    v.extend::<Vec<Case>>(vec![
        ("route_straight", |b| routes(b, Route::Straight)),
        ("route_orthogonal", |b| routes(b, Route::Orthogonal)),
        ("route_curved", |b| routes(b, Route::Curved)),
        ("route_outline_ends", |b| {
            let c = b.shape(Geom::Ellipse, [120.0, 80.0, 100.0, 70.0], "hub");
            let d = b.shape(Geom::Diamond, [0.0, 0.0, 80.0, 60.0], "d");
            let t = b.shape(Geom::Triangle, [280.0, 0.0, 80.0, 60.0], "t");
            let h = b.shape(Geom::Hexagon, [280.0, 180.0, 90.0, 60.0], "h");
            let s = b.shape(Geom::Star, [0.0, 180.0, 80.0, 70.0], "");
            for o in [d, t, h, s] {
                b.connect(obj(&c), obj(&o), Route::Straight, Arrow::Arrow);
            }
        }),
        ("route_free_ends", |b| {
            let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 50.0], "bound");
            b.connect(obj(&a), at(220.0, 100.0), Route::Orthogonal, Arrow::Triangle);
            b.connect(at(0.0, 140.0), at(200.0, 140.0), Route::Straight, Arrow::Arrow);
        }),
        ("route_self_loop", |b| {
            let a = b.shape(Geom::Rounded, [40.0, 40.0, 120.0, 60.0], "retry");
            b.connect(obj(&a), obj(&a), Route::Orthogonal, Arrow::Arrow);
        }),
        ("connector_label", |b| {
            let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 50.0], "client");
            let c = b.shape(Geom::Rect, [260.0, 80.0, 100.0, 50.0], "server");
            b.labelled(&a, &c, "HTTP request");
        }),
        ("route_shared_side", |b| {
            // Three lines into one top side, each straight down from its source,
            // which is in line with the side; the right side fans out to two
            // targets, the one in line staying straight.
            let server = b.shape(Geom::Rounded, [0.0, 200.0, 300.0, 60.0], "server");
            for x in [0.0, 110.0, 220.0] {
                let c = b.shape(Geom::Rect, [x, 60.0, 80.0, 40.0], "client");
                b.connect(obj(&c), obj(&server), Route::Orthogonal, Arrow::Arrow);
            }
            let db = b.shape(Geom::Cylinder, [420.0, 200.0, 90.0, 60.0], "db");
            let log = b.shape(Geom::Rect, [420.0, 80.0, 90.0, 40.0], "log");
            b.connect(obj(&server), obj(&db), Route::Orthogonal, Arrow::Arrow);
            b.connect(obj(&server), obj(&log), Route::Curved, Arrow::Arrow);
            // Two diagonal Ls into the top of a diamond.
            let d = b.shape(Geom::Diamond, [160.0, 360.0, 140.0, 80.0], "decide");
            let e = b.shape(Geom::Ellipse, [0.0, 300.0, 100.0, 40.0], "a");
            let f = b.shape(Geom::Ellipse, [400.0, 300.0, 100.0, 40.0], "b");
            b.connect(obj(&e), obj(&d), Route::Orthogonal, Arrow::Triangle);
            b.connect(obj(&f), obj(&d), Route::Orthogonal, Arrow::Triangle);
        }),
        ("route_diagonal_l", |b| {
            // Diagonal pairs take one bend: the shorter L, unless a shape blocks it.
            let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 50.0], "a");
            let c = b.shape(Geom::Rounded, [200.0, 130.0, 100.0, 50.0], "b");
            b.connect(obj(&a), obj(&c), Route::Orthogonal, Arrow::Arrow);
            b.connect(obj(&c), obj(&a), Route::Orthogonal, Arrow::Arrow);
            let a = b.shape(Geom::Rect, [380.0, 0.0, 100.0, 50.0], "c");
            let c = b.shape(Geom::Rounded, [580.0, 130.0, 100.0, 50.0], "d");
            b.shape(Geom::Note, [520.0, 0.0, 60.0, 50.0], "wall");
            b.connect(obj(&a), obj(&c), Route::Orthogonal, Arrow::Arrow);
        }),
        ("label_long_segment", |b| {
            // The label sits on the long leg, not by the arrowhead; two labels that
            // would meet are moved apart along their lines.
            let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 50.0], "start");
            let c = b.shape(Geom::Rect, [160.0, 250.0, 100.0, 50.0], "end");
            b.labelled(&a, &c, "long leg");
            let l = b.shape(Geom::Rect, [320.0, 100.0, 100.0, 50.0], "client");
            let r = b.shape(Geom::Rect, [700.0, 100.0, 100.0, 50.0], "server");
            b.labelled(&l, &r, "request");
            b.connector(Connector {
                text: "response".into(),
                style: style_with(|s| s.dash = Some(Dash::Dashed)),
                ..Connector::new(obj(&r), obj(&l))
            });
        }),
        ("route_around_shape", |b| {
            // The straight way from a to b is blocked by a wall; the route goes
            // round it. A diagonal pair whose two Ls are both blocked finds a way
            // between the obstacles.
            around_wall(b);
            let d = b.shape(Geom::Ellipse, [0.0, 220.0, 100.0, 50.0], "c");
            let e = b.shape(Geom::Rounded, [330.0, 360.0, 100.0, 50.0], "d");
            b.shape(Geom::Rect, [150.0, 220.0, 60.0, 60.0], "x");
            b.shape(Geom::Rect, [20.0, 330.0, 60.0, 80.0], "y");
            b.shape(Geom::Diamond, [200.0, 300.0, 80.0, 60.0], "z");
            b.connect(obj(&d), obj(&e), Route::Orthogonal, Arrow::Triangle);
        }),
        // Lines sharing the channel between two rows are set side by side there.
        ("route_shared_channel", shared_channel),
        // A line between two shapes in a frame stays inside, a line from one of
        // them to a shape outside crosses the frame's side, and a line between two
        // shapes outside goes round the frame.
        ("route_frame", |b| {
            frame_routes(b);
        }),
        // The middle of the line is next to a shape the label would cover; the label
        // moves along the line to where it covers nothing.
        ("label_avoids_shape", |b| {
            label_by_note(b);
        }),
        ("arrow_none", |b| arrow(b, Arrow::None)),
        ("arrow_arrow", |b| arrow(b, Arrow::Arrow)),
        ("arrow_triangle", |b| arrow(b, Arrow::Triangle)),
        ("arrow_diamond", |b| arrow(b, Arrow::Diamond)),
        ("arrow_circle", |b| arrow(b, Arrow::Circle)),
        ("arrow_bar", |b| arrow(b, Arrow::Bar)),
        ("arrow_dot", |b| arrow(b, Arrow::Dot)),
        ("arrow_one", |b| arrow(b, Arrow::One)),
        ("arrow_zero_or_one", |b| arrow(b, Arrow::ZeroOrOne)),
        ("arrow_one_or_many", |b| arrow(b, Arrow::OneOrMany)),
        ("arrow_zero_or_many", |b| arrow(b, Arrow::ZeroOrMany)),
        ("arrow_many", |b| arrow(b, Arrow::Many)),
        ("arrow_hollow_triangle", |b| arrow(b, Arrow::HollowTriangle)),
        ("arrow_hollow_diamond", |b| arrow(b, Arrow::HollowDiamond)),
        ("er_crows_feet", |b| {
            // Every end kind at both ends of a labelled relationship, between
            // tables, one pair a row; and one running down, dashed.
            let kinds = [
                Arrow::One,
                Arrow::ZeroOrOne,
                Arrow::OneOrMany,
                Arrow::ZeroOrMany,
                Arrow::Many,
            ];
            for (i, k) in kinds.into_iter().enumerate() {
                let y = i as f64 * 70.0;
                let a = b.shape(Geom::Table, [0.0, y, 120.0, 32.0], k.name());
                let c = b.shape(Geom::Table, [300.0, y, 120.0, 32.0], "B");
                b.connector(Connector {
                    start_arrow: k,
                    end_arrow: k,
                    text: "has".into(),
                    ..Connector::new(obj(&a), obj(&c))
                });
            }
            let top = b.shape(Geom::Table, [520.0, 0.0, 120.0, 32.0], "Up");
            let down = b.shape(Geom::Table, [520.0, 250.0, 120.0, 32.0], "Down");
            b.connector(Connector {
                start_arrow: Arrow::One,
                end_arrow: Arrow::ZeroOrMany,
                text: "owns".into(),
                style: Style {
                    dash: Some(Dash::Dashed),
                    ..Style::default()
                },
                ..Connector::new(obj(&top), obj(&down))
            });
        }),
        ("geom_end_state", |b| {
            // The end alone, large, and drawn in red (the disc takes the
            // outline's colour).
            b.shape(Geom::EndState, [0.0, 0.0, 30.0, 30.0], "");
            b.shape(Geom::EndState, [60.0, 0.0, 80.0, 80.0], "");
            b.styled(
                Geom::EndState,
                [170.0, 0.0, 30.0, 30.0],
                "",
                style_with(|s| s.stroke = Some(Color::Named(Palette::Red))),
            );
        }),
        ("state_shapes", |b| {
            // A state diagram's marks as the Mermaid import draws them: a start
            // (a filled circle), a fork bar, two states, a choice, an end;
            // connectors meet each outline.
            let black = || {
                style_with(|s| {
                    s.fill = Some(Color::Named(Palette::Black));
                    s.stroke = Some(Color::Named(Palette::Black));
                })
            };
            let start = b.styled(Geom::Ellipse, [110.0, 0.0, 24.0, 24.0], "", black());
            let fork = b.styled(Geom::Rect, [62.0, 70.0, 120.0, 8.0], "", black());
            let left = b.shape(Geom::Rounded, [0.0, 130.0, 100.0, 44.0], "Left");
            let right = b.shape(Geom::Rounded, [144.0, 130.0, 100.0, 44.0], "Right");
            let choice = b.shape(Geom::Diamond, [106.0, 220.0, 32.0, 32.0], "");
            let end = b.shape(Geom::EndState, [107.0, 300.0, 30.0, 30.0], "");
            for (a, c) in [
                (&start, &fork),
                (&fork, &left),
                (&fork, &right),
                (&left, &choice),
                (&right, &choice),
                (&choice, &end),
            ] {
                b.connect(obj(a), obj(c), Route::Straight, Arrow::Arrow);
            }
        }),
        ("uml_class", |b| {
            // A UML class diagram: an interface (its stereotype above its
            // name), a realization (dashed, hollow triangle), an inheritance,
            // an aggregation with cardinalities and a composition.
            let table = |b: &mut Build, x: f64, y: f64, text: &str| {
                let (w, h) = inkboard_render::table::natural_size(text, &Style::default());
                b.shape(Geom::Table, [x, y, w, h], text)
            };
            let shape = table(b, 200.0, 0.0, "<<interface>> Shape\n---\n+area() double");
            let circle = table(
                b,
                0.0,
                220.0,
                "Circle\n-radius: double\n---\n+area() double",
            );
            let square = table(b, 300.0, 220.0, "Square\n-side: double\n---\n+area() double");
            let canvas = table(
                b,
                560.0,
                0.0,
                "Canvas\n-shapes: List<Shape>\n---\n+draw()\n+add(Shape s)",
            );
            let layer = table(b, 560.0, 220.0, "Layer\n+name: String\n---");
            b.connector(Connector {
                end_arrow: Arrow::HollowTriangle,
                style: Style {
                    dash: Some(Dash::Dashed),
                    ..Style::default()
                },
                ..Connector::new(obj(&circle), obj(&shape))
            });
            b.connector(Connector {
                end_arrow: Arrow::HollowTriangle,
                ..Connector::new(obj(&square), obj(&shape))
            });
            let mut holds = Connector {
                start_arrow: Arrow::HollowDiamond,
                end_arrow: Arrow::None,
                ..Connector::new(obj(&canvas), obj(&shape))
            };
            holds.set_end_label(true, "1".into());
            holds.set_end_label(false, "*".into());
            b.connector(holds);
            b.connector(Connector {
                start_arrow: Arrow::Diamond,
                end_arrow: Arrow::None,
                text: "layers".into(),
                ..Connector::new(obj(&canvas), obj(&layer))
            });
        }),
        ("flip_triangle", |b| {
            b.shape(Geom::Triangle, [0.0, 0.0, 100.0, 80.0], "up");
            let down = b.shape(Geom::Triangle, [130.0, 0.0, 100.0, 80.0], "down");
            let across = b.shape(Geom::Parallelogram, [260.0, 0.0, 120.0, 60.0], "across");
            b.flip(&down, false, true);
            b.flip(&across, true, false);
        }),
        ("fill_hachure", |b| sketch(b, 0.0, FillStyle::Hachure)),
        ("fill_cross_hatch", |b| sketch(b, 0.0, FillStyle::CrossHatch)),
        ("rough_1", |b| sketch(b, 1.0, FillStyle::Solid)),
        ("rough_2", |b| sketch(b, 2.0, FillStyle::Hachure)),
        ("image_png", |b| {
            b.image([0.0, 0.0, 120.0, 80.0], ImageFormat::Png, gradient_png(12, 8));
        }),
        ("image_svg", |b| {
            let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40"><circle cx="20" cy="20" r="16" fill="#43a047"/><rect x="12" y="12" width="16" height="16" fill="#fff"/></svg>"##;
            b.image([0.0, 0.0, 80.0, 80.0], ImageFormat::Svg, svg.as_bytes().to_vec());
        }),
        ("ink", |b| {
            let wave: Vec<(f64, f64)> = (0..12)
                .map(|i| (i as f64 * 20.0, if i % 2 == 0 { 0.0 } else { 40.0 }))
                .collect();
            b.ink(&wave, Style::default());
            b.ink(
                &[(0.0, 80.0), (60.0, 70.0), (120.0, 100.0), (200.0, 80.0)],
                style_with(|s| {
                    s.stroke = Some(Color::Named(Palette::Blue));
                    s.stroke_width = Some(6.0);
                }),
            );
            b.ink(&[(240.0, 80.0)], Style::default());
        }),
        ("rotated_shapes", |b| {
            let r = b.shape(Geom::Rect, [0.0, 0.0, 120.0, 60.0], "30°");
            b.turn(&r, 30.0);
            let e = b.shape(Geom::Ellipse, [160.0, 0.0, 120.0, 60.0], "a quarter");
            b.turn(&e, 90.0);
            let d = b.shape(Geom::Diamond, [0.0, 140.0, 120.0, 100.0], "45°");
            b.turn(&d, 45.0);
            let n = b.shape(Geom::Note, [160.0, 140.0, 120.0, 100.0], "A note, -20°");
            b.turn(&n, -20.0);
        }),
        ("rotated_text", |b| {
            let t = b.shape(Geom::Text, [0.0, 40.0, 160.0, 24.0], "Reads upwards");
            b.turn(&t, 270.0);
            let r = b.shape(
                Geom::Rounded,
                [80.0, 0.0, 200.0, 80.0],
                "Wrapped text in a **turned** shape stays in its box",
            );
            b.turn(&r, 15.0);
        }),
        ("rotated_image", |b| {
            let i = b.image([0.0, 0.0, 120.0, 80.0], ImageFormat::Png, gradient_png(12, 8));
            b.turn(&i, 30.0);
        }),
        ("rotated_frame", |b| {
            let f = b.shape(Geom::Frame, [0.0, 0.0, 280.0, 170.0], "Turned frame");
            b.turn(&f, 10.0);
            b.shape(Geom::Rounded, [60.0, 70.0, 100.0, 50.0], "Inside");
        }),
        ("rotated_connectors", |b| {
            let a = b.shape(Geom::Rect, [0.0, 40.0, 120.0, 50.0], "from");
            b.turn(&a, 45.0);
            let c = b.shape(Geom::Ellipse, [260.0, 0.0, 120.0, 60.0], "to");
            b.turn(&c, 60.0);
            let d = b.shape(Geom::Rect, [240.0, 160.0, 100.0, 50.0], "straight");
            b.turn(&d, 20.0);
            b.connect(obj(&a), obj(&c), Route::Orthogonal, Arrow::Arrow);
            b.connect(obj(&a), obj(&d), Route::Straight, Arrow::Arrow);
        }),
        ("group", |b| {
            let a = b.shape(Geom::Rect, [0.0, 0.0, 80.0, 40.0], "a");
            let c = b.shape(Geom::Ellipse, [100.0, 0.0, 80.0, 40.0], "b");
            b.group(&[a, c]);
        }),
        // An ER sketch: cardinalities at both ends, across, down and round a
        // corner, one relationship named, one end with an arrowhead.
        ("end_labels_er", |b| {
            let customer = b.shape(Geom::Rect, [0.0, 0.0, 120.0, 60.0], "Customer");
            let order = b.shape(Geom::Rect, [300.0, 0.0, 120.0, 60.0], "Order");
            let item = b.shape(Geom::Rect, [300.0, 200.0, 120.0, 60.0], "Line item");
            let product = b.shape(Geom::Rect, [0.0, 200.0, 120.0, 60.0], "Product");
            let ends = |c: &mut Connector, start: &str, end: &str| {
                c.set_end_label(true, start.into());
                c.set_end_label(false, end.into());
            };
            let mut places = Connector {
                text: "places".into(),
                end_arrow: Arrow::None,
                ..Connector::new(obj(&customer), obj(&order))
            };
            ends(&mut places, "1", "0..*");
            b.connector(places);
            let mut holds = Connector {
                end_arrow: Arrow::None,
                ..Connector::new(obj(&order), obj(&item))
            };
            ends(&mut holds, "1", "1..*");
            b.connector(holds);
            let mut of = Connector::new(obj(&item), obj(&product));
            ends(&mut of, "0..*", "1");
            b.connector(of);
            let mut buys = Connector {
                end_arrow: Arrow::None,
                ..Connector::new(obj(&customer), obj(&item))
            };
            ends(&mut buys, "buyer", "bought");
            b.connector(buys);
        }),
        // Drawn in the dark theme (see `theme_of`): paper, ink, palette fills, a
        // note, a frame, a label, a link and code; the image keeps its colours.
        ("dark_board", |b| {
            b.shape(Geom::Frame, [0.0, 0.0, 420.0, 230.0], "Dark frame");
            let a = b.shape(Geom::Rounded, [20.0, 50.0, 110.0, 50.0], "plain");
            let c = b.styled(
                Geom::Ellipse,
                [200.0, 50.0, 110.0, 50.0],
                "blue",
                Style {
                    fill: Some(Color::Named(Palette::Blue)),
                    ..Style::default()
                },
            );
            b.shape(
                Geom::Note,
                [20.0, 120.0, 160.0, 90.0],
                "A note, [a link](https://example.com) and `code`",
            );
            b.connector(Connector {
                text: "label".into(),
                ..Connector::new(obj(&a), obj(&c))
            });
            b.image([220.0, 130.0, 120.0, 80.0], ImageFormat::Png, gradient_png(12, 8));
        }),
        // Icons above their text on several outlines (the text moved down to
        // make room), alone in a text-less shape, above a small one, before a
        // frame's title, left-aligned, coloured by the line, and unknown (none).
        ("icons", |b| {
            let f = b.shape(Geom::Frame, [0.0, 0.0, 560.0, 300.0], "Checkout");
            b.icon(&f, "users");
            for (i, (geom, text, icon)) in [
                (Geom::Rect, "API", "server"),
                (Geom::Cylinder, "Orders", "database"),
                (Geom::Ellipse, "Customer", "user"),
                (Geom::Note, "Retry queue", "queue"),
                (Geom::Rounded, "", "cloud"),
            ]
            .into_iter()
            .enumerate()
            {
                let s = b.shape(geom, [20.0 + i as f64 * 108.0, 50.0, 96.0, 90.0], text);
                b.icon(&s, icon);
            }
            let left = b.styled(
                Geom::Rounded,
                [20.0, 170.0, 150.0, 90.0],
                "Left, **blue**",
                Style {
                    align: Some(Align::Left),
                    stroke: Some(Color::Named(Palette::Blue)),
                    ..Style::default()
                },
            );
            b.icon(&left, "mail");
            let small = b.shape(Geom::Rect, [230.0, 220.0, 12.0, 12.0], "");
            b.icon(&small, "lock");
            let dark = b.styled(
                Geom::Hexagon,
                [300.0, 170.0, 110.0, 100.0],
                "Phone",
                Style {
                    fill: Some(Color::Named(Palette::Black)),
                    ..Style::default()
                },
            );
            b.icon(&dark, "smartphone");
            let unknown = b.shape(Geom::Rect, [430.0, 170.0, 110.0, 90.0], "Newer icon");
            b.icon(&unknown, "not-in-this-set");
        }),
    ]);
    v
}

fn style_with(f: impl FnOnce(&mut Style)) -> Style {
    let mut s = Style::default();
    f(&mut s);
    s
}

/// A shape of geom `g` labelled with its name, sized like `add_shape` does: the
/// default size, grown to hold the label on one line.
fn geom(b: &mut Build, g: Geom) {
    let label = g.to_string();
    let block =
        inkboard_render::text::layout(&label, 16.0, inkboard_render::text::Weight::Regular, None);
    let (tw, th) = g.size_for_text(block.width as f64 + 1.0, block.height as f64);
    let (dw, dh) = g.default_size();
    b.shape(g, [0.0, 0.0, dw.max(tw.ceil()), dh.max(th.ceil())], &label);
}

/// A hub with targets beside, below, diagonal and overlapping on one axis.
fn routes(b: &mut Build, route: Route) {
    let hub = b.shape(Geom::Rounded, [0.0, 80.0, 100.0, 50.0], "hub");
    for r in [
        [220.0, 80.0, 100.0, 50.0],
        [220.0, 0.0, 100.0, 40.0],
        [40.0, 220.0, 100.0, 50.0],
        [260.0, 190.0, 100.0, 50.0],
    ] {
        let t = b.shape(Geom::Rect, r, "");
        b.connect(obj(&hub), obj(&t), route, Arrow::Arrow);
    }
}

/// One shape of each kind of outline (straight, rounded, curved, open details),
/// a note (whose shadow stays soft) and an arrow, all in one hand-drawn look.
fn sketch(b: &mut Build, roughness: f64, fill_style: FillStyle) {
    let look = |fill: Palette| {
        style_with(|s| {
            s.fill = Some(Color::Named(fill));
            s.roughness = Some(roughness);
            s.fill_style = Some(fill_style);
        })
    };
    let a = b.styled(
        Geom::Rect,
        [0.0, 0.0, 120.0, 70.0],
        "rect",
        look(Palette::Blue),
    );
    let e = b.styled(
        Geom::Ellipse,
        [170.0, 0.0, 120.0, 70.0],
        "ellipse",
        look(Palette::Green),
    );
    b.styled(
        Geom::Diamond,
        [0.0, 110.0, 120.0, 80.0],
        "diamond",
        look(Palette::Red),
    );
    b.styled(
        Geom::Cylinder,
        [170.0, 110.0, 90.0, 80.0],
        "",
        look(Palette::Yellow),
    );
    b.styled(
        Geom::Note,
        [300.0, 110.0, 90.0, 80.0],
        "note",
        look(Palette::Yellow),
    );
    b.connector(Connector {
        end_arrow: Arrow::Triangle,
        style: style_with(|s| s.roughness = Some(roughness)),
        ..Connector::new(obj(&a), obj(&e))
    });
}

fn arrow(b: &mut Build, head: Arrow) {
    let a = b.shape(Geom::Rect, [0.0, 0.0, 80.0, 40.0], "from");
    let c = b.shape(Geom::Rect, [200.0, 0.0, 80.0, 40.0], "to");
    b.connector(Connector {
        start_arrow: head,
        end_arrow: head,
        ..Connector::new(obj(&a), obj(&c))
    });
    let d = b.shape(Geom::Ellipse, [200.0, 80.0, 80.0, 50.0], "");
    b.connector(Connector {
        end_arrow: head,
        route: Route::Curved,
        ..Connector::new(obj(&a), obj(&d))
    });
}

/// The theme a case is drawn in: dark for the cases named `dark_*`.
fn theme_of(name: &str) -> Theme {
    if name.starts_with("dark_") {
        Theme::Dark
    } else {
        Theme::Light
    }
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

fn update() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

fn decode(data: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(data));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    buf.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => buf,
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
        other => panic!("unexpected colour type {other:?}"),
    };
    (info.width, info.height, rgb)
}

/// Compares two PNGs; `Err` describes how they differ.
fn compare(actual: &[u8], expected: &[u8]) -> Result<(), String> {
    let (aw, ah, a) = decode(actual);
    let (ew, eh, e) = decode(expected);
    if (aw, ah) != (ew, eh) {
        return Err(format!("size {aw}×{ah}, expected {ew}×{eh}"));
    }
    let differing = a
        .chunks_exact(3)
        .zip(e.chunks_exact(3))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count();
    let share = differing as f64 / (aw as f64 * ah as f64);
    if share > PIXEL_SHARE {
        return Err(format!("{differing} pixels differ ({:.3}%)", share * 100.0));
    }
    Ok(())
}

#[test]
fn reference_renders() {
    let mut failures = Vec::new();
    let mut names = std::collections::HashSet::new();
    for (name, build) in cases() {
        assert!(names.insert(name), "duplicate case {name}");
        let mut b = Build::new();
        build(&mut b);
        let scene = resolve(&b.board, PAGE).in_theme(theme_of(name));
        let svg = to_svg_with(
            &scene,
            None,
            SvgOptions {
                embed_fonts: false,
                background: true,
            },
        );
        let png = to_png_scaled(&scene, None, 1.0).expect("png");
        let (svg_path, png_path) = (
            dir().join(format!("{name}.svg")),
            dir().join(format!("{name}.png")),
        );
        if update() {
            std::fs::write(&svg_path, &svg).unwrap();
            std::fs::write(&png_path, &png.data).unwrap();
            continue;
        }
        match std::fs::read_to_string(&svg_path) {
            Ok(expected) if expected == svg => {}
            Ok(_) => failures.push(format!("{name}: SVG differs from {}", svg_path.display())),
            Err(e) => failures.push(format!("{name}: {}: {e}", svg_path.display())),
        }
        match std::fs::read(&png_path) {
            Ok(expected) => {
                if let Err(e) = compare(&png.data, &expected) {
                    failures.push(format!("{name}: PNG {e}"));
                }
            }
            Err(e) => failures.push(format!("{name}: {}: {e}", png_path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "reference renders differ (refresh with UPDATE_EXPECT=1 after looking at them):\n{}",
        failures.join("\n")
    );
}
