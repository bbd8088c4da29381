// lines.js: the drawn lines of connectors and ink strokes as polylines, and how far
// a point lies from them. The hit test (hittest.js) finds a thin line by its
// distance to the point, as Excalidraw and tldraw do, rather than by sampling
// pixels around the pointer; connect.js keeps its handles off lines with it. A
// connector's line is read off the renderer's own path (the first `<path>` of its
// drawing: `M`, `L`, `C` and `Z`, absolute, as inkboard-render's svg.rs writes
// them), so the distance is to the line as drawn; an ink stroke's is its points.

/** Steps a cubic Bézier is cut into: far finer than a hit test's reach needs. */
const CUBIC_STEPS = 12;

/** Parsed paths by element: a drawing is replaced, never changed, when it changes. */
const cache = new WeakMap();

/**
 * The pieces of path data `d` as polylines of `{x, y}` (a curve cut into short
 * lines). Commands other than M, L, C and Z end the reading: the renderer writes
 * no others.
 */
export function pathPolylines(d) {
  const tokens = (d ?? '').match(/[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  const lines = [];
  let line = null;
  let start = null;
  let at = { x: 0, y: 0 };
  let i = 0;
  const num = () => Number(tokens[i++]);
  let cmd = null;
  while (i < tokens.length) {
    if (/[A-Za-z]/.test(tokens[i])) cmd = tokens[i++];
    if (cmd === 'M') {
      at = { x: num(), y: num() };
      start = at;
      line = [at];
      lines.push(line);
      cmd = 'L'; // further pairs after M are lines
    } else if (cmd === 'L') {
      at = { x: num(), y: num() };
      line?.push(at);
    } else if (cmd === 'C') {
      const [c1, c2, to] = [{ x: num(), y: num() }, { x: num(), y: num() }, { x: num(), y: num() }];
      for (let k = 1; k <= CUBIC_STEPS; k++) {
        const t = k / CUBIC_STEPS;
        const u = 1 - t;
        const a = u * u * u;
        const b = 3 * u * u * t;
        const c = 3 * u * t * t;
        const e = t * t * t;
        line?.push({ x: a * at.x + b * c1.x + c * c2.x + e * to.x, y: a * at.y + b * c1.y + c * c2.y + e * to.y });
      }
      at = to;
    } else if (cmd === 'Z' || cmd === 'z') {
      if (line && start) line.push(start);
      at = start ?? at;
      cmd = null;
    } else {
      break;
    }
    if ([at.x, at.y].some((v) => !Number.isFinite(v))) return lines.filter((l) => l.length);
  }
  return lines;
}

/** The distance from `p` to the segment `a`–`b`. */
export function segmentDistance(p, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** The distance from `p` to the nearest of `polylines` (Infinity for none). */
export function polylineDistance(p, polylines) {
  let best = Infinity;
  for (const line of polylines) {
    if (line.length === 1) best = Math.min(best, Math.hypot(p.x - line[0].x, p.y - line[0].y));
    for (let k = 1; k < line.length; k++) best = Math.min(best, segmentDistance(p, line[k - 1], line[k]));
  }
  return best;
}

/**
 * The line object `obj` draws, as polylines in board units, with its stroke
 * width: an ink stroke's points, or the first path of connector drawing `el`
 * (null when it is not drawn).
 */
export function drawnLine(obj, el) {
  if (obj?.type === 'ink') {
    return { polylines: [(obj.points ?? []).map(([x, y]) => ({ x, y }))], width: obj.width ?? 3 };
  }
  if (obj?.type !== 'connector' || !el) return null;
  if (!cache.has(el)) {
    const path = el.querySelector('path');
    const width = Number(path?.getAttribute('stroke-width')) || obj.stroke_width || 2;
    cache.set(el, { polylines: pathPolylines(path?.getAttribute('d')), width });
  }
  return cache.get(el);
}
