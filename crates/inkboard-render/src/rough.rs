//! The hand-drawn look (issue 35): an object's `roughness` and `fill_style`
//! applied to its resolved paths, so SVG, PNG and PDF draw the same sketch.
//!
//! A small port of rough.js's algorithms (MIT, Preet Shihn): every line is
//! drawn twice as a bowed cubic with jittered ends (`_line`/`_doubleLine`),
//! every curve as a Catmull-Rom spline through jittered points on it (`_curve`,
//! as its ellipses), and `hachure`/`cross-hatch` fills are parallel lines at
//! rough.js's angle (-41°, and 49° for the cross), clipped by scanning the
//! flattened outline (`polygonHachureLines`), each drawn rough in turn. Its
//! random numbers come from [`Rng`], a SplitMix64 stream seeded from the
//! object's id, so the same board always gives the same picture, on any
//! machine and with any version of any crate (why not the `roughr` crate:
//! `docs/dependencies.md`). With roughness 0 and a solid fill nothing here runs
//! and the paths stay exactly as they were.

use inkboard_core::{FillStyle, ObjectId, Point, Style};
use inkboard_geom::{cubic_at, distance};

use crate::scene::{Part, PathPart, Seg, Stroke};

/// A SplitMix64 stream (Steele, Lea and Flood, 2014): tiny, fast and fixed by
/// its definition, so a sketch never changes under a dependency upgrade.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// The stream of the object with id `id`: its FNV-1a hash as the seed.
    pub(crate) fn from_id(id: &str) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in id.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The most hachure lines one pass draws: a huge shape with a thin line gets
/// wider gaps instead of unbounded work.
const MAX_HACHURES: f64 = 400.0;

/// How far (in board units) rough.js lets a line's ends wander at roughness 1.
const MAX_OFFSET: f64 = 2.0;

/// The pen: roughness and the random stream.
struct Pen<'a> {
    roughness: f64,
    rng: &'a mut Rng,
}

impl Pen<'_> {
    /// rough.js's `_offsetOpt`: uniform in `[-x, x)`, scaled by the roughness.
    fn jitter(&mut self, x: f64, gain: f64) -> f64 {
        self.roughness * gain * (self.rng.unit() * 2.0 * x - x)
    }

    /// rough.js's `_line`: one bowed cubic from near `a` to near `b`.
    fn line(&mut self, a: Point, b: Point, overlay: bool, out: &mut Vec<Seg>) {
        let len = distance(a, b);
        // Long lines wander less, as a hand steadies over a long stroke.
        let gain = if len < 200.0 {
            1.0
        } else if len > 500.0 {
            0.4
        } else {
            -0.001_666_8 * len + 1.233_334
        };
        let mut offset = MAX_OFFSET;
        if offset * offset * 100.0 > len * len {
            offset = len / 10.0;
        }
        let half = offset / 2.0;
        let diverge = 0.2 + self.rng.unit() * 0.2;
        let mid_x = self.jitter(MAX_OFFSET * (b.y - a.y) / 200.0, gain);
        let mid_y = self.jitter(MAX_OFFSET * (a.x - b.x) / 200.0, gain);
        let spread = if overlay { half } else { offset };
        let r = |pen: &mut Self| pen.jitter(spread, gain);
        let start = Point {
            x: a.x + r(self),
            y: a.y + r(self),
        };
        let c1 = Point {
            x: mid_x + a.x + (b.x - a.x) * diverge + r(self),
            y: mid_y + a.y + (b.y - a.y) * diverge + r(self),
        };
        let c2 = Point {
            x: mid_x + a.x + 2.0 * (b.x - a.x) * diverge + r(self),
            y: mid_y + a.y + 2.0 * (b.y - a.y) * diverge + r(self),
        };
        let end = Point {
            x: b.x + r(self),
            y: b.y + r(self),
        };
        out.push(Seg::Move(start));
        out.push(Seg::Cubic(c1, c2, end));
    }

    /// rough.js's `_doubleLine`: two strokes along the same line.
    fn double_line(&mut self, a: Point, b: Point, out: &mut Vec<Seg>) {
        self.line(a, b, false, out);
        self.line(a, b, true, out);
    }

    /// A curve through `points` (on the outline), drawn twice as rough.js draws
    /// an ellipse: each pass through the points jittered by `1` then `1.5`
    /// units and, when `closed`, scaled about their centre by up to 5% and run a
    /// little past its start, so the two passes overlap as a hand's do.
    fn curve(&mut self, points: &[Point], closed: bool, out: &mut Vec<Seg>) {
        if points.len() < 2 {
            return;
        }
        let n = points.len() as f64;
        let centre = Point {
            x: points.iter().map(|p| p.x).sum::<f64>() / n,
            y: points.iter().map(|p| p.y).sum::<f64>() / n,
        };
        for offset in [1.0, 1.5] {
            let scale = if closed {
                1.0 + self.jitter(0.05, 1.0)
            } else {
                1.0
            };
            let mut moved: Vec<Point> = points
                .iter()
                .map(|p| Point {
                    x: centre.x + (p.x - centre.x) * scale + self.jitter(offset, 1.0),
                    y: centre.y + (p.y - centre.y) * scale + self.jitter(offset, 1.0),
                })
                .collect();
            if closed {
                // Past the start, over the first two points again.
                let (a, b) = (moved[0], moved[1.min(moved.len() - 1)]);
                moved.push(a);
                moved.push(b);
            }
            catmull_rom(&moved, out);
        }
    }
}

