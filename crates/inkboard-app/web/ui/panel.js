// panel.js: the style panel on the right. Shows the fields that apply to what is
// selected (fill, stroke, width, dash, roughness and fill style, font size and face, text colour, alignment,
// arrowheads and route for connectors, as buttons, and a lone connector's end
// labels, as text fields sent when Enter or leaving the field; opacity, as a slider whose
// drag shows the new opacity on screen and sends one `update` when let go) with the selection's current
// values (an unset field shows the value it is drawn with; values that differ are
// marked "mixed"), and sends one `update` for the objects each change applies to.
// While a drawing tool is active with nothing selected, it shows and sets the style
// the next object of that kind takes (stylememory.js). Its Arrange section aligns,
// distributes, orders, groups, locks, duplicates and deletes (arrange.js); its Icon
// section picks a selected shape's icon (iconpicker.js). It can be
// collapsed to its title bar; the browser remembers that.

import { state, on, membersOf } from '../sync/state.js';
import { readStored, writeStored } from '../sync/stored.js';
import { PALETTE, PASTEL } from '../canvas/palette.js';
import * as sync from '../sync/sync.js';
import { deleteSelection, duplicateSelection } from '../tools/clipboard.js';
import { kindOf, remembered, remember } from '../tools/stylememory.js';
import { align, distribute, order, group, ungroup, hasGroup, toggleLock, allLocked } from '../select/arrange.js';
import { hint } from './shortcuts.js';
import { el } from './popover.js';
import { cssFill, darkFill } from '../canvas/geom.js';
import { shownColor, shownDark } from './theme.js';
import { iconSection } from './iconpicker.js';

const COLORS = Object.keys(PALETTE);
const SHAPE_FIELDS = ['fill', 'stroke', 'stroke_width', 'dash', 'roughness', 'fill_style', 'font_size', 'font', 'text_color', 'align', 'opacity'];
/** The style fields (in `update`'s names) the panel shows for each type of object. */
export const APPLIES = {
  shape: SHAPE_FIELDS,
  connector: ['stroke', 'stroke_width', 'dash', 'roughness', 'font_size', 'font', 'text_color', 'start_arrow', 'end_arrow', 'route', 'opacity'],
  ink: ['stroke', 'stroke_width', 'dash', 'opacity'],
  image: ['opacity'],
  group: [],
};
const ARROWS = ['none', 'arrow', 'triangle', 'diamond', 'circle', 'bar', 'dot',
  'one', 'zero_or_one', 'one_or_many', 'zero_or_many', 'many',
  'hollow_triangle', 'hollow_diamond'];
/** The arrowheads as drawn at each end, for their buttons (crow's feet as ER
 * diagrams write them in text). */
const END_HEADS = {
  none: '—', arrow: '→', triangle: '▶', diamond: '◆', circle: '●', bar: '⊣', dot: '•',
  one: '‖', zero_or_one: 'o|', one_or_many: '|<', zero_or_many: 'o<', many: '<',
  hollow_triangle: '▷', hollow_diamond: '◇',
};
const START_HEADS = {
  none: '—', arrow: '←', triangle: '◀', diamond: '◆', circle: '●', bar: '⊢', dot: '•',
  one: '‖', zero_or_one: '|o', one_or_many: '>|', zero_or_many: '>o', many: '>',
  hollow_triangle: '◁', hollow_diamond: '◇',
};
/** Route names as Excalidraw and draw.io say them: orthogonal is "elbow". */
const ROUTES = ['straight', 'orthogonal', 'curved'];
const ROUTE_NAMES = { straight: 'Straight', orthogonal: 'Elbow', curved: 'Curved' };
/** The hand-drawn look: roughness as Excalidraw's three settings, and fill styles. */
const ROUGHNESS_NAMES = { 0: 'Clean', 1: 'Rough', 2: 'Rougher' };
const FILL_STYLES = ['solid', 'hachure', 'cross-hatch'];
const FILL_STYLE_NAMES = { solid: 'Solid', hachure: 'Hachure', 'cross-hatch': 'Cross' };
const TRANSPARENT = '#ffffff00';
/** The look of an unset field, as the renderer's style.rs draws it. */
const INK = '#1f2933';
const KIND_NAMES = {
  shape: 'shape', note: 'sticky note', text: 'text', frame: 'frame', connector: 'connector', line: 'line', ink: 'ink',
};
const COLLAPSED_KEY = 'inkboard-panel-collapsed';

let panel;
let collapsed = readCollapsed();

