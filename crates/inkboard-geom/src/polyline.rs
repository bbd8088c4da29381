//! Polylines (a drawn line as its corner points, in order): their length, the
//! point a given distance along one, and how many times two of them cross.

use crate::segment::{crosses, distance};
use crate::Point;

/// The length of a polyline.
pub fn length(points: &[Point]) -> f64 {
    points.windows(2).map(|w| distance(w[0], w[1])).sum()
}

/// The point `s` along a polyline from its start.
pub fn point_along(track: &[Point], s: f64) -> Point {
    let mut left = s;
    for w in track.windows(2) {
        let d = distance(w[0], w[1]);
        if d >= left && d > 0.0 {
            let t = left / d;
            return Point {
                x: w[0].x + (w[1].x - w[0].x) * t,
                y: w[0].y + (w[1].y - w[0].y) * t,
            };
        }
        left -= d;
    }
    track.last().copied().unwrap_or_default()
}

/// How many times the polylines `a` and `b` cross: the pairs of their segments that
/// [`crosses`] says cross.
pub fn crossings(a: &[Point], b: &[Point]) -> usize {
    a.windows(2)
        .map(|s| {
            b.windows(2)
                .filter(|t| crosses(s[0], s[1], t[0], t[1]))
                .count()
        })
        .sum()
}

/// The point at `t` (0 to 1) on the cubic from `p0` to `p3` with controls `c1`
/// and `c2`.
pub fn cubic_at(p0: Point, c1: Point, c2: Point, p3: Point, t: f64) -> Point {
    let u = 1.0 - t;
    let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
    Point {
        x: a * p0.x + b * c1.x + c * c2.x + d * p3.x,
        y: a * p0.y + b * c1.y + c * c2.y + d * p3.y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn a_point_along_walks_the_legs() {
        let l = [p(0.0, 0.0), p(10.0, 0.0), p(10.0, 10.0)];
        assert_eq!(length(&l), 20.0);
        assert_eq!(point_along(&l, 15.0), p(10.0, 5.0));
        assert_eq!(point_along(&l, 99.0), p(10.0, 10.0));
        assert_eq!(point_along(&[], 1.0), Point::default());
    }

    #[test]
    fn crossings_count_each_pair_of_segments() {
        let zig = [p(0.0, 0.0), p(10.0, 10.0), p(20.0, 0.0)];
        let flat = [p(-5.0, 5.0), p(25.0, 5.0)];
        assert_eq!(crossings(&zig, &flat), 2);
        assert_eq!(crossings(&flat, &zig), 2);
        assert_eq!(crossings(&zig, &[p(0.0, 0.0), p(0.0, 10.0)]), 0);
    }
}
