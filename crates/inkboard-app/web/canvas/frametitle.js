// frametitle.js: the faint "Frame" an untitled frame shows in its title band on
// screen, so a person sees where to double-click to name it (Excalidraw and tldraw
// show their frames' default name there). It is the editor's, not the drawing's:
// the renderer never draws it, so `render` and `export` stay clean. canvas.js adds
// it to the frame's own drawn element, so it moves with a drag, turns with the
// frame, is looked through by the mouse, and is hidden with the frame's text while
// the title is edited (app.css: `.objects .editing text`). A named frame's new
// drawing comes without it.

import { textBox, cssFont, cssColor, rotationOf, center, DEFAULT_FONT_SIZE } from './geom.js';

const NS = 'http://www.w3.org/2000/svg';
/** What an untitled frame shows in its title band. */
export const PLACEHOLDER = 'Frame';
/** The renderer's colour of a frame's title (inkboard-render's `FRAME_TITLE`). */
const TITLE_COLOR = '#3e4c59';
/** Narrower than this, the word would stick out of the frame: none is shown. */
const MIN_WIDTH = 80;

/** Whether `obj` is a frame with no title. */
export function untitled(obj) {
  return obj?.type === 'shape' && obj.geom === 'frame' && !(obj.text ?? '').trim();
}

/**
 * Adds the placeholder to drawn element `el` of object `obj` if it is an untitled
 * frame: in the title band, where the renderer would set the title (its side,
 * font and size), in the title's colour, faint.
 */
export function markUntitled(el, obj) {
  if (!untitled(obj) || obj.w < MIN_WIDTH || !el.firstElementChild) return;
  const box = textBox('frame', obj);
  const align = obj.align ?? 'left';
  const x = align === 'center' ? box.x + box.w / 2 : align === 'right' ? box.x + box.w : box.x;
  const t = document.createElementNS(NS, 'text');
  t.setAttribute('class', 'frame-placeholder');
  t.setAttribute('data-testid', 'frame-placeholder');
  t.setAttribute('x', x);
  t.setAttribute('y', box.y + box.h / 2);
  t.setAttribute('dominant-baseline', 'central');
  t.setAttribute('text-anchor', align === 'center' ? 'middle' : align === 'right' ? 'end' : 'start');
  t.setAttribute('font-family', cssFont(obj.font));
  t.setAttribute('font-size', obj.font_size ?? DEFAULT_FONT_SIZE);
  t.setAttribute('font-weight', '600');
  t.setAttribute('fill', cssColor(obj.text_color, TITLE_COLOR));
  t.setAttribute('fill-opacity', '0.4');
  t.setAttribute('pointer-events', 'none');
  const deg = rotationOf(obj);
  if (deg) {
    const c = center(obj);
    t.setAttribute('transform', `rotate(${deg} ${c.x} ${c.y})`);
  }
  t.textContent = PLACEHOLDER;
  el.append(t);
}
