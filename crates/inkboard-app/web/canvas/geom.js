// geom.js: small geometry and style helpers shared by the modules: rectangles, the
// text box of each geom (mirrors inkboard-core's Geom::text_box), palette colours
// (palette.js, written from inkboard-core's Palette).

import { PALETTE, PASTEL } from './palette.js';

export const GEOMS = ['rect', 'rounded', 'ellipse', 'diamond', 'triangle', 'hexagon',
  'parallelogram', 'cylinder', 'cloud', 'star', 'table', 'end_state', 'note', 'text', 'frame'];

/** Size a shape gets when added by a click (Geom::default_size). */
export function defaultSize(geom) {
  switch (geom) {
    case 'note': return [160, 160];
    case 'text': return [120, 24];
    case 'frame': return [480, 320];
    case 'table': return [160, 36];
    case 'end_state': return [30, 30];
    case 'ellipse': case 'star': case 'diamond': case 'triangle': case 'hexagon': return [120, 100];
    default: return [120, 60];
  }
}

export const DEFAULT_FONT_SIZE = 16;
export const LABEL_FONT_SIZE = 14;
export const LINE_HEIGHT = 1.25;
/** The family of each `font` choice, as the server's SVG names it (fonts.css has them). */
export const FONTS = { sans: 'Inter', serif: 'Inkboard Serif', mono: 'Inkboard Mono', hand: 'Inkboard Hand' };

/** A CSS font stack for `font`: its face, then the bundled fallbacks, as the server draws. */
export function cssFont(font) {
  const faces = [FONTS[font] ?? FONTS.sans, 'Inkboard Symbols', 'Inkboard Math', 'Inkboard Symbols 2', 'Inkboard Emoji'];
  return `${faces.map((f) => `'${f}'`).join(', ')}, sans-serif`;
}
export const FRAME_TITLE_HEIGHT = 32;
/** The side of a shape's icon above its text, and the room below it (inkboard-core's). */
export const ICON_SIDE = 28;
export const ICON_GAP = 4;
export const INK = '#1f2933';

const SHARES = {
  ellipse: [0.72, 0.72, 0.14, 6], end_state: [0.72, 0.72, 0.14, 6], diamond: [0.56, 0.56, 0.22, 4], triangle: [0.5, 0.45, 0.48, 4],
  hexagon: [0.7, 0.9, 0.05, 8], parallelogram: [0.72, 1, 0, 10], cylinder: [1, 0.7, 0.22, 10],
  cloud: [0.68, 0.62, 0.2, 6], star: [0.42, 0.34, 0.4, 2], text: [1, 1, 0, 2],
};

/** Where a shape's text goes, in board units (`b`: the shape, or a plain box). */
export function textBox(geom, b) {
  if (geom === 'frame') {
    const box = { x: b.x + 10, y: b.y, w: Math.max(0, b.w - 20), h: Math.min(FRAME_TITLE_HEIGHT, b.h) };
    if (b.icon && b.text) {
      const room = Math.min(Math.max(0, Math.min(ICON_SIDE, box.h - 12, 20, box.w)) + ICON_GAP, box.w);
      box.x += room;
      box.w -= room;
    }
    return box;
  }
  const [fw, fh, fy, pad] = SHARES[geom] ?? [1, 1, 0, 12];
  const w = Math.max(0, b.w * fw - 2 * pad);
  const h = Math.max(0, b.h * fh - 2 * pad);
  const box = { x: b.x + (b.w - w) / 2, y: b.y + b.h * fy + pad, w, h };
  // A shape with an icon and text keeps a band above the text for the icon:
  // inkboard-core's `Geom::text_box_with_icon`.
  if (b.icon && b.text) {
    const room = Math.min(Math.min(ICON_SIDE, box.h / 2, box.w) + ICON_GAP, box.h);
    box.y += room;
    box.h -= room;
  }
  // A flipped shape's text box is mirrored as its outline is (a flipped
  // triangle's text sits in its wide half): inkboard-render's `flip_box`.
  if (b.flip_x) box.x = 2 * b.x + b.w - box.x - box.w;
  if (b.flip_y) box.y = 2 * b.y + b.h - box.y - box.h;
  return box;
}

/** A colour as CSS: palette names resolved, hex kept. */
export function cssColor(c, fallback = INK) {
  if (!c) return fallback;
  return PALETTE[c.toLowerCase()] ?? c;
}

/** A shape's fill as drawn, if it has one: a palette name on a sticky note is
 * its pastel tone (inkboard-core's Color::fill_rgba). */
export function cssFill(obj) {
  if (!obj.fill) return undefined;
  // "grey" is read as "gray", as the model's parser does.
  const name = obj.fill.toLowerCase().replace(/^grey$/, 'gray');
  return (obj.geom === 'note' && PASTEL[name]) || cssColor(obj.fill);
}

/**
 * Whether a fill (a CSS colour: palette names resolved, `#rrggbb` or `#rrggbbaa`)
 * is dark enough that a shape's text is drawn white on it: mostly opaque and of
 * relative luminance under 0.3, inkboard-render's `shape_text_color` rule.
 */
