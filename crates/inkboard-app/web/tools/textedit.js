// textedit.js: editing text in place. A textarea is laid over the shape (or the
// connector's label) at the current zoom, the drawn text hidden meanwhile; leaving
// it (Escape, Ctrl+Enter, Enter in a frame's one-line title, a click elsewhere)
// sends one `update {id, text}`. Text typed on empty canvas becomes a new `text`
// shape. The text is only ever a value.
// The textarea grows down as lines are typed, and a `text` shape sized to its text
// (`size: "auto"`, which does not wrap) grows to the right too.
// While a shape's text is typed, the server fits it by the renderer's one rule: the
// `update` the edit will send is previewed on a draft (when typing rests 40 ms, one
// at a time, the latest text next), and the drawn preview shows the shape as it will be, grown to its text
// when it is sized to it, the text shrunk (down to the floor) when it is not; the
// textarea takes that preview's text box and font size, so it wraps where the
// drawing will. No fit rule is written twice: the editor only asks.
// New text is made left-aligned, its box placed so that it is drawn where it was
// typed (no re-centring, no jump), in the style remembered for text.
// A shape's text is rich text, edited formatted (WYSIWYG): a contenteditable element
// shows bold, italic, struck, code, links and lists as they will be drawn, with the
// shortcuts of richdom.js on the DOM selection; the server makes the Markdown into
// that HTML and the HTML back into Markdown (`sync.rich`, `/api/rich`), so the
// grammar is written once, in Rust, and the fit preview is asked with the Markdown.
// Where there is no such call (the chat view), the text is edited as its Markdown
// source with the shortcuts of richkeys.js. A frame's title and a connector's label
// are plain, in a textarea. So are a connector's end labels (`start_label`,
// `end_label`: a role or a cardinality drawn beside an end), edited on one line
// over the end label as drawn (the SVG marks it `data-end`), or beside its end
// when it has none yet; only that label's text is hidden meanwhile.
// A turned shape's textarea is turned with it, about the shape's centre, so the
// text stands as it will be drawn while it is typed.
// An editor opened on no text (a new sticky note's, which opens by itself, as in
// tldraw) takes a first Enter as the "start typing" it is by habit elsewhere (Enter
// edits a selected shape): it types no blank first line.

import { state, on, select } from '../sync/state.js';
import {
  textBox, cssColor, cssFill, cssFont, union, center, rotationOf, darkFill, DEFAULT_FONT_SIZE, LABEL_FONT_SIZE,
  LINE_HEIGHT, INK,
} from '../canvas/geom.js';
import {
  elementOf, toContainer, toBoard, getView, showPreview, clearPreview,
} from '../canvas/canvas.js';
import * as sync from '../sync/sync.js';
import { richKey, guardLinks } from './richkeys.js';
import { richDomKey, pastePlain } from './richdom.js';
import { styleArgs } from './stylememory.js';

let container;
let area = null;
// {id?, box, fontSize, align, valign, color, label?, end?, grow?, turn?, fit?, dom?, before?}
let session = null;

/** How long typing rests before its fit is asked for, in ms. */
const FIT_DELAY = 40;

export function initTextEdit(el) {
  container = el;
  guardLinks(el);
  on('view', () => session && place());
  // Text typed into another board's object is not sent to this one.
  on('boardswitch', () => session && cancelEdit());
  on('scene', () => {
    if (!session?.id) return;
    if (!state.objects.has(session.id)) {
      cancelEdit();
      return;
    }
    mark(session, true);
    // A scene puts the committed drawing back: the typed text is fitted again.
    if (session.fit) {
      session.fit.text = state.objects.get(session.id).text ?? '';
      session.fit.shown = null;
      askFit();
    }
  });
}

export function isEditing() {
  return session !== null;
}

/** The text an end label is set in, as the renderer's share of the label's size. */
const END_LABEL_SCALE = 12 / 14;

/**
 * Starts editing the text of a shape or connector, or with `end` ('start' or
 * 'end') the label at that end of a connector.
 */