export function initPanel(el) {
  panel = el;
  panel.setAttribute('aria-label', 'Style');
  on('selection', build);
  on('scene', build);
  on('tool', build);
  // The swatches show the board's colours as the screen does: dark ones in dark.
  on('theme', build);
  build();
}

function readCollapsed() {
  return readStored(COLLAPSED_KEY, false) === true;
}

function setCollapsed(c) {
  collapsed = c;
  writeStored(COLLAPSED_KEY, c);
  build();
}

/** The selected objects that carry style, in order: groups stand for their members. */
export function styled() {
  const out = [];
  const seen = new Set();
  const visit = (id, depth) => {
    if (seen.has(id) || depth > 16) return;
    seen.add(id);
    const obj = state.objects.get(id);
    if (!obj) return;
    if (obj.type === 'group') for (const m of membersOf(obj)) visit(m, depth + 1);
    else out.push(obj);
  };
  for (const id of state.selection) visit(id, 0);
  return out;
}

/** The kind of object the active tool draws, if it draws one. */
function drawingKind() {
  const t = state.tool;
  if (['select', 'hand', 'eraser', 'image', 'laser'].includes(t)) return null;
  return kindOf(t);
}

/** An object as the next one the tool draws would be: its geom and the remembered style. */
function nextObject(kind) {
  const r = remembered(kind);
  if (kind === 'connector') return { type: 'connector', ...r };
  if (kind === 'line') return { type: 'connector', route: 'straight', start_arrow: 'none', end_arrow: 'none', ...r };
  if (kind === 'ink') return { type: 'ink', color: r.stroke, width: r.stroke_width, dash: r.dash };
  const geom = state.tool;
  return { type: 'shape', geom, ...r };
}

/** What a field looks like when the object does not set it (the renderer's default). */
function defaultOf(obj, field) {
  const geom = obj.type === 'shape' ? (obj.geom ?? 'rect') : null;
  switch (field) {
    case 'fill':
      return { text: TRANSPARENT, note: 'yellow', frame: '#f3f4f6' }[geom] ?? 'white';
    case 'stroke':
      return { text: TRANSPARENT, note: TRANSPARENT, frame: '#d2d6dc' }[geom] ?? INK;
    case 'stroke_width':
      return obj.type === 'ink' ? 3 : geom === 'frame' ? 1 : 2;
    case 'dash': return 'solid';
    case 'roughness': return 0;
    case 'fill_style': return 'solid';
    case 'font_size': return obj.type === 'connector' ? 14 : 16;
    case 'font': return 'sans';
    case 'text_color': {
      if (geom === 'frame') return '#3e4c59';
      // On a dark fill the renderer draws a shape's text white (style.rs).
      const fill = geom && cssFill({ ...obj, fill: obj.fill ?? defaultOf(obj, 'fill') });
      return fill && darkFill(fill) ? '#ffffff' : INK;
    }
    case 'align': return geom === 'frame' ? 'left' : 'center';
    case 'start_arrow': return 'none';
    case 'end_arrow': return 'arrow';
    case 'route': return 'orthogonal';
    case 'opacity': return 1;
    default: return undefined;
  }
}

/** A colour as one spelling: a palette name when it is one's tone, else lower-case hex. */
function normal(v) {
  if (typeof v !== 'string') return v;
  const s = v.toLowerCase().replace(/^grey$/, 'gray');
  if (PALETTE[s]) return s;
  const name = COLORS.find((n) => PALETTE[n] === s);
  return name ?? s;
}

/** The value of a field as an object shows it (ink calls its stroke color/width). */
export function valueOf(obj, field) {
  let v;
  if (obj.type === 'ink' && field === 'stroke') v = obj.color;
  else if (obj.type === 'ink' && field === 'stroke_width') v = obj.width;
  else v = obj[field];
  return normal(v ?? defaultOf(obj, field));
}

/** {value, mixed}: the objects' one value of `field`, or mixed when they differ. */
function common(objs, field) {
  const values = new Set(objs.filter((o) => APPLIES[o.type].includes(field)).map((o) => valueOf(o, field)));
  return values.size === 1 ? { value: [...values][0], mixed: false } : { value: undefined, mixed: values.size > 1 };
}

/** Applies a field's value: to the selection (and remembered for its kinds), or to the next object. */
function apply(field, value) {
  const kind = !state.selection.size && drawingKind();
  if (kind) {
    remember([kind], field, value);
    build();
    return;
  }
  const objs = styled().filter((o) => APPLIES[o.type].includes(field));
  if (!objs.length) return;
  remember(objs.map(kindOf), field, value);
  return sync.call('update', { ids: objs.map((o) => o.id), [field]: value }).catch(() => {});
}

