// canvas.js: the SVG layer. Places the server's object fragments by id in z-order
// (one string for a full scene, object by object after that), drawing only the
// objects whose box meets the area the layer covers around the view (the rest when
// the view comes to them), shows previews, does pan and zoom through ONE transform
// (a CSS transform on the whole layer during a gesture, committed to the SVG group
// when the gesture rests or the screen shows content the layer misses), converts
// between screen and board coordinates, and knows the bounds of each object. An
// untitled frame's drawing gets the editor's placeholder title (frametitle.js).

import { state, emit, on, membersOf } from '../sync/state.js';
import { hasBox, union, turnedExtent, rotationOf } from './geom.js';
import * as sync from '../sync/sync.js';
import { markUntitled } from './frametitle.js';
import { markLinked } from './link.js';

const NS = 'http://www.w3.org/2000/svg';
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 8;
/** The smallest zoom a page opens at: below it 14 px text is under 4 px on screen. */
const OPEN_MIN_ZOOM = 0.25;

let container;
/** The dotted grid behind the board (its own layer: see paintGrid). */
let grid;
let svg;
let viewportG;
let objectsG;
let overlayG;
/** Overlay groups in board coordinates, above the objects. */
export const layers = {};

/** The view shown: board point at the container's top-left corner, and zoom. */
const view = { x: 0, y: 0, zoom: 1 };
/** The view the SVG group's transform holds; the CSS transform makes up the difference. */
const committed = { x: 0, y: 0, zoom: 1 };
/** Container size; the SVG is three times as large so a pan shows drawn content. */
let W = 800;
let H = 600;
let box = { left: 0, top: 0 };
let frameQueued = false;
/** A gesture rests when no move came for this long (ms); the layer is drawn again then. */
const SETTLE_MS = 150;
let idleTimer = null;

const els = new Map(); // id -> <g> in the document
const svgs = new Map(); // id -> committed fragment (those the server has sent)
const boxes = new Map(); // id -> {x, y, w, h}: the area its committed drawing covers
const previewed = new Set();
const boundsCache = new Map();
/** contentBounds() until the next scene (undefined: not known). */
let contentCache;
let reorderQueued = false;
/** Counts full scenes, so fragments asked for before one are not taken after it. */
let generation = 0;
/** Settles when the objects on screen at the last view change are drawn. */
let onScreen = Promise.resolve();

export function initCanvas(el) {
  container = el;
  grid = document.createElement('div');
  grid.className = 'grid';
  grid.setAttribute('aria-hidden', 'true');
  container.append(grid);
  svg = document.createElementNS(NS, 'svg');
  svg.classList.add('board');
  svg.setAttribute('data-testid', 'board-svg');
  svg.setAttribute('font-family', 'Inter');
  viewportG = group('viewport');
  objectsG = group('objects');
  objectsG.setAttribute('data-testid', 'objects');
  overlayG = group('overlay');
  for (const name of ['flash', 'find', 'hover', 'selection', 'guides', 'draft']) {
    layers[name] = group(name);
    overlayG.append(layers[name]);
  }
  viewportG.append(objectsG, overlayG);
  svg.append(viewportG);
  container.append(svg);
  // What the overlays showed was about the old board's objects.
  on('boardswitch', () => {
    for (const name of ['flash', 'find', 'hover', 'guides', 'draft']) layers[name].replaceChildren();
  });
  resize();
  new ResizeObserver(resize).observe(container);
}

function group(cls) {
  const g = document.createElementNS(NS, 'g');
  g.setAttribute('class', cls);
  return g;
}

/** Makes an SVG element with attributes (never user text as markup). */
export function svgEl(tag, attrs = {}, parent = null) {
  const e = setAttrs(document.createElementNS(NS, tag), attrs);
  if (parent) parent.append(e);
  return e;
}

/** Sets attributes of an element; answers it. */
export function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/** The attributes of an SVG <rect> covering board rectangle `r`. */
export function rectAttrs(r) {
  return { x: r.x, y: r.y, width: r.w, height: r.h };
}