export function startEdit(id, end = null) {
  finishEdit();
  const obj = state.objects.get(id);
  if (!obj || (obj.type !== 'shape' && obj.type !== 'connector')) return false;
  if (end && obj.type === 'connector') return startEndEdit(obj, end);
  let box;
  let color;
  let align = obj.align;
  if (obj.type === 'shape') {
    box = textBox(obj.geom ?? 'rect', obj);
    const frame = obj.geom === 'frame';
    align ??= frame ? 'left' : 'center';
    color = obj.text_color ? cssColor(obj.text_color)
      : frame ? '#3e4c59' : obj.fill && darkFill(cssFill(obj)) ? '#ffffff' : INK;
  } else {
    box = labelBox(id);
    align ??= 'center';
    color = cssColor(obj.text_color, INK);
  }
  session = {
    id, box, align, color,
    valign: obj.valign ?? 'middle',
    font: obj.font ?? 'sans',
    // As drawn: a fixed shape's text may be shrunk to fit (the renderer's rule).
    fontSize: (obj.type === 'shape' && drawnFontSize(id))
      || obj.font_size || (obj.type === 'connector' ? LABEL_FONT_SIZE : DEFAULT_FONT_SIZE),
    label: obj.type === 'connector',
    grow: obj.type === 'shape' && obj.geom === 'text' && obj.size === 'auto',
    // Shapes' text is rich text (Markdown subset); frame titles and labels are plain.
    rich: obj.type === 'shape' && obj.geom !== 'frame',
    // The renderer turns a shape's text with it, about the shape's centre.
    turn: obj.type === 'shape' && rotationOf(obj) ? { deg: rotationOf(obj), about: center(obj) } : null,
    // A frame's title is one line: Enter ends it, as in Excalidraw and tldraw.
    oneLine: obj.type === 'shape' && obj.geom === 'frame',
    // A shape's text is fitted by the server as it is typed (see askFit).
    fit: obj.type === 'shape' ? { text: obj.text ?? '', shown: obj.text ?? '', busy: false, timer: 0 } : null,
  };
  open(obj.text ?? '');
  mark(session, true);
  return true;
}

/** Starts editing the label at `end` of connector `obj`: plain, one line. */
function startEndEdit(obj, end) {
  const fontSize = (obj.font_size || LABEL_FONT_SIZE) * END_LABEL_SCALE;
  session = {
    id: obj.id, end, box: endLabelBox(obj.id, end, fontSize), align: 'center', valign: 'middle',
    color: cssColor(obj.text_color, INK), font: obj.font ?? 'sans', fontSize,
    label: true, grow: false, rich: false, turn: null, oneLine: true, fit: null,
  };
  open(obj[`${end}_label`] ?? '');
  mark(session, true);
  return true;
}

/** Hides (or shows again) the drawn text that session `s` edits. */
function mark(s, on) {
  const el = s?.id && elementOf(s.id);
  if (!el) return;
  el.classList.toggle(s.end ? `editing-${s.end}` : 'editing', on);
}

/**
 * Which end label of connector `id` a pointer at (clientX, clientY) means: the
 * one under it, else the end of the line it is near (within 24 screen px, and
 * in the quarter of the line by that end), else null.
 */
export function endAt(id, clientX, clientY) {
  const el = elementOf(id);
  if (!el) return null;
  const under = document.elementsFromPoint(clientX, clientY)
    .find((t) => t.tagName === 'text' && el.contains(t) && t.dataset.end);
  if (under) return under.dataset.end;
  const path = el.querySelector('path');
  if (!path) return null;
  const total = path.getTotalLength();
  const p = toBoard(clientX, clientY);
  const reach = Math.min(24 / getView().zoom, total / 4);
  let best = null;
  for (const [end, at] of [['start', 0], ['end', total]]) {
    const q = path.getPointAtLength(at);
    const d = Math.hypot(q.x - p.x, q.y - p.y);
    if (d <= reach && (!best || d < best.d)) best = { end, d };
  }
  return best?.end ?? null;
}

/** Starts typing a new text shape at a board point (made when the typing ends). */
export function startNew(p) {
  finishEdit();
  // The style the new text will have (stylememory.js), so it looks so while typed.
  const style = styleArgs('text');
  const fontSize = style.font_size ?? DEFAULT_FONT_SIZE;
  const h = fontSize * LINE_HEIGHT;
  session = {
    box: { x: p.x, y: p.y - h / 2, w: 0, h },
    align: style.align ?? 'left', valign: 'top', color: cssColor(style.text_color, INK), font: style.font ?? 'sans',
    fontSize, grow: true, rich: true, style,
  };
  open('');
}