function section(title, mixedFields = []) {
  const s = el('section', { className: 'panel-section' }, panel);
  const h = el('h3', { text: title }, s);
  if (mixedFields.length) {
    el('span', { className: 'mixed', text: 'mixed', testid: `mixed-${mixedFields[0]}`, title: 'The selected objects differ' }, h);
  }
  return s;
}

/** A row of swatches, one per palette name, drawn in `tones` (the pastel ones
 * when every object whose fill it sets is a sticky note, as they will look), each
 * as the screen shows that colour on the board (in dark, by the board's filter). */
function colorRow(parent, field, cur, testPrefix, { none = false, tones = PALETTE } = {}) {
  const current = cur.value;
  const row = el('div', { className: 'swatches', role: 'group', 'aria-label': field.replace('_', ' ') }, parent);
  if (cur.mixed) row.dataset.mixed = 'true';
  if (none) {
    const b = el('button', {
      type: 'button', className: 'swatch none', title: 'None', testid: `${testPrefix}-none`,
      'aria-label': 'None', 'aria-pressed': String(current === TRANSPARENT),
    }, row);
    b.addEventListener('click', () => apply(field, TRANSPARENT));
  }
  const dark = shownDark();
  for (const name of COLORS) {
    const title = dark ? `${name} (shown in dark mode as it is drawn on the board)` : name;
    const b = el('button', {
      type: 'button', className: 'swatch', title, testid: `${testPrefix}-${name}`,
      'aria-label': name, 'aria-pressed': String(current === name),
    }, row);
    b.style.background = shownColor(tones[name]);
    b.addEventListener('click', () => apply(field, name));
  }
  // A colour outside the palette is shown, and marked, on the custom swatch.
  const other = typeof current === 'string' && /^#[0-9a-f]{6}$/.test(current);
  const custom = el('input', {
    type: 'color', className: 'swatch custom', title: other ? `Other colour: ${current}` : 'Other colour',
    testid: `${testPrefix}-custom`, 'aria-label': `Other ${field.replace('_', ' ')}`,
    'aria-pressed': String(other),
  }, row);
  if (other) {
    custom.value = current;
    custom.style.background = shownColor(current);
  }
  custom.addEventListener('change', () => apply(field, custom.value));
}

function choice(parent, field, options, cur, testPrefix, labels = {}, caption = null) {
  const name = caption ?? field.replace('_', ' ');
  const row = el('div', { className: 'choices', role: 'group', 'aria-label': name }, parent);
  if (cur.mixed) row.dataset.mixed = 'true';
  if (caption) el('span', { className: 'choices-caption', text: caption }, row);
  for (const o of options) {
    const title = `${name}: ${String(ROUTE_NAMES[o] ?? (field === 'roughness' ? labels[o] : o)).toLowerCase()}`;
    const b = el('button', {
      type: 'button', className: 'choice', text: labels[o] ?? o, testid: `${testPrefix}-${o}`,
      title, 'aria-label': title, 'aria-pressed': String(cur.value === o),
    }, row);
    b.addEventListener('click', () => apply(field, o));
  }
}

function select(parent, field, options, cur, testid, label) {
  const wrap = el('label', { className: 'field' }, parent);
  el('span', { text: label }, wrap);
  const s = el('select', { testid, 'aria-label': label }, wrap);
  if (cur.value === undefined) {
    el('option', { value: '', text: cur.mixed ? 'Mixed' : '—', disabled: true, selected: true }, s);
  }
  const values = options.map(String);
  // A value the list does not offer (set by an agent) is shown as it is.
  if (cur.value !== undefined && !values.includes(String(cur.value))) {
    el('option', { value: String(cur.value), text: String(cur.value), selected: true }, s);
  }
  for (const o of options) el('option', { value: String(o), text: String(o), selected: String(cur.value) === String(o) }, s);
  s.addEventListener('change', () => apply(field, typeof options[0] === 'number' ? Number(s.value) : s.value));
}

/** Rebuilds the panel, keeping the keyboard focus on the same control. */
function build() {
  if (!panel) return;
  const active = panel.contains(document.activeElement) ? document.activeElement : null;
  const focused = active?.dataset.testid;
  // A text field being typed in keeps what was typed across the rebuild.
  const typed = active?.tagName === 'INPUT' && active.type === 'text' ? active.value : null;
  fill();
  const again = focused && panel.querySelector(`[data-testid="${focused}"]`);
  if (again) {
    if (typed !== null) again.value = typed;
    again.focus({ preventScroll: true });
  }
}

