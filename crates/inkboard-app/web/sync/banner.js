// banner.js: the bar above the canvas when the board's file needs the person:
// another version waiting for a choice (the file changed on disk while there were
// unsaved changes, or unsaved changes of an earlier session were found), with
// "Keep mine", "Take theirs" and "Open both"; or a save that keeps failing, with
// what is wrong and what to do, in words, and "Try again"; or a board imported
// from draw.io or Excalidraw, which is saved only once the person says where,
// with what the import could not keep. From the `offer`, `save_error` and
// `imported` of the `board` message (docs/live-protocol.md).

import { state, on, emit } from './state.js';
import * as sync from './sync.js';

let bar;
let text;
let buttons;

const CHOICES = {
  changed: {
    say: (o, path) => `${name(path)} was changed by another program while you had unsaved changes. `
      + `Your version is on screen (and kept in ${o.copy}); the file was not touched.`,
    mine: ['Keep mine', 'Write your version to the file, replacing the other one'],
    theirs: ['Take theirs', 'Load the file\'s version (Ctrl+Z brings yours back)'],
    both: ['Open both', 'Load the file\'s version here, and open yours as a new board beside it'],
  },
  recovered: {
    say: (o, path) => `Unsaved changes to ${name(path)} from an earlier session were kept (${o.saved}). `
      + 'The file is on screen as it is on disk.',
    mine: ['Restore them', 'Put the kept changes on the board and save them to the file (Ctrl+Z undoes)'],
    theirs: ['Discard them', 'Keep the file as it is and delete the kept copy'],
    both: ['Open both', 'Open the kept changes as a new board beside the file'],
  },
};

function name(path) {
  return path ? path.split(/[\\/]/).pop() : 'This board';
}

export function initBanner(el) {
  bar = el;
  text = document.createElement('span');
  text.className = 'banner-text';
  text.dataset.testid = 'banner-text';
  buttons = document.createElement('span');
  buttons.className = 'banner-buttons';
  bar.setAttribute('role', 'alert');
  bar.append(text, buttons);
  on('board', render);
  render();
}

function button(testid, [label, title], onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'banner-button';
  b.dataset.testid = testid;
  b.textContent = label;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

function render() {
  const board = state.board;
  const offer = board?.offer;
  buttons.replaceChildren();
  text.title = '';
  if (offer && CHOICES[offer.kind]) {
    const c = CHOICES[offer.kind];
    bar.dataset.kind = offer.kind;
    text.textContent = c.say(offer, board.path);
    for (const choice of ['mine', 'theirs', 'both']) {
      buttons.append(button(`choose-${choice}`, c[choice], () => choose(choice)));
    }
    bar.hidden = false;
  } else if (board?.save === 'error' && board.save_error) {
    bar.dataset.kind = 'error';
    text.textContent = board.save_error;
    buttons.append(button('save-retry', ['Try again', 'Try to save now'], () => sync.save()));
    bar.hidden = false;
  } else if (board?.imported && !board.path) {
    const imp = board.imported;
    bar.dataset.kind = 'imported';
    text.textContent = importWords(imp);
    text.title = imp.lost.join('\n');
    const target = name(imp.save_to);
    buttons.append(button('keep-import', [`Save as ${target}`, `Save this board as ${imp.save_to}, and keep saving it there`], keepImport));
    bar.hidden = false;
  } else {
    bar.hidden = true;
    delete bar.dataset.kind;
  }
}

/** What the bar says of an imported board: where from, what was not kept, that it is not saved. */
function importWords(imp) {
  let words = `Imported from ${name(imp.source)} (${imp.format}).`;
  if (imp.lost.length) {
    const shown = imp.lost.slice(0, 2).join('; ');
    const more = imp.lost.length > 2 ? `; and ${imp.lost.length - 2} more (hover to see)` : '';
    words += ` Not kept: ${shown}${more}.`;
  }
  return `${words} Your changes are not saved to a file yet.`;
}

async function keepImport() {
  for (const b of buttons.querySelectorAll('button')) b.disabled = true;
  try {
    await sync.keepImport();
  } catch (err) {
    emit('error', err.message);
    for (const b of buttons.querySelectorAll('button')) b.disabled = false;
  }
}

async function choose(choice) {
  for (const b of buttons.querySelectorAll('button')) b.disabled = true;
  try {
    const result = await sync.resolve(choice);
    // "Open both": the other version is a board of its own, in a new tab.
    if (result?.opened != null) window.open(`/#board=${result.opened}&page=1`, '_blank');
  } catch (err) {
    emit('error', err.message);
    for (const b of buttons.querySelectorAll('button')) b.disabled = false;
  }
}