function resize() {
  const r = container.getBoundingClientRect();
  box = { left: r.left, top: r.top };
  W = Math.max(1, Math.round(r.width));
  H = Math.max(1, Math.round(r.height));
  Object.assign(svg.style, {
    left: `${-W}px`, top: `${-H}px`, width: `${3 * W}px`, height: `${3 * H}px`,
    transformOrigin: `${W}px ${H}px`,
  });
  commit();
}

// ---- the scene ---------------------------------------------------------------

function parse(fragments) {
  const tmp = document.createElementNS(NS, 'g');
  tmp.innerHTML = fragments.join('');
  return [...tmp.children];
}

function rebuildGroups() {
  state.memberOf.clear();
  for (const obj of state.objects.values()) {
    if (obj.type !== 'group') continue;
    for (const m of membersOf(obj)) state.memberOf.set(m, obj.id);
  }
}

function keep(id, item) {
  // A full scene comes without fragments: they are asked for when in view.
  if (item.svg !== undefined) svgs.set(id, item.svg);
  else svgs.delete(id);
  state.objects.set(id, item.obj);
  const b = item.box;
  if (b) boxes.set(id, { x: b[0], y: b[1], w: b[2], h: b[3] });
  else boxes.delete(id);
}

/**
 * Shows a `scene` message: the whole page (`full`) or the objects that changed.
 * `show: false` only takes the scene in, for a caller that sets the view next
 * (drawing for the old view first would be wasted on a large page).
 */
export function applyScene(msg, { show = true } = {}) {
  boundsCache.clear();
  contentCache = undefined;
  const items = msg.items ?? {};
  let groupsChanged = false;
  state.order = msg.order;
  if (msg.full) {
    generation += 1;
    state.objects.clear();
    svgs.clear();
    boxes.clear();
    els.clear();
    previewed.clear();
    objectsG.replaceChildren();
    for (const id of msg.order) if (items[id]) keep(id, items[id]);
    groupsChanged = true;
  } else {
    for (const id of msg.removed ?? []) {
      if (state.objects.get(id)?.type === 'group') groupsChanged = true;
      els.get(id)?.remove();
      els.delete(id);
      svgs.delete(id);
      boxes.delete(id);
      state.objects.delete(id);
      previewed.delete(id);
    }
    const ids = Object.keys(items);
    for (const id of ids) {
      keep(id, items[id]);
      if (items[id].obj?.type === 'group') groupsChanged = true;
      previewed.delete(id);
    }
    restore([...previewed]);
    // Redraw what is drawn; what is out of view waits until the view comes to it.
    const area = drawnArea();
    place(parse(ids.filter((id) => els.has(id) || meets(id, area)).map((id) => svgs.get(id))));
  }
  if (groupsChanged) rebuildGroups();
  if (show) drawInView();
  reorder(msg.order);
  if (msg.revision != null) state.revision = msg.revision;
}

/** The board area the layer covers (three times the screen each way, around it). */
function drawnArea() {
  const z = committed.zoom;
  return { x: committed.x - W / z, y: committed.y - H / z, w: (3 * W) / z, h: (3 * H) / z };
}

/** Whether object `id` draws anything inside `area` (no box known: assume it does). */
function meets(id, area) {
  const b = boxes.get(id);
  return !b || (b.x <= area.x + area.w && b.x + b.w >= area.x && b.y <= area.y + area.h && b.y + b.h >= area.y);
}

/** The board area on screen. */
function screenArea() {
  const z = committed.zoom;
  return { x: committed.x, y: committed.y, w: W / z, h: H / z };
}

/**
 * Draws the objects on screen that are not drawn yet, as soon as their fragments
 * are here (asking the server for those it has not sent); then, a slice at a time
 * while the page is idle, the rest of the area the layer covers (so a pan finds
 * them drawn). On a large board the first frame holds only what it shows.
 */
