//! Plane geometry in board units (pixels at 100% zoom), x to the right, y down.

/// A point on a page.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// An axis-aligned rectangle: top-left corner and a non-negative size.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Self { x, y, w, h }
    }
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn center(&self) -> Point {
        Point {
            x: self.x + self.w / 2.0,
            y: self.y + self.h / 2.0,
        }
    }
    /// True when the interiors meet; rectangles that only touch do not overlap.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }
    /// True when `other` lies wholly inside this rectangle.
    pub fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.right() <= self.right()
            && other.bottom() <= self.bottom()
    }
    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        Rect::new(
            x,
            y,
            self.right().max(other.right()) - x,
            self.bottom().max(other.bottom()) - y,
        )
    }
    /// The smallest rectangle holding all the points, if there are any.
    pub fn around(points: impl IntoIterator<Item = Point>) -> Option<Rect> {
        let mut it = points.into_iter();
        let first = it.next()?;
        let (mut x0, mut y0, mut x1, mut y1) = (first.x, first.y, first.x, first.y);
        for p in it {
            x0 = x0.min(p.x);
            y0 = y0.min(p.y);
            x1 = x1.max(p.x);
            y1 = y1.max(p.y);
        }
        Some(Rect::new(x0, y0, x1 - x0, y1 - y0))
    }
    /// This rectangle grown by `m` on every side (shrunk, for a negative `m`).
    pub fn grown(&self, m: f64) -> Rect {
        Rect::new(self.x - m, self.y - m, self.w + 2.0 * m, self.h + 2.0 * m)
    }
    /// The same rectangle moved by (dx, dy).
    pub fn translated(&self, dx: f64, dy: f64) -> Rect {
        Rect::new(self.x + dx, self.y + dy, self.w, self.h)
    }
}

impl Point {
    pub fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// This point turned by `rotation` about `center` (clockwise on screen, as y
    /// points down).
    pub fn rotated(self, rotation: Rotation, center: Point) -> Point {
        if rotation.is_none() {
            return self;
        }
        let (sin, cos) = rotation.radians().sin_cos();
        let (dx, dy) = (self.x - center.x, self.y - center.y);
        Point::new(
            center.x + dx * cos - dy * sin,
            center.y + dx * sin + dy * cos,
        )
    }
}

impl Rect {
    /// The four corners, clockwise from the top left.
    pub fn corners(&self) -> [Point; 4] {
        [
            Point::new(self.x, self.y),
            Point::new(self.right(), self.y),
            Point::new(self.right(), self.bottom()),
            Point::new(self.x, self.bottom()),
        ]
    }

    /// The axis-aligned box around this rectangle turned by `rotation` about its
    /// centre: what a rotated shape covers on the page. Itself when not rotated.
    pub fn rotated_extent(&self, rotation: Rotation) -> Rect {
        if rotation.is_none() {
            return *self;
        }
        let c = self.center();
        Rect::around(self.corners().map(|p| p.rotated(rotation, c))).unwrap_or(*self)
    }
}

/// A turn in degrees, clockwise on screen, always within [0, 360): 370 and -350
/// are both 10. Built only through [`Rotation::degrees`], so every rotation the
/// model holds is finite and normalised, and "not rotated" has one form, 0.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
pub struct Rotation(f64);

impl Rotation {
    /// No rotation.
    pub const NONE: Rotation = Rotation(0.0);

    /// `deg` normalised into [0, 360); a non-finite angle is `None`. Angles within
    /// a millionth of a degree of a whole turn are 0, so -1e-12 does not become
    /// 359.999... .
    pub fn degrees(deg: f64) -> Option<Rotation> {
        if !deg.is_finite() {
            return None;
        }
        let mut d = deg.rem_euclid(360.0);
        if !(1e-6..360.0 - 1e-6).contains(&d) {
            d = 0.0;
        }
        Some(Rotation(d))
    }

    /// The angle in degrees, in [0, 360).
    pub fn deg(self) -> f64 {
        self.0
    }

    /// The angle in radians, in [0, 2π).
    pub fn radians(self) -> f64 {
        self.0.to_radians()
    }

    /// True when not rotated.
    pub fn is_none(self) -> bool {
        self.0 == 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_are_normalised_into_one_turn() {
        let d = |v: f64| Rotation::degrees(v).map(Rotation::deg);
        assert_eq!(d(0.0), Some(0.0));
        assert_eq!(d(370.0), Some(10.0));
        assert_eq!(d(-350.0), Some(10.0));
        assert_eq!(d(-90.0), Some(270.0));
        assert_eq!(d(360.0), Some(0.0));
        assert_eq!(d(-1e-12), Some(0.0));
        assert_eq!(d(720.5), Some(0.5));
        assert_eq!(d(f64::NAN), None);
        assert_eq!(d(f64::INFINITY), None);
    }

    #[test]
    fn a_quarter_turn_swaps_the_extent_about_the_centre() {
        let r = Rect::new(0.0, 0.0, 100.0, 40.0);
        let e = r.rotated_extent(Rotation::degrees(90.0).unwrap());
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(near(e.x, 30.0) && near(e.y, -30.0), "{e:?}");
        assert!(near(e.w, 40.0) && near(e.h, 100.0), "{e:?}");
        // 45°: a square's extent grows by √2.
        let s = Rect::new(0.0, 0.0, 10.0, 10.0).rotated_extent(Rotation::degrees(45.0).unwrap());
        assert!(near(s.w, 10.0 * 2f64.sqrt()), "{s:?}");
        assert_eq!(r.rotated_extent(Rotation::NONE), r);
        // Clockwise on screen: the top-left corner goes to the top right.
        let p =
            Point::new(0.0, 0.0).rotated(Rotation::degrees(90.0).unwrap(), Point::new(5.0, 5.0));
        assert!(near(p.x, 10.0) && near(p.y, 0.0), "{p:?}");
    }
}