function header(title) {
  const h = el('div', { className: 'panel-head' }, panel);
  el('span', { className: 'panel-title', text: title, testid: 'panel-title' }, h);
  const b = el('button', {
    type: 'button', className: 'panel-collapse', testid: 'panel-collapse',
    text: collapsed ? '▸' : '▾', title: collapsed ? 'Show the style panel' : 'Collapse the style panel',
    'aria-expanded': String(!collapsed),
  }, h);
  b.setAttribute('aria-label', b.title);
  b.addEventListener('click', () => setCollapsed(!collapsed));
}

function fill() {
  panel.replaceChildren();
  const kind = !state.selection.size && drawingKind();
  const objs = kind ? [nextObject(kind)] : styled();
  panel.hidden = !kind && state.selection.size === 0;
  if (panel.hidden) return;
  panel.classList.toggle('collapsed', collapsed);
  panel.dataset.mode = kind ? 'next' : 'selection';
  header(kind ? `Next ${KIND_NAMES[kind]}` : state.selection.size === 1 ? 'Style' : `Style · ${state.selection.size} selected`);
  if (collapsed) return;
  const has = (field) => objs.some((o) => APPLIES[o.type].includes(field));
  const get = (field) => common(objs, field);
  const mixed = (...fields) => fields.filter((f) => has(f) && get(f).mixed);

  if (has('fill')) {
    const filled = objs.filter((o) => APPLIES[o.type].includes('fill'));
    const tones = filled.every((o) => o.geom === 'note') ? PASTEL : PALETTE;
    colorRow(section('Fill', mixed('fill')), 'fill', get('fill'), 'fill', { none: true, tones });
  }
  if (has('stroke')) {
    const s = section('Stroke', mixed('stroke', 'stroke_width'));
    colorRow(s, 'stroke', get('stroke'), 'stroke', { none: objs.every((o) => o.type === 'shape') });
    select(s, 'stroke_width', [1, 2, 3, 4, 6, 8], get('stroke_width'), 'stroke-width', 'Width');
  }
  if (has('dash')) {
    choice(section('Dash', mixed('dash')), 'dash', ['solid', 'dashed', 'dotted'], get('dash'), 'dash');
  }
  if (has('font_size')) {
    const s = section('Text', mixed('font_size', 'font', 'text_color', 'align'));
    select(s, 'font_size', [10, 12, 14, 16, 20, 24, 32, 48, 64], get('font_size'), 'font-size', 'Size');
    if (has('font')) select(s, 'font', ['sans', 'serif', 'mono', 'hand'], get('font'), 'font', 'Font');
    colorRow(s, 'text_color', get('text_color'), 'text-color');
    if (has('align')) choice(s, 'align', ['left', 'center', 'right'], get('align'), 'align');
  }
  if (has('end_arrow')) {
    const s = section('Connector', mixed('start_arrow', 'end_arrow', 'route'));
    choice(s, 'route', ROUTES, get('route'), 'route', ROUTE_NAMES, 'Type');
    choice(s, 'start_arrow', ARROWS, get('start_arrow'), 'start-arrow', START_HEADS, 'Start');
    choice(s, 'end_arrow', ARROWS, get('end_arrow'), 'end-arrow', END_HEADS, 'End');
    if (!kind && objs.length === 1 && objs[0].type === 'connector') {
      endLabel(s, objs[0], 'start', 'Start label');
      endLabel(s, objs[0], 'end', 'End label');
    }
  }
  // A shape's icon, picked from the set with a search (iconpicker.js).
  if (!kind && objs.length && objs.every((o) => o.type === 'shape')) {
    iconSection(section('Icon'), objs, build);
  }
  if (has('opacity')) opacityRow(section('Opacity', mixed('opacity')), get('opacity'), kind ? [] : styled());
  // After opacity: the hand-drawn look is the least used, as in Excalidraw's panel.
  if (has('roughness')) {
    const s = section('Sketch', mixed('roughness', 'fill_style'));
    choice(s, 'roughness', [0, 1, 2], get('roughness'), 'roughness', ROUGHNESS_NAMES, 'Roughness');
    if (has('fill_style')) choice(s, 'fill_style', FILL_STYLES, get('fill_style'), 'fill-style', FILL_STYLE_NAMES, 'Fill');
  }
  if (!kind) arrange();
}