function drawInView() {
  const ids = missing(screenArea(), Infinity);
  draw(ids);
  const gen = generation;
  onScreen = fetchFragments(ids, gen).then(() => {
    if (gen === generation) draw(missing(screenArea(), Infinity));
    queueFill();
  });
}

/** Settles when what was on screen at the last view change is drawn. */
export function whenDrawn() {
  return onScreen;
}

/** Up to `limit` ids of undrawn objects meeting `area`, in z-order. */
function missing(area, limit) {
  const ids = [];
  for (const id of state.order) {
    if (ids.length >= limit) break;
    if (!els.has(id) && state.objects.has(id) && meets(id, area)) ids.push(id);
  }
  return ids;
}

/** Asks the server for the fragments of those `ids` it has not sent yet. */
async function fetchFragments(ids, gen) {
  const need = ids.filter((id) => !svgs.has(id));
  if (!need.length) return;
  let msg;
  try {
    msg = await sync.draw(need);
  } catch {
    return; // offline: the next connection sends a full scene again
  }
  if (gen !== generation) return;
  for (const [id, svg] of Object.entries(msg.items ?? {})) {
    // A scene that came meanwhile brought a fragment at least as new: keep it.
    if (state.objects.has(id) && !svgs.has(id)) svgs.set(id, svg);
  }
}

/** Draws those of `ids` whose fragments are here. */
function draw(all) {
  const ids = all.filter((id) => svgs.has(id) && !els.has(id));
  if (!ids.length) return;
  if (!els.size) {
    // A fresh page: one string in z-order, the fastest way in.
    objectsG.innerHTML = ids.map((id) => svgs.get(id)).join('');
    for (const el of objectsG.children) {
      els.set(el.id, el);
      markUntitled(el, state.objects.get(el.id));
      markLinked(el, state.objects.get(el.id));
    }
  } else {
    place(parse(ids.map((id) => svgs.get(id))));
    queueReorder();
  }
}

/** Objects drawn per idle slice: about 5 ms of parsing and layout. */
const FILL_SLICE = 250;
let fillQueued = false;

function queueFill() {
  if (fillQueued) return;
  fillQueued = true;
  const later = window.requestIdleCallback ?? ((fn) => setTimeout(fn, 16));
  later(async () => {
    const gen = generation;
    const ids = missing(drawnArea(), FILL_SLICE);
    await fetchFragments(ids, gen);
    fillQueued = false;
    if (gen !== generation) return;
    draw(ids);
    // Go on only while slices make progress (not when the server is unreachable).
    if (ids.length === FILL_SLICE && ids.some((id) => els.has(id))) queueFill();
  });
}

function queueReorder() {
  if (reorderQueued) return;
  reorderQueued = true;
  queueMicrotask(() => {
    reorderQueued = false;
    reorder(state.order);
  });
}

/**
 * Puts parsed elements in place of those with the same id (new ones at the end).
 * A preview's `items` (id -> {svg, obj}) say what its elements draw; other
 * elements draw the committed data.
 */
function place(elements, items = null) {
  for (const el of elements) {
    markUntitled(el, items?.[el.id]?.obj ?? state.objects.get(el.id));
    markLinked(el, items?.[el.id]?.obj ?? state.objects.get(el.id));
    const old = els.get(el.id);
    if (old) old.replaceWith(el);
    else objectsG.append(el);
    els.set(el.id, el);
  }
}

/** Puts the committed drawing back for these ids. */
function restore(ids) {
  const back = [];
  for (const id of ids) {
    previewed.delete(id);
    if (svgs.has(id)) back.push(svgs.get(id));
    else {
      els.get(id)?.remove();
      els.delete(id);
    }
  }
  if (back.length) place(parse(back));
}

/** Makes the children follow `order` with as few moves as possible. */
function reorder(order) {
  let cur = objectsG.firstElementChild;
  for (const id of order) {
    const el = els.get(id);
    if (!el) continue;
    if (el === cur) {
      cur = cur.nextElementSibling;
      continue;
    }
    objectsG.insertBefore(el, cur);
  }
  while (cur) {
    const next = cur.nextElementSibling;
    if (!state.objects.has(cur.id)) {
      els.delete(cur.id);
      cur.remove();
    }
    cur = next;
  }
}

