// panel.js: the style panel on the right. Shows the fields that apply to what is
// selected (fill, stroke, width, dash, font size and face, text colour, alignment,
// arrowheads and route for connectors, order) with the selection's common value,
// and sends one `update` for the objects each change applies to.

import { state, on, membersOf } from './state.js';
import { PALETTE, PASTEL } from './palette.js';
import * as sync from './sync.js';
import { deleteSelection } from './clipboard.js';

const COLORS = Object.keys(PALETTE);
const APPLIES = {
  shape: ['fill', 'stroke', 'stroke_width', 'dash', 'font_size', 'font', 'text_color', 'align'],
  connector: ['stroke', 'stroke_width', 'dash', 'font_size', 'font', 'text_color', 'start_arrow', 'end_arrow', 'route'],
  ink: ['stroke', 'stroke_width', 'dash'],
  image: [],
  group: [],
};
const ARROWS = ['none', 'arrow', 'triangle', 'diamond', 'circle'];
const DEFAULTS = { start_arrow: 'none', end_arrow: 'arrow', route: 'orthogonal', dash: 'solid' };
const TRANSPARENT = '#ffffff00';

let panel;

export function initPanel(el) {
  panel = el;
  panel.setAttribute('aria-label', 'Style');
  on('selection', build);
  on('scene', build);
  build();
}

/** The selected objects that carry style: groups stand for their members. */
function styled() {
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

/** The value of a field as an object stores it (ink calls its stroke color/width). */
function valueOf(obj, field) {
  if (obj.type === 'ink') {
    if (field === 'stroke') return obj.color;
    if (field === 'stroke_width') return obj.width;
  }
  return obj[field] ?? DEFAULTS[field];
}

function common(objs, field) {
  const values = new Set(objs.filter((o) => APPLIES[o.type].includes(field)).map((o) => valueOf(o, field)));
  return values.size === 1 ? [...values][0] : undefined;
}

function apply(field, value) {
  const ids = styled().filter((o) => APPLIES[o.type].includes(field)).map((o) => o.id);
  if (!ids.length) return;
  sync.call('update', { ids, [field]: value }).catch(() => {});
}

function el(tag, props = {}, parent = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'testid') e.dataset.testid = v;
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  if (parent) parent.append(e);
  return e;
}

function section(title) {
  const s = el('section', { className: 'panel-section' }, panel);
  el('h3', { text: title }, s);
  return s;
}

/** A row of swatches, one per palette name, drawn in `tones` (the pastel ones
 * when every object whose fill it sets is a sticky note, as they will look). */
function colorRow(parent, field, current, testPrefix, { none = false, tones = PALETTE } = {}) {
  const row = el('div', { className: 'swatches', role: 'group' }, parent);
  if (none) {
    const b = el('button', {
      type: 'button', className: 'swatch none', title: 'None', testid: `${testPrefix}-none`,
      'aria-label': 'None', 'aria-pressed': String(current === TRANSPARENT),
    }, row);
    b.addEventListener('click', () => apply(field, TRANSPARENT));
  }
  for (const name of COLORS) {
    const b = el('button', {
      type: 'button', className: 'swatch', title: name, testid: `${testPrefix}-${name}`,
      'aria-label': name, 'aria-pressed': String(current === name),
    }, row);
    b.style.background = tones[name];
    b.addEventListener('click', () => apply(field, name));
  }
  const custom = el('input', {
    type: 'color', className: 'swatch custom', title: 'Other colour', testid: `${testPrefix}-custom`,
    'aria-label': `Other ${field.replace('_', ' ')}`,
  }, row);
  if (current && /^#[0-9a-f]{6}$/i.test(current)) custom.value = current;
  custom.addEventListener('change', () => apply(field, custom.value));
}

function choice(parent, field, options, current, testPrefix, labels = {}) {
  const row = el('div', { className: 'choices', role: 'group' }, parent);
  for (const o of options) {
    const b = el('button', {
      type: 'button', className: 'choice', text: labels[o] ?? o, testid: `${testPrefix}-${o}`,
      title: `${field.replace('_', ' ')}: ${o}`, 'aria-pressed': String(current === o),
    }, row);
    b.addEventListener('click', () => apply(field, o));
  }
}

function select(parent, field, options, current, testid, label) {
  const wrap = el('label', { className: 'field' }, parent);
  el('span', { text: label }, wrap);
  const s = el('select', { testid, 'aria-label': label }, wrap);
  if (current === undefined) el('option', { value: '', text: '—', disabled: true, selected: true }, s);
  for (const o of options) el('option', { value: String(o), text: String(o), selected: String(current) === String(o) }, s);
  s.addEventListener('change', () => apply(field, typeof options[0] === 'number' ? Number(s.value) : s.value));
}

/** Rebuilds the panel, keeping the keyboard focus on the same control. */
function build() {
  const focused = panel.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
  fill();
  if (focused) panel.querySelector(`[data-testid="${focused}"]`)?.focus({ preventScroll: true });
}

function fill() {
  panel.replaceChildren();
  const objs = styled();
  panel.hidden = state.selection.size === 0;
  if (panel.hidden) return;
  const has = (field) => objs.some((o) => APPLIES[o.type].includes(field));

  if (has('fill')) {
    const filled = objs.filter((o) => APPLIES[o.type].includes('fill'));
    const tones = filled.every((o) => o.geom === 'note') ? PASTEL : PALETTE;
    colorRow(section('Fill'), 'fill', common(objs, 'fill'), 'fill', { none: true, tones });
  }
  if (has('stroke')) {
    const s = section('Stroke');
    colorRow(s, 'stroke', common(objs, 'stroke'), 'stroke');
    select(s, 'stroke_width', [1, 2, 3, 4, 6, 8], common(objs, 'stroke_width'), 'stroke-width', 'Width');
  }
  if (has('dash')) {
    choice(section('Dash'), 'dash', ['solid', 'dashed', 'dotted'], common(objs, 'dash'), 'dash');
  }
  if (has('font_size')) {
    const s = section('Text');
    select(s, 'font_size', [10, 12, 14, 16, 20, 24, 32, 48, 64], common(objs, 'font_size'), 'font-size', 'Size');
    if (has('font')) {
      const unset = objs.every((o) => o.font === undefined);
      select(s, 'font', ['sans', 'serif', 'mono', 'hand'], unset ? 'sans' : common(objs, 'font'), 'font', 'Font');
    }
    colorRow(s, 'text_color', common(objs, 'text_color'), 'text-color');
    if (has('align')) {
      choice(s, 'align', ['left', 'center', 'right'], common(objs, 'align'), 'align');
    }
  }
  if (has('end_arrow')) {
    const s = section('Connector');
    select(s, 'start_arrow', ARROWS, common(objs, 'start_arrow'), 'start-arrow', 'Start');
    select(s, 'end_arrow', ARROWS, common(objs, 'end_arrow'), 'end-arrow', 'End');
    select(s, 'route', ['orthogonal', 'straight', 'curved'], common(objs, 'route'), 'route', 'Route');
  }
  const s = section('Arrange');
  const row = el('div', { className: 'choices' }, s);
  for (const [to, label] of [['front', 'To front'], ['back', 'To back']]) {
    const b = el('button', { type: 'button', className: 'choice', text: label, testid: `order-${to}` }, row);
    b.addEventListener('click', () => sync.call('order', { ids: [...state.selection], to }).catch(() => {}));
  }
  const del = el('button', { type: 'button', className: 'choice danger', text: 'Delete', testid: 'delete', title: 'Delete (Del)' }, row);
  del.addEventListener('click', deleteSelection);
}