/**
 * The opacity slider, 0 to 100% in steps of 10 as Excalidraw's: while it is
 * dragged the objects `objs` are shown at the new opacity (their drawings' own
 * opacity overridden on screen), and letting go sends one `update`.
 */
function opacityRow(parent, cur, objs) {
  const wrap = el('label', { className: 'field opacity' }, parent);
  const value = el('span', { className: 'opacity-value', testid: 'opacity-value' }, wrap);
  const input = el('input', {
    type: 'range', min: '0', max: '100', step: '10', testid: 'opacity', 'aria-label': 'Opacity',
  }, wrap);
  const show = (v) => {
    value.textContent = v === undefined ? 'Mixed' : `${v}%`;
  };
  const percent = cur.value === undefined ? undefined : Math.round(cur.value * 100);
  input.value = String(percent ?? 100);
  show(percent);
  const drawn = objs.map((o) => document.getElementById(o.id)).filter((e) => e?.closest('.objects'));
  input.addEventListener('input', () => {
    show(Number(input.value));
    for (const e of drawn) e.style.opacity = String(Number(input.value) / 100);
  });
  input.addEventListener('change', () => {
    const v = Number(input.value) / 100;
    const done = apply('opacity', v);
    // The committed drawing replaces these elements; until then they keep the look.
    Promise.resolve(done).finally(() => {
      for (const e of drawn) e.style.opacity = '';
    });
  });
}

/**
 * The text field of connector `obj`'s label at `end` (a role or a cardinality):
 * Enter or leaving it sends one `update` when it changed; Escape puts it back.
 */
function endLabel(parent, obj, end, label) {
  const field = `${end}_label`;
  const wrap = el('label', { className: 'field' }, parent);
  el('span', { text: label }, wrap);
  const input = el('input', {
    type: 'text', value: obj[field] ?? '', placeholder: end === 'start' ? 'e.g. 1' : 'e.g. 0..*',
    testid: `${end}-label`, 'aria-label': label, maxLength: 200,
  }, wrap);
  const send = () => {
    const v = input.value.trim();
    if (v !== (obj[field] ?? '')) sync.call('update', { id: obj.id, [field]: v }).catch(() => {});
  };
  input.addEventListener('change', send);
  input.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Enter') input.blur();
    if (e.key === 'Escape') {
      input.value = obj[field] ?? '';
      input.blur();
    }
  });
}

function button(parent, text, testid, action, fn, extra = {}) {
  const title = hint(action, extra.title);
  const b = el('button', { type: 'button', className: `choice ${extra.className ?? ''}`.trim(), text, testid, title }, parent);
  b.setAttribute('aria-label', title);
  b.addEventListener('click', fn);
  return b;
}

/** The Arrange section: what applies to the selection's size. */
function arrange() {
  const n = state.selection.size;
  const s = section('Arrange');
  if (n >= 2) {
    const row = el('div', { className: 'choices', role: 'group', 'aria-label': 'Align' }, s);
    for (const [edge, text] of [['left', '⇤'], ['center', '↔'], ['right', '⇥'], ['top', '⤒'], ['middle', '↕'], ['bottom', '⤓']]) {
      button(row, text, `align-${edge}`, `align:${edge}`, () => align(edge));
    }
  }
  if (n >= 3) {
    const row = el('div', { className: 'choices', role: 'group', 'aria-label': 'Distribute' }, s);
    button(row, 'Space H', 'distribute-horizontal', 'distribute:horizontal', () => distribute('horizontal'));
    button(row, 'Space V', 'distribute-vertical', 'distribute:vertical', () => distribute('vertical'));
  }
  const z = el('div', { className: 'choices', role: 'group', 'aria-label': 'Order' }, s);
  for (const [to, text] of [['front', 'To front'], ['forward', 'Forward'], ['backward', 'Backward'], ['back', 'To back']]) {
    button(z, text, `order-${to}`, `order:${to}`, () => order(to));
  }
  const row = el('div', { className: 'choices' }, s);
  if (n >= 2) button(row, 'Group', 'group', 'group', group);
  if (hasGroup()) button(row, 'Ungroup', 'ungroup', 'ungroup', ungroup);
  const locked = allLocked();
  button(row, locked ? 'Unlock' : 'Lock', 'lock', 'lock', toggleLock, { title: locked ? 'Unlock' : 'Lock' });
  button(row, 'Duplicate', 'duplicate', 'duplicate', duplicateSelection);
  button(row, 'Delete', 'delete', 'delete', deleteSelection, { className: 'danger' });
}