/** Draws preview fragments instead of the committed ones (until clearPreview or a scene). */
export function showPreview(items) {
  const ids = Object.keys(items ?? {});
  for (const id of ids) previewed.add(id);
  place(parse(ids.map((id) => items[id].svg)), items);
  reorder(state.order);
  return ids;
}

export function clearPreview() {
  if (previewed.size) restore([...previewed]);
}

/**
 * The drawn element of object `id`, drawing it now if it is out of view (or null
 * until its fragment is here, which this asks for).
 */
export function elementOf(id) {
  if (!els.has(id) && !previewed.has(id)) {
    if (svgs.has(id)) {
      place(parse([svgs.get(id)]));
      queueReorder();
    } else if (state.objects.has(id)) {
      fetchFragments([id], generation);
    }
  }
  return els.get(id) ?? null;
}

/** The drawn element of object `id` if it is drawn now (never draws it). */
export function shownElement(id) {
  return els.get(id) ?? null;
}

// ---- view --------------------------------------------------------------------

export function getView() {
  return { x: view.x, y: view.y, zoom: view.zoom };
}

export function viewport() {
  return { w: W, h: H };
}

/** The board rectangle visible on screen. */
export function visibleRect() {
  return { x: view.x, y: view.y, w: W / view.zoom, h: H / view.zoom };
}

function commit() {
  clearTimeout(idleTimer);
  idleTimer = null;
  Object.assign(committed, view);
  const z = view.zoom;
  viewportG.setAttribute('transform', `translate(${W - view.x * z} ${H - view.y * z}) scale(${z})`);
  svg.style.transform = '';
  // Only the overlay reads --zoom: set on the container, it would make the browser
  // recompute the style of every drawn element (about 20 ms on 2,000 objects).
  overlayG.style.setProperty('--zoom', z);
  drawInView();
  paintGrid();
  emit('view', getView());
  emit('viewcommit', getView());
}

/** Whether the drawn layer shows all there is to see of board area `r`. */
function covers(r) {
  const a = drawnArea();
  if (r.x >= a.x && r.y >= a.y && r.x + r.w <= a.x + a.w && r.y + r.h <= a.y + a.h) return true;
  // Past the edges of the content (zooming out of a fitted view), nothing is missed.
  const b = contentBounds();
  if (!b) return true;
  const x0 = Math.max(r.x, b.x);
  const y0 = Math.max(r.y, b.y);
  const x1 = Math.min(r.x + r.w, b.x + b.w);
  const y1 = Math.min(r.y + r.h, b.y + b.h);
  return x0 >= x1 || y0 >= y1 || (x0 >= a.x && y0 >= a.y && x1 <= a.x + a.w && y1 <= a.y + a.h);
}

function paint() {
  frameQueued = false;
  const s = view.zoom / committed.zoom;
  const tx = (committed.x - view.x) * view.zoom;
  const ty = (committed.y - view.y) * view.zoom;
  // The layer is 3W × 3H around the screen. Drawing it again at a new zoom costs
  // the browser a layout of every text in it (20–50 ms for 2,000 objects on this
  // project's machine), a hitch in the gesture: so it is drawn again only when the
  // gesture rests, or now if the screen shows board the layer does not cover and
  // something is there to see. Meanwhile it is scaled as it was drawn, which the
  // browser does without the page (tests/browser/bench.mjs, zoom hitches).
  if (!covers(visibleRect())) {
    commit();
    return;
  }
  svg.style.transform = `translate(${tx}px, ${ty}px) scale(${s})`;
  paintGrid();
  emit('view', getView());
}