/// rough.js's `_curve` with tightness 0: the Catmull-Rom spline through
/// `points`, as cubics, from the first point to the last.
fn catmull_rom(points: &[Point], out: &mut Vec<Seg>) {
    let Some(&first) = points.first() else {
        return;
    };
    out.push(Seg::Move(first));
    let at = |i: isize| points[i.clamp(0, points.len() as isize - 1) as usize];
    for i in 0..points.len() as isize - 1 {
        let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
        out.push(Seg::Cubic(
            Point {
                x: p1.x + (p2.x - p0.x) / 6.0,
                y: p1.y + (p2.y - p0.y) / 6.0,
            },
            Point {
                x: p2.x - (p3.x - p1.x) / 6.0,
                y: p2.y - (p3.y - p1.y) / 6.0,
            },
            p2,
        ));
    }
}

/// Points taken along each cubic of a curve.
const CURVE_STEPS: usize = 4;

/// `segs` drawn rough with `roughness`: straight runs as double lines, runs of
/// curves as jittered splines.
pub(crate) fn rough_path(segs: &[Seg], roughness: f64, rng: &mut Rng) -> Vec<Seg> {
    let mut pen = Pen { roughness, rng };
    let mut out = Vec::with_capacity(segs.len() * 4);
    let mut start: Option<Point> = None;
    let mut at: Option<Point> = None;
    // The points of the run of curves being walked, its first point included.
    let mut curve: Vec<Point> = Vec::new();
    let flush = |pen: &mut Pen, curve: &mut Vec<Point>, closed: bool, out: &mut Vec<Seg>| {
        if curve.len() > 1 {
            pen.curve(curve, closed, out);
        }
        curve.clear();
    };
    for seg in segs {
        match *seg {
            Seg::Move(p) => {
                flush(&mut pen, &mut curve, false, &mut out);
                start = Some(p);
                at = Some(p);
            }
            Seg::Line(p) => {
                flush(&mut pen, &mut curve, false, &mut out);
                if let Some(a) = at {
                    pen.double_line(a, p, &mut out);
                }
                at = Some(p);
            }
            Seg::Cubic(c1, c2, p) => {
                if let Some(a) = at {
                    if curve.is_empty() {
                        curve.push(a);
                    }
                    for k in 1..=CURVE_STEPS {
                        curve.push(cubic_at(a, c1, c2, p, k as f64 / CURVE_STEPS as f64));
                    }
                }
                at = Some(p);
            }
            Seg::Close => {
                let closes_curve = !curve.is_empty()
                    && start.is_some_and(|s| curve.first().is_some_and(|f| same(*f, s)));
                if closes_curve {
                    // The run ends where it began: one closed curve, without
                    // the repeated start point.
                    if let (Some(s), Some(a)) = (start, at) {
                        if same(s, a) {
                            curve.pop();
                        }
                    }
                }
                flush(&mut pen, &mut curve, closes_curve, &mut out);
                if let (Some(s), Some(a)) = (start, at) {
                    if !same(s, a) {
                        pen.double_line(a, s, &mut out);
                    }
                }
                at = start;
            }
        }
    }
    flush(&mut pen, &mut curve, false, &mut out);
    out
}

