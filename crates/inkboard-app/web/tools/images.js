// images.js: images from files, by the image tool's file picker, by dropping files
// on the canvas, or by pasting (clipboard.js). Each becomes one `add_image` call
// with a data URL, centred where it was dropped.

import { select, emit } from '../sync/state.js';
import { toBoard, visibleRect, getView } from '../canvas/canvas.js';
import * as sync from '../sync/sync.js';

const TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'];
const MAX_SIDE = 800;

export function initImages(container) {
  container.addEventListener('dragover', (e) => {
    if ([...e.dataTransfer.items].some((i) => i.kind === 'file')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      container.classList.add('drop-target');
    }
  });
  container.addEventListener('dragleave', () => container.classList.remove('drop-target'));
  container.addEventListener('drop', (e) => {
    container.classList.remove('drop-target');
    if (!e.dataTransfer.files.length) return;
    e.preventDefault(); // never let the browser open a dropped file in place of the board
    const files = [...e.dataTransfer.files].filter(isImageFile);
    if (files.length) addFiles(files, toBoard(e.clientX, e.clientY));
    else emit('error', 'Only PNG, JPEG and SVG images can be dropped on the board.');
  });
}

export function isImageFile(file) {
  return TYPES.includes(file.type);
}

function readDataUrl(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result);
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

function naturalSize(url) {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve({ w: img.naturalWidth || 200, h: img.naturalHeight || 150 });
    img.onerror = () => resolve({ w: 200, h: 150 });
    img.src = url;
  });
}

/** Adds image files, the first centred on board point `p` (default: screen centre). */
export async function addFiles(files, p = null) {
  const v = visibleRect();
  let at = p ?? { x: v.x + v.w / 2, y: v.y + v.h / 2 };
  const ids = [];
  for (const file of files) {
    if (!isImageFile(file)) continue;
    const data = await readDataUrl(file);
    let { w, h } = await naturalSize(data);
    const limit = Math.min(MAX_SIDE, (0.8 * Math.min(v.w, v.h)) || MAX_SIDE);
    const s = Math.min(1, limit / Math.max(w, h));
    w = Math.max(1, Math.round(w * s));
    h = Math.max(1, Math.round(h * s));
    try {
      const r = await sync.call('add_image', { data, x: Math.round(at.x - w / 2), y: Math.round(at.y - h / 2), w, h });
      if (r?.id) ids.push(r.id);
    } catch {
      // reported by the status line
    }
    at = { x: at.x + 24 / getView().zoom, y: at.y + 24 / getView().zoom };
  }
  if (ids.length) select(ids);
}

/** Opens the file picker and adds the chosen images. */
export function pickImages() {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = TYPES.join(',');
  input.multiple = true;
  input.addEventListener('change', () => addFiles([...input.files]));
  input.click();
}
