// title.js: renaming the board from the top bar. A click on the title (or Enter on
// it) turns it into a field; Enter or leaving it sends one `rename_board`, Escape
// keeps the old title. The server's next `board` message shows the new one.

import { state } from './state.js';
import * as sync from './sync.js';

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
  const input = document.createElement('input');
  input.className = 'title-rename';
  input.value = old;
  input.dataset.testid = 'board-title-input';
  input.setAttribute('aria-label', 'Board title');
  el.hidden = true;
  el.after(input);
  input.focus();
  input.select();
  let done = false;
  const finish = (keep) => {
    if (done) return;
    done = true;
    editing = false;
    const title = input.value.trim();
    input.remove();
    el.hidden = false;
    if (keep && title && title !== old) {
      el.textContent = title;
      sync.call('rename_board', { title }).catch(() => {
        el.textContent = old;
      });
    }
  };
  input.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Enter') finish(true);
    if (e.key === 'Escape') finish(false);
  });
  input.addEventListener('blur', () => finish(true));
}
