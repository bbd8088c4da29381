// title.js: renaming the board from the top bar. A click on the title (or Enter on
// it) makes it into a field; Enter or leaving it sends one `rename_board`, Escape
// keeps the old title. The server's next `board` message shows the new one.

import { state } from '../sync/state.js';
import * as sync from '../sync/sync.js';
import { renameField } from './rename.js';

let el;
let editing = false;

export function initTitle(titleEl) {
  el = titleEl;
  el.tabIndex = 0;
  el.setAttribute('role', 'button');
  el.addEventListener('click', rename);
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      rename();
    }
  });
}

/** Whether the title is being typed (main.js leaves it alone meanwhile). */
export function isRenaming() {
  return editing;
}

function rename() {
  if (editing || !state.board) return;
  editing = true;
  const old = state.board.title || el.textContent;
  el.hidden = true;
  renameField({
    value: old,
    className: 'title-rename',
    testid: 'board-title-input',
    label: 'Board title',
    place: (input) => el.after(input),
    done: (title, input) => {
      editing = false;
      input.remove();
      el.hidden = false;
      if (!title) return;
      el.textContent = title;
      sync.call('rename_board', { title }).catch(() => {
        el.textContent = old;
      });
    },
  });
}