fn same(a: Point, b: Point) -> bool {
    (a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9
}

/// The closed polygons `segs` outline, curves flattened.
fn polygons(segs: &[Seg]) -> Vec<Vec<Point>> {
    let mut out: Vec<Vec<Point>> = Vec::new();
    let mut current: Vec<Point> = Vec::new();
    for seg in segs {
        match *seg {
            Seg::Move(p) => {
                if current.len() > 2 {
                    out.push(std::mem::take(&mut current));
                }
                current.clear();
                current.push(p);
            }
            Seg::Line(p) => current.push(p),
            Seg::Cubic(c1, c2, p) => {
                if let Some(&a) = current.last() {
                    for k in 1..=8 {
                        current.push(cubic_at(a, c1, c2, p, k as f64 / 8.0));
                    }
                }
            }
            Seg::Close => {}
        }
    }
    if current.len() > 2 {
        out.push(current);
    }
    out
}

/// Turns `p` by `angle` radians about the origin.
fn turn(p: Point, angle: f64) -> Point {
    let (s, c) = angle.sin_cos();
    Point {
        x: p.x * c - p.y * s,
        y: p.x * s + p.y * c,
    }
}

/// rough.js's `polygonHachureLines`: the lines `gap` apart at `angle` (in
/// degrees) that lie inside `polys` (even-odd), as pairs of points.
fn hachure_lines(polys: &[Vec<Point>], gap: f64, angle: f64) -> Vec<(Point, Point)> {
    // Turned so that the lines are horizontal, scanned, turned back.
    let a = angle.to_radians();
    let turned: Vec<Vec<Point>> = polys
        .iter()
        .map(|poly| poly.iter().map(|p| turn(*p, -a)).collect())
        .collect();
    let ys = turned.iter().flatten().map(|p| p.y);
    let (min_y, max_y) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    if !(min_y.is_finite() && max_y.is_finite()) || max_y <= min_y {
        return Vec::new();
    }
    let gap = gap.max((max_y - min_y) / MAX_HACHURES);
    let mut lines = Vec::new();
    let mut y = min_y + gap / 2.0;
    let mut xs: Vec<f64> = Vec::new();
    while y < max_y {
        xs.clear();
        for poly in &turned {
            for (i, p) in poly.iter().enumerate() {
                let q = poly[(i + 1) % poly.len()];
                if (p.y <= y && y < q.y) || (q.y <= y && y < p.y) {
                    xs.push(p.x + (y - p.y) * (q.x - p.x) / (q.y - p.y));
                }
            }
        }
        xs.sort_by(f64::total_cmp);
        for pair in xs.chunks_exact(2) {
            lines.push((
                turn(Point { x: pair[0], y }, a),
                turn(Point { x: pair[1], y }, a),
            ));
        }
        y += gap;
    }
    lines
}

/// rough.js's hachure angle; the cross-hatch adds lines at right angles.
const HACHURE_ANGLE: f64 = -41.0;

/// The lines filling `segs` in `style` (not solid), drawn with `roughness`.
fn fill_lines(segs: &[Seg], style: FillStyle, gap: f64, roughness: f64, rng: &mut Rng) -> Vec<Seg> {
    let polys = polygons(segs);
    let angles: &[f64] = match style {
        FillStyle::Solid => &[],
        FillStyle::Hachure => &[HACHURE_ANGLE],
        FillStyle::CrossHatch => &[HACHURE_ANGLE, HACHURE_ANGLE + 90.0],
    };
    let mut out = Vec::new();
    let mut pen = Pen { roughness, rng };
    for angle in angles {
        for (a, b) in hachure_lines(&polys, gap, *angle) {
            if roughness > 0.0 {
                // One stroke per line: the fill is lighter than the outline.
                pen.line(a, b, false, &mut out);
            } else {
                out.push(Seg::Move(a));
                out.push(Seg::Line(b));
            }
        }
    }
    out
}

/// The object's look: how rough, how filled, its random stream.
struct Sketch {
    roughness: f64,
    fill_style: FillStyle,
    rng: Rng,
}

impl Sketch {
    /// Whether this sketch changes anything: a clean, solid look draws the
    /// paths as they are.
    fn is_plain(&self) -> bool {
        self.roughness <= 0.0 && self.fill_style == FillStyle::Solid
    }

    /// `parts` redrawn in this look: each outline's fill as hachure lines in
    /// the fill's colour (when not solid), each stroke rough. A solid fill
    /// stays the clean outline under the rough stroke.
    fn apply(&mut self, parts: &mut Vec<Part>) {
        if self.is_plain() {
            return;
        }
        let mut out = Vec::with_capacity(parts.len() + 2);
        for part in parts.drain(..) {
            let Part::Path(path) = part else {
                out.push(part);
                continue;
            };
            let width = path
                .stroke
                .as_ref()
                .map_or(1.0, |s| f64::from(s.width).max(0.5));
            let mut fill = path.fill;
            if let (Some(color), false) = (fill, self.fill_style == FillStyle::Solid) {
                // Excalidraw's weights: lines half the outline's width, four
                // widths apart.
                let segs = fill_lines(
                    &path.segs,
                    self.fill_style,
                    4.0 * width,
                    self.roughness,
                    &mut self.rng,
                );
                out.push(Part::Path(PathPart {
                    segs,
                    fill: None,
                    stroke: Some(Stroke {
                        color,
                        width: (width / 2.0) as f32,
                        dash: Vec::new(),
                        round_cap: true,
                    }),
                }));
                fill = None;
            }
            match (path.stroke, self.roughness > 0.0) {
                (Some(stroke), true) => {
                    if fill.is_some() {
                        out.push(Part::Path(PathPart {
                            segs: path.segs.clone(),
                            fill,
                            stroke: None,
                        }));
                    }
                    out.push(Part::Path(PathPart {
                        segs: rough_path(&path.segs, self.roughness, &mut self.rng),
                        fill: None,
                        stroke: Some(stroke),
                    }));
                }
                (stroke, _) => {
                    if fill.is_some() || stroke.is_some() {
                        out.push(Part::Path(PathPart {
                            segs: path.segs,
                            fill,
                            stroke,
                        }));
                    }
                }
            }
        }
        *parts = out;
    }
}

/// Whether `style` is drawn as it always was: clean lines and solid fills.
pub(crate) fn plain(style: &Style) -> bool {
    style.roughness.unwrap_or(0.0) <= 0.0
        && style.fill_style.unwrap_or(FillStyle::Solid) == FillStyle::Solid
}

/// `parts` (a shape's outline and details, or a connector's line and heads)
/// redrawn in `style`'s look, seeded from `id`. A connector's only fills are
/// its heads, which stay solid (`fills: false`).
pub(crate) fn sketch(id: &ObjectId, style: &Style, fills: bool, parts: &mut Vec<Part>) {
    let mut sketch = Sketch {
        roughness: style.roughness.unwrap_or(0.0),
        fill_style: style
            .fill_style
            .filter(|_| fills)
            .unwrap_or(FillStyle::Solid),
        rng: Rng::from_id(id.as_str()),
    };
    sketch.apply(parts);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Vec<Seg> {
        let p = |x, y| Point { x, y };
        vec![
            Seg::Move(p(0.0, 0.0)),
            Seg::Line(p(100.0, 0.0)),
            Seg::Line(p(100.0, 100.0)),
            Seg::Line(p(0.0, 100.0)),
            Seg::Close,
        ]
    }

    #[test]
    fn the_stream_is_fixed_by_its_seed() {
        let mut a = Rng::from_id("s1");
        let mut b = Rng::from_id("s1");
        let mut c = Rng::from_id("s2");
        let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
        assert_eq!(x, y);
        assert_ne!(x, z);
        // Pinned: a change to the generator would change every sketch.
        assert_eq!(Rng(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn a_rough_square_is_four_double_lines_near_the_outline() {
        let segs = rough_path(&square(), 1.0, &mut Rng::from_id("s1"));
        assert_eq!(segs.len(), 16);
        for s in &segs {
            let (Seg::Move(p) | Seg::Cubic(_, _, p)) = s else {
                panic!("{s:?}");
            };
            assert!(
                p.x > -3.0 && p.x < 103.0 && p.y > -3.0 && p.y < 103.0,
                "{p:?}"
            );
        }
    }

    #[test]
    fn hachure_lines_stay_inside_and_cross_hatch_doubles_them() {
        let polys = polygons(&square());
        let one = hachure_lines(&polys, 8.0, HACHURE_ANGLE);
        let other = hachure_lines(&polys, 8.0, HACHURE_ANGLE + 90.0);
        assert!(one.len() > 10, "{}", one.len());
        assert!(!other.is_empty());
        for (a, b) in one.iter().chain(&other) {
            for p in [a, b] {
                assert!(p.x > -1e-6 && p.x < 100.0 + 1e-6 && p.y > -1e-6 && p.y < 100.0 + 1e-6);
            }
        }
        let cross = fill_lines(&square(), FillStyle::CrossHatch, 8.0, 0.0, &mut Rng(1));
        assert_eq!(cross.len(), 2 * (one.len() + other.len()));
    }

    #[test]
    fn a_huge_shape_draws_a_bounded_number_of_lines() {
        let p = |x, y| Point { x, y };
        let huge = vec![
            Seg::Move(p(0.0, 0.0)),
            Seg::Line(p(1e7, 0.0)),
            Seg::Line(p(1e7, 1e7)),
            Seg::Line(p(0.0, 1e7)),
            Seg::Close,
        ];
        let lines = hachure_lines(&polygons(&huge), 1.0, HACHURE_ANGLE);
        assert!(lines.len() <= MAX_HACHURES as usize + 1, "{}", lines.len());
    }

    #[test]
    fn an_ellipse_becomes_two_closed_passes() {
        let e = crate::shapes::ellipse(Point { x: 50.0, y: 50.0 }, 40.0, 20.0);
        let segs = rough_path(&e, 2.0, &mut Rng::from_id("e"));
        let moves = segs.iter().filter(|s| matches!(s, Seg::Move(_))).count();
        assert_eq!(moves, 2);
    }
}
