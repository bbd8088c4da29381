// surface.js: wires the board's surface to the page, the part the editor (main.js) and
// the MCP App view (chat/chat.js) share: canvas, navigation, tools, selection, text
// editing, images, style panel, page tabs, status, keyboard, clipboard, the
// shortcut help (help.js), the right-click menu (contextmenu.js), connection
// handles (connect.js) and presenting (present.js).

import { initCanvas, refreshBox } from './canvas.js';
import { initNavigate } from './navigate.js';
import { initSelection } from './selection.js';
import { initTools } from './tools.js';
import { initTextEdit } from './textedit.js';
import { initImages } from './images.js';
import { initPanel } from './panel.js';
import { initPages } from './pages.js';
import { initStatus } from './status.js';
import { initKeyboard } from './keyboard.js';
import { initClipboard } from './clipboard.js';
import { initHelp } from './help.js';
import { initContextMenu } from './contextmenu.js';
import { initBends } from './bends.js';
import { initLinks } from './connect.js';
import { initPresent } from './present.js';

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