function labelBox(id) {
  const el = elementOf(id);
  const texts = el ? [...el.querySelectorAll('text:not([data-end])')] : [];
  if (texts.length) {
    let b = null;
    for (const t of texts) {
      const r = t.getBBox();
      b = union(b, { x: r.x, y: r.y, w: r.width, h: r.height });
    }
    const w = Math.max(120, b.w + 16);
    return { x: b.x + b.w / 2 - w / 2, y: b.y, w, h: b.h };
  }
  const path = el?.querySelector('path');
  const mid = path ? path.getPointAtLength(path.getTotalLength() / 2) : { x: 0, y: 0 };
  const h = LABEL_FONT_SIZE * LINE_HEIGHT;
  return { x: mid.x - 80, y: mid.y - h / 2, w: 160, h };
}

/**
 * Where an end label is edited: over its text as drawn, or, without one yet,
 * beside that end of the line (above and along it).
 */
function endLabelBox(id, end, fontSize) {
  const el = elementOf(id);
  let b = null;
  for (const t of el ? el.querySelectorAll(`text[data-end="${end}"]`) : []) {
    const r = t.getBBox();
    b = union(b, { x: r.x, y: r.y, w: r.width, h: r.height });
  }
  if (b) {
    const w = Math.max(60, b.w + 16);
    return { x: b.x + b.w / 2 - w / 2, y: b.y, w, h: b.h };
  }
  const h = fontSize * LINE_HEIGHT;
  const path = el?.querySelector('path');
  if (!path) return { x: 0, y: 0, w: 60, h };
  const total = path.getTotalLength();
  const at = path.getPointAtLength(end === 'start' ? 0 : total);
  const toward = path.getPointAtLength(end === 'start' ? Math.min(20, total) : Math.max(0, total - 20));
  const cx = at.x + (toward.x - at.x) * 0.8;
  const cy = at.y + (toward.y - at.y) * 0.8;
  return { x: cx - 30, y: cy - h - 4, w: 60, h };
}

/** Whether rich text is edited formatted here (the editor has `/api/rich`). */
const FORMATTED = typeof sync.rich === 'function';

/**
 * Opens the editor on `text`: a shape's rich text formatted (its HTML from the
 * server, or at once when it has no markup), anything else in a textarea.
 */