export function darkFill(color) {
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(cssColor(color, '#ffffff'));
  if (!m || (m[2] && parseInt(m[2], 16) <= 127)) return false;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16) / 255);
  const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) < 0.3;
}

/**
 * Items `{id, b}` (b: a board box) in reading order: rows from the top (one whose
 * middle lies above another's top comes first), each row left to right.
 */
export function readingOrder(items) {
  return [...items].sort((a, c) => {
    if (a.b.y + a.b.h / 2 < c.b.y) return -1;
    if (c.b.y + c.b.h / 2 < a.b.y) return 1;
    return a.b.x - c.b.x || a.b.y - c.b.y;
  });
}

/** The rectangle spanned by two points. */
export function spanRect(a, b) {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(a.x - b.x), h: Math.abs(a.y - b.y) };
}

export function union(a, b) {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

export function intersects(a, b) {
  return a.x <= b.x + b.w && b.x <= a.x + a.w && a.y <= b.y + b.h && b.y <= a.y + a.h;
}

export function contains(outer, inner) {
  return inner.x >= outer.x && inner.y >= outer.y
    && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

export function containsPoint(r, p, pad = 0) {
  return p.x >= r.x - pad && p.x <= r.x + r.w + pad && p.y >= r.y - pad && p.y <= r.y + r.h + pad;
}

export function center(r) {
  return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
}

/** Rounds a board coordinate: whole pixels, or tenths when zoomed in far. */
export function snapNumber(v, zoom = 1) {
  return zoom > 2 ? Math.round(v * 10) / 10 : Math.round(v);
}

/** Does this object have x/y/w/h of its own (shapes and images)? */
export function hasBox(obj) {
  return obj && (obj.type === 'shape' || obj.type === 'image');
}

// ---- rotation ------------------------------------------------------------------
// A shape or image may be turned (`rotation`, degrees clockwise, about the centre of
// its box x/y/w/h, which is the unturned box), as inkboard-core's Rotation.

/** An object's rotation in degrees, 0 when it has none. */
export function rotationOf(obj) {
  return (hasBox(obj) && obj.rotation) || 0;
}

/** `deg` normalised into [0, 360), as the model keeps it. */
export function normDeg(deg) {
  const d = ((deg % 360) + 360) % 360;
  return d > 360 - 1e-6 || d < 1e-6 ? 0 : d;
}

/** `p` turned by `deg` (clockwise on screen) about `c`. */
export function rotatePoint(p, deg, c) {
  if (!deg) return { x: p.x, y: p.y };
  const a = (deg * Math.PI) / 180;
  const [s, k] = [Math.sin(a), Math.cos(a)];
  const dx = p.x - c.x;
  const dy = p.y - c.y;
  return { x: c.x + dx * k - dy * s, y: c.y + dx * s + dy * k };
}

/**
 * Does frame `f` hold `o`, as the server's `Board::frame_holds` says: wholly inside
 * the frame's box in its own unturned place. A shape's or image's box is seen with
 * its centre turned back by the frame's rotation (its size kept), ink point by
 * point; so a turned frame keeps the contents it carried when it turned.
 */
export function frameHolds(f, o) {
  const turn = normDeg(rotationOf(f));
  const deg = -turn;
  const c = center(f);
  let b = null;
  if (hasBox(o)) {
    const m = rotatePoint(center(o), deg, c);
    b = { x: m.x - o.w / 2, y: m.y - o.h / 2, w: o.w, h: o.h };
  } else if (o.type === 'ink' && o.points?.length) {
    for (const [x, y] of o.points) {
      const p = rotatePoint({ x, y }, deg, c);
      b = union(b, { x: p.x, y: p.y, w: 0, h: 0 });
    }
  }
  // The server's slack for positions rounded to hundredths after a turn; a frame
  // not turned has none there (an object a hundredth out is out).
  const e = turn ? 0.02 : 0;
  return !!b && contains({ x: f.x - e, y: f.y - e, w: f.w + 2 * e, h: f.h + 2 * e }, b);
}

/** The corners of box `b` turned by `deg` about its centre, clockwise from top left. */
export function cornersOf(b, deg) {
  const c = center(b);
  return [[b.x, b.y], [b.x + b.w, b.y], [b.x + b.w, b.y + b.h], [b.x, b.y + b.h]]
    .map(([x, y]) => rotatePoint({ x, y }, deg, c));
}

/** The box around `b` turned by `deg` about its centre (Rect::rotated_extent). */
export function turnedExtent(b, deg) {
  if (!deg) return { x: b.x, y: b.y, w: b.w, h: b.h };
  const ps = cornersOf(b, deg);
  const xs = ps.map((p) => p.x);
  const ys = ps.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** Is board point `p` within object `obj`'s turned box (grown by `pad`)? */
export function boxHolds(obj, p, pad = 0) {
  const q = rotatePoint(p, -rotationOf(obj), center(obj));
  return containsPoint(obj, q, pad);
}