/** Changes the view as part of a gesture: one CSS transform now, the SVG later. */
function moveView(x, y, zoom) {
  view.x = x;
  view.y = y;
  view.zoom = zoom;
  if (!frameQueued) {
    frameQueued = true;
    requestAnimationFrame(paint);
  }
  clearTimeout(idleTimer);
  idleTimer = setTimeout(rest, SETTLE_MS);
}

/**
 * The gesture rests. A zoom it changed is drawn again at the new zoom, to be sharp.
 * A pan alone is not, while the layer still covers the screen with room to pan on
 * (a third of the screen each way) or shows all there is: drawing the layer again
 * at another place costs the browser a raster of all of it, the longest frame of a
 * pan (133 ms for 2,000 objects on this project's machine, tests/browser/bench.mjs);
 * the layer keeps its CSS offset instead, and is centred again only when a pan
 * would soon show board it does not cover.
 */
function rest() {
  idleTimer = null;
  const v = visibleRect();
  const [mx, my] = [v.w / 3, v.h / 3];
  if (view.zoom !== committed.zoom || !covers({ x: v.x - mx, y: v.y - my, w: v.w + 2 * mx, h: v.h + 2 * my })) {
    commit();
    return;
  }
  emit('viewcommit', getView());
}

/** Sets the view at once (no gesture). */
export function setView(v) {
  view.x = v.x;
  view.y = v.y;
  view.zoom = clampZoom(v.zoom ?? view.zoom);
  commit();
}

function clampZoom(z) {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));
}

/** Pans by a distance in screen pixels. */
export function panBy(dx, dy) {
  moveView(view.x - dx / view.zoom, view.y - dy / view.zoom, view.zoom);
}

/** Zooms by `factor` keeping the board point under (clientX, clientY) still. */
export function zoomAt(factor, clientX, clientY, gesture = true) {
  const z = clampZoom(view.zoom * factor);
  const sx = clientX - box.left;
  const sy = clientY - box.top;
  const bx = sx / view.zoom + view.x;
  const by = sy / view.zoom + view.y;
  const x = bx - sx / z;
  const y = by - sy / z;
  if (gesture) moveView(x, y, z);
  else setView({ x, y, zoom: z });
}

/** Zooms about the centre of the screen (buttons, keys). */
export function zoomCenter(factor) {
  zoomAt(factor, box.left + W / 2, box.top + H / 2, false);
}

/** Bounds of everything drawn, in board units (null for an empty page). */
function contentBounds() {
  if (contentCache === undefined) contentCache = measureContent();
  return contentCache;
}

function measureContent() {
  // From the objects' own data, not getBBox: measuring the drawing makes the
  // browser lay out every object first (about 280 ms on 10,000 objects).
  // Connectors run between shapes, so only their free ends and their bends count.
  let b = null;
  for (const [id, obj] of state.objects) {
    if (hasBox(obj) || obj.type === 'ink') b = union(b, boundsOf(id));
    else if (obj.type === 'connector') {
      for (const end of [obj.from, obj.to]) if (end && typeof end === 'object') b = union(b, { x: end.x, y: end.y, w: 0, h: 0 });
      for (const [x, y] of obj.waypoints ?? []) b = union(b, { x, y, w: 0, h: 0 });
    }
  }
  const pad = 16; // room for strokes, arrowheads and labels
  return b && { x: b.x - pad, y: b.y - pad, w: b.w + 2 * pad, h: b.h + 2 * pad };
}

/** Shows all the content (at most 100%), or the origin on an empty page. */
export function fitToContent() {
  const b = contentBounds();
  if (b) fitRect(b);
  else setView({ x: -W / 2 + 200, y: -H / 2 + 150, zoom: 1 });
}

/**
 * The view a page opens with: all of it, unless that would make text too small to
 * read (a large board); then its top-left corner at the smallest readable zoom.
 */
export function openView() {
  const b = contentBounds();
  if (!b) return fitToContent();
  const pad = 48;
  const fit = Math.min(1, (W - 2 * pad) / Math.max(b.w, 1), (H - 2 * pad) / Math.max(b.h, 1));
  if (fit >= OPEN_MIN_ZOOM) return fitRect(b);
  setView({ x: b.x - pad / OPEN_MIN_ZOOM, y: b.y - pad / OPEN_MIN_ZOOM, zoom: OPEN_MIN_ZOOM });
}

