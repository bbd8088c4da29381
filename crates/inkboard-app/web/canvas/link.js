// link.js: a shape's or image's link, as Excalidraw and tldraw have them.
// Ctrl+K asks for the address of the selected shapes and images (the one they
// share as the default; an empty answer removes it) and sets it in one `update`;
// the server checks it (web and mail addresses only) and says why it refuses.
// A linked object shows a small badge at its top right corner on screen (the
// editor's, like frametitle.js's placeholder: never in `render` or `export`,
// where the link is an SVG <a> and a PDF link instead), and Ctrl+click (Cmd on
// a Mac) on it opens the link in a new tab that cannot reach back into this one
// (`noopener`), where a plain click still selects.

import { state, emit } from '../sync/state.js';
import { hasBox, rotationOf, center } from './geom.js';
import * as sync from '../sync/sync.js';

const NS = 'http://www.w3.org/2000/svg';
/** The badge's size in board units, and its gap inside the corner. */
const BADGE = 14;
const INSET = 3;

/** The link of object `id`, if it has one. */
export function linkOf(id) {
  const link = state.objects.get(id)?.link;
  return typeof link === 'string' && /^(https?:\/\/|mailto:)/i.test(link) ? link : null;
}

/** Whether object `obj` may carry a link: shapes and images. */
function linkable(obj) {
  return obj?.type === 'shape' || obj?.type === 'image';
}

/** Ctrl+K: asks for the selection's link and sets it; '' removes it. */
export function editLink() {
  const ids = [...state.selection].filter((id) => linkable(state.objects.get(id)));
  if (!ids.length) return null;
  const links = new Set(ids.map((id) => state.objects.get(id).link ?? ''));
  const current = links.size === 1 ? [...links][0] : '';
  const answer = window.prompt('Link (a web or mail address; empty removes it)', current);
  if (answer === null || answer.trim() === current) return null;
  return sync.call('update', { ids, link: answer.trim() }).catch((err) => emit('error', err?.message ?? String(err)));
}

/** Opens object `id`'s link in a new tab; true when it had one. */
export function openLink(id) {
  const link = linkOf(id);
  if (!link) return false;
  window.open(link, '_blank', 'noopener,noreferrer');
  return true;
}

/** Adds the link badge to drawn element `el` of object `obj` when it links somewhere. */
export function markLinked(el, obj) {
  if (!obj?.link || !linkable(obj) || !hasBox(obj) || !el.firstElementChild) return;
  const g = document.createElementNS(NS, 'g');
  g.setAttribute('class', 'link-badge');
  g.setAttribute('data-testid', 'link-badge');
  g.setAttribute('pointer-events', 'none');
  const x = obj.x + obj.w - BADGE - INSET;
  const y = obj.y + INSET;
  const deg = rotationOf(obj);
  if (deg) {
    const c = center(obj);
    g.setAttribute('transform', `rotate(${deg} ${c.x} ${c.y})`);
  }
  const title = document.createElementNS(NS, 'title');
  title.textContent = `${obj.link} (Ctrl+click opens it)`;
  const bg = document.createElementNS(NS, 'rect');
  for (const [k, v] of Object.entries({ x, y, width: BADGE, height: BADGE, rx: 3, fill: '#1e88e5' })) bg.setAttribute(k, v);
  // Two links of a chain, as the usual link icon.
  const chain = document.createElementNS(NS, 'path');
  const s = BADGE / 14;
  chain.setAttribute('d', `M${x + 4 * s} ${y + 9 * s}l2-2m-1.5-1.5l1-1a2 2 0 0 1 3 3l-1 1m-3 0l-1 1a2 2 0 0 1-3-3l1-1`);
  chain.setAttribute('transform', `translate(${s} ${-s})`);
  for (const [k, v] of Object.entries({ fill: 'none', stroke: '#fff', 'stroke-width': 1.4, 'stroke-linecap': 'round' })) chain.setAttribute(k, v);
  g.append(title, bg, chain);
  el.append(g);
}
