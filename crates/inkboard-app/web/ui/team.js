// team.js: the editor on a team server (`inkboard serve`). From the `board` message's
// `who` and `role` (docs/live-protocol.md), the header shows who is signed in and their
// role on the board; a viewer's editor is read-only: it offers only the tools that change
// nothing (select, hand) and no style panel, and the server refuses their edits anyway.
// An owner gets the Share button (share.js). The application's `board` messages have no
// role, and then nothing here shows.

import { state, on } from '../sync/state.js';
import { setTool } from '../tools/tools.js';
import { initShare } from './share.js';

/** The tools a viewer is offered: they look, and change nothing. */
const LOOKING = new Set(['select', 'hand']);

let chip = null;

export function initTeam(actions) {
  chip = document.createElement('span');
  chip.className = 'who';
  chip.dataset.testid = 'who';
  chip.hidden = true;
  chip.style.cssText = 'align-self:center;padding:0 8px;color:var(--fg-soft);white-space:nowrap;';
  actions.prepend(chip);
  initShare(chip);
  // Read-only rules go with the page, not app.css: they belong to the server's editor.
  const style = document.createElement('style');
  style.textContent = 'body.read-only .toolbar .tool:not([data-tool="select"]):not([data-tool="hand"]),'
    + ' body.read-only .panel { display: none !important; }';
  document.head.append(style);
  on('board', show);
}

function show(msg) {
  if (!msg.role) return;
  chip.hidden = false;
  chip.textContent = `${msg.who ?? ''} · ${msg.role}`;
  chip.title = `Signed in as ${msg.who}, ${msg.role} of this board`;
  const readOnly = msg.role === 'viewer';
  state.readOnly = readOnly;
  document.body.classList.toggle('read-only', readOnly);
  if (readOnly && !LOOKING.has(state.tool)) setTool('select');
}
