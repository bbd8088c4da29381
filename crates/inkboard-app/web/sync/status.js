// status.js: the top-right status: saved / saving / not saved / error / conflict (from the
// `board` message), the connection when it is lost, the last refused change, and a
// short note when an agent changed something (naming whose, on a team server).

import { state, on } from './state.js';
import { count as waiting } from './outbox.js';

let box;
let save;
let note;
let noteTimer = null;

export function initStatus(el) {
  box = el;
  save = document.createElement('span');
  save.className = 'save-status';
  save.dataset.testid = 'save-status';
  save.setAttribute('role', 'status');
  save.setAttribute('aria-live', 'polite');
  note = document.createElement('span');
  note.className = 'note';
  note.dataset.testid = 'status-note';
  note.setAttribute('aria-live', 'polite');
  box.append(note, save);
  on('board', render);
  on('connection', render);
  on('outbox', render);
  on('error', (message) => show(message, 'error', 6000));
  on('reconnected', () => show('Reconnected to inkboard', 'info', 4000));
  on('info', (message) => show(message, 'info', 3000));
  on('agent', (ids) => show(`${agentName()} changed ${ids.length} object${ids.length === 1 ? '' : 's'}`, 'agent', 3000));
  render();
}

/** Who made the agent's change: the names a team server sends ("Ann's agent"), else "An agent". */
function agentName() {
  return state.agentBy?.length ? state.agentBy.join(' and ') : 'An agent';
}

function show(text, kind, ms) {
  note.textContent = text;
  note.dataset.kind = kind;
  note.title = text;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => {
    note.textContent = '';
    note.title = '';
    delete note.dataset.kind;
  }, ms);
}

const WORDS = {
  saved: 'Saved', saving: 'Saving…', unsaved: 'Not saved', error: 'Not saved yet', conflict: 'Not saved: choose a version',
};

function render() {
  let kind = state.board?.save ?? 'saving';
  let text = WORDS[kind] ?? kind;
  let title = state.board?.path ? `${text}: ${state.board.path}` : text;
  if (kind === 'error' && state.board?.save_error) title = state.board.save_error;
  if (kind === 'conflict') title = 'The file changed on disk while you had unsaved changes: choose in the bar above the board.';
  if (kind === 'unsaved') title = 'This board has no file yet: it is kept in memory while inkboard runs, and in a recovery copy when inkboard stops.';
  if (state.connection === 'signed-out') {
    kind = 'offline';
    text = 'Signed out: open a new link';
    title = 'inkboard runs, but no longer knows this tab (its session ended): run `inkboard open` and use the link it prints.';
  } else if (state.connection !== 'online') {
    kind = 'offline';
    text = state.connection === 'connecting' ? 'Connecting…' : 'Offline, reconnecting…';
    title = 'inkboard does not answer (it was stopped?); this tab signs in again by itself when inkboard serves this board again. Changes made meanwhile are kept in this tab for 5 minutes and sent then.';
  }
  const n = waiting();
  if (n) {
    text = `${text} ${n} change${n === 1 ? '' : 's'} waiting`;
    kind = 'offline';
  }
  save.textContent = text;
  save.title = title;
  save.dataset.state = kind;
}