/** How many objects are drawn in the document (the others are out of view). */
export function drawnCount() {
  return els.size;
}

/** Shows board rectangle `b` whole and centred, `pad` screen pixels from the edges, at most `maxZoom`. */
export function fitRect(b, { maxZoom = 1, pad = 48 } = {}) {
  const z = clampZoom(Math.min(maxZoom, (W - 2 * pad) / Math.max(b.w, 1), (H - 2 * pad) / Math.max(b.h, 1)));
  setView({ x: b.x + b.w / 2 - W / 2 / z, y: b.y + b.h / 2 - H / 2 / z, zoom: z });
}

/** The size of the grid's tile drawn last (screen pixels), to set it only when it changes. */
let gridTile = null;

/**
 * Moves the dotted grid with the view. The grid is its own layer, a tile larger
 * than the screen each way: a pan moves it by a transform (under a tile), which
 * the browser does without painting; only a zoom that changes the tile's size
 * paints it again (repainting the grid on every frame of a pan cost the page a
 * paint of the whole screen per frame).
 */
function paintGrid() {
  let step = 20;
  while (step * view.zoom < 14) step *= 5;
  const s = step * view.zoom;
  if (s !== gridTile) {
    gridTile = s;
    Object.assign(grid.style, {
      backgroundSize: `${s}px ${s}px`, left: `${-s}px`, top: `${-s}px`,
      width: `calc(100% + ${2 * s}px)`, height: `calc(100% + ${2 * s}px)`,
    });
  }
  const mod = (v) => ((v % s) + s) % s;
  grid.style.transform = `translate(${mod(-view.x * view.zoom)}px, ${mod(-view.y * view.zoom)}px)`;
}

// ---- coordinates ---------------------------------------------------------------

export function refreshBox() {
  const r = container.getBoundingClientRect();
  box = { left: r.left, top: r.top };
}

/** Board point under a client (screen) point. */
export function toBoard(clientX, clientY) {
  return { x: (clientX - box.left) / view.zoom + view.x, y: (clientY - box.top) / view.zoom + view.y };
}

/** Position of a board point inside the canvas container (for HTML overlays). */
export function toContainer(x, y) {
  return { x: (x - view.x) * view.zoom, y: (y - view.y) * view.zoom };
}

// ---- geometry of objects ---------------------------------------------------------

/** The bounds of an object in board units, as committed. */
export function boundsOf(id) {
  const obj = state.objects.get(id);
  if (!obj) return null;
  // A turned shape or image covers the box around its turned box.
  if (hasBox(obj)) return turnedExtent(obj, rotationOf(obj));
  if (boundsCache.has(id)) return boundsCache.get(id);
  let b = null;
  if (obj.type !== 'group' && boxes.has(id)) {
    b = { ...boxes.get(id) };
  } else if (obj.type === 'ink' && obj.points?.length) {
    const pad = (obj.width ?? 3) / 2;
    for (const [x, y] of obj.points) b = union(b, { x: x - pad, y: y - pad, w: 2 * pad, h: 2 * pad });
  } else if (obj.type === 'group') {
    for (const m of membersOf(obj)) b = union(b, boundsOf(m));
  } else {
    const el = elementOf(id);
    if (el && el.firstElementChild) {
      const r = el.getBBox();
      b = { x: r.x, y: r.y, w: r.width, h: r.height };
    }
  }
  boundsCache.set(id, b);
  return b;
}

/** The object id of a drawn element (a part of an object's fragment), or null. */
export function objectIdOf(el) {
  while (el && el.parentNode !== objectsG) {
    if (el === svg || el === container) return null;
    el = el.parentNode;
  }
  return el ? el.id : null;
}

/** The SVG root (hit tests stop there). */
export function rootElement() {
  return svg;
}
