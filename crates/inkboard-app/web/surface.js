// surface.js: wires the board's surface to the page, the part the editor (main.js) and
// the chat view (chat/chat.js) share: canvas, navigation, tools, selection, text
// editing, images, style panel, page tabs, status, keyboard, clipboard, the
// shortcut help (help.js), the right-click menu (contextmenu.js), connection
// handles (connect.js) and presenting (present.js).

import { initCanvas, refreshBox } from './canvas/canvas.js';
import { initNavigate } from './canvas/navigate.js';
import { initSelection } from './select/selection.js';
import { initTools } from './tools/tools.js';
import { initTextEdit } from './tools/textedit.js';
import { initImages } from './tools/images.js';
import { initPanel } from './ui/panel.js';
import { initPages } from './ui/pages.js';
import { initStatus } from './sync/status.js';
import { initKeyboard } from './ui/keyboard.js';
import { initClipboard } from './tools/clipboard.js';
import { initHelp } from './ui/help.js';
import { initContextMenu } from './ui/contextmenu.js';
import { initBends } from './select/bends.js';
import { initLinks } from './select/connect.js';
import { initPresent } from './ui/present.js';

/** Wires the surface to the page's elements (found by `data-testid`). */
export function initSurface(canvas, $) {
  initCanvas(canvas);
  initNavigate(canvas, $('zoom-controls'));
  initTools(canvas, $('toolbar'));
  initSelection();
  initTextEdit(canvas);
  initImages(canvas);
  initPanel($('style-panel'));
  initPages($('page-tabs'));
  initStatus($('status'));
  initKeyboard();
  initClipboard();
  initHelp($('zoom-controls'));
  initContextMenu(canvas);
  initBends(canvas);
  initLinks();
  initPresent();
  window.addEventListener('resize', refreshBox);
  // A button clicked with the mouse hands the keyboard back to the board, so that
  // Space pans (and Delete deletes) right after picking a tool or a colour.
  document.addEventListener('click', (e) => {
    if (e.detail > 0 && e.target.closest?.('button')) canvas.focus({ preventScroll: true });
  });
}