function open(text) {
  const s = session;
  s.fresh = text === '';
  if (!s.rich || !FORMATTED) {
    openArea(text);
    return;
  }
  s.dom = true;
  s.before = text;
  // Text with no character that can start markup is shown as it is: one line a div.
  if (!/[*_~`[\\]/.test(text) && !/^ *([-+•]|\d{1,9}[.)]) /m.test(text)) {
    const div = document.createElement('div');
    openDom(text.split(/\r\n|\n|\r/).map((l) => {
      div.textContent = l;
      return `<div>${l ? div.innerHTML : '<br>'}</div>`;
    }).join(''));
    return;
  }
  sync.rich({ markdown: text }).then((r) => {
    if (session === s) openDom(r.html);
  }, () => {
    if (session === s) {
      s.dom = false;
      openArea(text);
    }
  });
}

/** The formatted editor: a contenteditable element holding `html`. */
function openDom(html) {
  area = document.createElement('div');
  area.contentEditable = 'true';
  area.className = 'text-editor rich';
  area.setAttribute('role', 'textbox');
  area.setAttribute('aria-multiline', 'true');
  area.dataset.testid = 'text-editor';
  area.setAttribute('aria-label', 'Text');
  area.spellcheck = true;
  area.innerHTML = html;
  session.html = area.innerHTML;
  area.style.textAlign = session.align;
  area.style.color = session.color;
  area.style.fontFamily = cssFont(session.font);
  if (session.grow) area.style.whiteSpace = 'pre';
  area.addEventListener('input', () => {
    if (session) session.fresh = false;
    place();
    askFit();
  });
  area.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Escape' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      finishEdit();
    } else if (habitEnter(e, area.textContent)) {
      e.preventDefault();
    } else if (richDomKey(e, area)) {
      e.preventDefault();
      area.dispatchEvent(new Event('input'));
    }
  });
  pastePlain(area);
  area.addEventListener('blur', () => finishEdit());
  area.addEventListener('pointerdown', (e) => e.stopPropagation());
  container.append(area);
  // Lines are divs, as the model's lines are paragraphs.
  document.execCommand('defaultParagraphSeparator', false, 'div');
  place();
  area.focus();
  getSelection().selectAllChildren(area);
}

/** The plain editor: a textarea holding `text` (rich text as its Markdown source). */
function openArea(text) {
  area = document.createElement('textarea');
  area.className = 'text-editor';
  if (session.label) area.classList.add('label');
  area.dataset.testid = 'text-editor';
  area.setAttribute('aria-label', 'Text');
  area.spellcheck = true;
  area.value = text;
  area.style.textAlign = session.align;
  area.style.color = session.color;
  area.style.fontFamily = cssFont(session.font);
  if (session.grow) area.wrap = 'off';
  area.addEventListener('input', () => {
    if (session) session.fresh = false;
    place();
    askFit();
  });
  area.addEventListener('keydown', (e) => {
    e.stopPropagation();
    const ends = e.ctrlKey || e.metaKey || (session?.oneLine && !e.shiftKey);
    if (e.key === 'Escape' || (e.key === 'Enter' && ends)) {
      e.preventDefault();
      finishEdit();
    } else if (habitEnter(e, area.value)) {
      e.preventDefault();
    } else if (session?.rich && richKey(e, area)) {
      e.preventDefault();
    }
  });
  area.addEventListener('blur', () => finishEdit());
  area.addEventListener('pointerdown', (e) => e.stopPropagation());
  container.append(area);
  place();
  area.focus();
  area.select();
}

/**
 * Whether key event `e` is a first Enter in an editor that opened on no text and
 * still holds `held` empty: taken as "start typing", it types no blank line.
 */
function habitEnter(e, held) {
  if (e.key !== 'Enter' || !session?.fresh || held !== '') return false;
  session.fresh = false;
  return true;
}

/** Lays the textarea over the text box at the current zoom. */
function place() {
  if (!area || !session) return;
  const z = getView().zoom;
  const { box } = session;
  const fs = session.fontSize * z;
  area.style.fontSize = `${fs}px`;
  area.style.lineHeight = String(LINE_HEIGHT);
  const tl = toContainer(box.x, box.y);
  let width = box.w * z;
  if (session.grow) {
    area.style.width = '0px';
    width = Math.max(40 * z, area.scrollWidth + fs);
  }
  area.style.width = `${width}px`;
  area.style.height = '0px';
  const height = Math.max(fs * LINE_HEIGHT, area.scrollHeight);
  area.style.height = `${height}px`;
  let top = tl.y;
  if (session.valign === 'middle') top += (box.h * z - height) / 2;
  else if (session.valign === 'bottom') top += box.h * z - height;
  area.style.left = `${tl.x}px`;
  area.style.top = `${top}px`;
  if (session.turn) {
    // CSS turns about a point of the element's own box: the shape's centre.
    const c = toContainer(session.turn.about.x, session.turn.about.y);
    area.style.transformOrigin = `${c.x - tl.x}px ${c.y - top}px`;
    area.style.transform = `rotate(${session.turn.deg}deg)`;
  }
}

// ---- live fit --------------------------------------------------------------------

/** Asks the server, soon, to fit the text as typed (a preview of the `update`). */
function askFit() {
  const fit = session?.fit;
  if (!fit) return;
  clearTimeout(fit.timer);
  fit.timer = setTimeout(sendFit, FIT_DELAY);
}

/** What the editor holds now, as it was typed (HTML or text). */
function raw() {
  if (!area) return null;
  return session?.dom ? area.innerHTML : area.value;
}

/** The text of `raw` (what the editor held), as the shape holds it: Markdown. */
async function textOf(s, held) {
  if (!s.dom) return held;
  if (held === s.html) return s.before;
  return (await sync.rich({ html: held, before: s.before })).markdown;
}

/** Sends the fit of the editor's text, unless one is on its way (its answer asks again). */
function sendFit() {
  const s = session;
  const fit = s?.fit;
  if (!fit || fit.busy || !area) return;
  const held = raw();
  fit.busy = true;
  const again = () => {
    fit.busy = false;
    if (session === s && area && raw() !== held) sendFit();
  };
  textOf(s, held).then((text) => {
    if (session !== s) {
      fit.busy = false;
      return undefined;
    }
    if (text === fit.shown) return again();
    if (text === fit.text) {
      // Back to the committed text: the committed drawing is the fit.
      clearPreview();
      elementOf(s.id)?.classList.add('editing');
      const obj = state.objects.get(s.id);
      if (obj) fitTo(s, obj, null);
      fit.shown = text;
      return again();
    }
    return sync.preview('update', { id: s.id, text }).then((msg) => {
      if (session !== s) {
        fit.busy = false;
        return;
      }
      // Answered, shown or not (a refusal is not asked again until the text changes).
      fit.shown = text;
      const item = msg.items?.[s.id];
      if (!msg.error && item?.obj) {
        showPreview(msg.items);
        elementOf(s.id)?.classList.add('editing');
        fitTo(s, item.obj, item.svg);
      }
      again();
    });
  }).catch(() => {
    fit.busy = false;
  });
}

/**
 * Takes the text box of `obj` (the shape as the server fitted it) and the font size
 * its text is drawn at in `svg` (when given; the set size otherwise).
 */
function fitTo(s, obj, svg) {
  s.box = textBox(obj.geom ?? 'rect', obj);
  const drawn = svg ? /<text\b[^>]*?\sfont-size="([0-9.]+)"/.exec(svg)?.[1] : drawnFontSize(s.id);
  s.fontSize = Number(drawn) || (obj.font_size ?? DEFAULT_FONT_SIZE);
  if (s.turn) s.turn.about = center(obj);
  place();
}

/** The font size the text of object `id` is drawn at now (the fit's, maybe shrunk). */
function drawnFontSize(id) {
  return Number(elementOf(id)?.querySelector('text')?.getAttribute('font-size')) || null;
}

function close() {
  const s = session;
  session = null;
  if (s?.fit) clearTimeout(s.fit.timer);
  mark(s, false);
  const a = area;
  area = null;
  const held = a ? (s?.dom ? a.innerHTML : a.value) : '';
  a?.remove();
  return { s, held };
}

/** Ends editing, keeping nothing. */
function cancelEdit() {
  close();
  clearPreview();
}

/** Ends editing and sends the text. */
export function finishEdit() {
  if (!session) return;
  const { s, held } = close();
  // Before the editor opened (its HTML on its way), nothing was typed.
  if (s.dom && s.html === undefined) return;
  textOf(s, held).then((text) => commit(s, text), (err) => {
    console.error('inkboard: the text could not be read back', err);
    clearPreview();
  });
}

/** Sends the text typed in session `s`. */
function commit(s, text) {
  if (s.id && s.end) {
    // An end label, one line; emptied, it goes.
    const field = `${s.end}_label`;
    const obj = state.objects.get(s.id);
    const line = text.replace(/\s*\n\s*/g, ' ').trim();
    if (obj && line !== (obj[field] ?? '')) {
      sync.call('update', { id: s.id, [field]: line }).catch(() => {});
    }
    clearPreview();
    return;
  }
  if (s.id) {
    const obj = state.objects.get(s.id);
    if (!obj || text === (obj.text ?? '')) {
      clearPreview();
      return;
    }
    // A text shape left empty goes; the server refits one to its new text. The
    // previewed fit stays drawn until the scene of the commit replaces it.
    const done = obj.geom === 'text' && !text.trim()
      ? sync.call('delete', { ids: [s.id] })
      : sync.call('update', { id: s.id, text });
    done.catch(() => clearPreview());
    return;
  }
  if (!text.trim()) return;
  // Drawn where it was typed: the shape's box is its text's plus the text geom's
  // inset, and its lines start at the left as they did while typing.
  const inset = textBox('text', { x: 0, y: 0, w: 100, h: 100 });
  sync.call('add_shape', {
    align: 'left', ...s.style, geom: 'text', text, x: Math.round(s.box.x - inset.x), y: Math.round(s.box.y - inset.y),
  })
    .then((r) => r?.id && select([r.id]))
    .catch(() => {});
}

