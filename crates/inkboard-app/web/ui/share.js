// share.js: the Share button and dialog of the editor on a team server, for the board's
// owners (team.js shows it when the `board` message's role is `owner`). The dialog lists
// the board's people and roles (`GET BASE/shares`), changes a role or adds a person by name
// (`POST BASE/share`, `name` and `role`) and takes a role away (`POST BASE/unshare`): the
// server's routes that the people page's forms post, asked for JSON. The server checks the
// role and writes each change to the audit log; its refusal is shown as it words it.
// Names come from people: always set as text, never as markup.

import { on } from '../sync/state.js';
import { base } from '../sync/sync.js';
import { el, dismissable } from './popover.js';

const ROLES = ['viewer', 'editor', 'owner'];

let opener = null;
let dialog = null;
/** Takes the dialog's Escape and outside-press closing off again. */
let undismiss = null;
let list = null;
let error = null;

export function initShare(after) {
  const slot = document.createElement('span');
  slot.style.position = 'relative';
  opener = el('button', {
    type: 'button', className: 'export-button', testid: 'share', text: 'Share',
    title: 'Share this board: its people and their roles', 'aria-haspopup': 'dialog', 'aria-expanded': 'false',
  }, slot);
  opener.addEventListener('click', () => (dialog ? closeShare() : openShare()));
  offer(false);
  after.after(slot);
  on('board', (msg) => offer(msg.role === 'owner'));
  on('boardswitch', closeShare);
}

/** Shows the button to an owner only (`hidden` would lose to the button's own display). */
function offer(owner) {
  opener.style.display = owner ? '' : 'none';
  if (!owner) closeShare();
}


function roleSelect(value, testid) {
  const s = el('select', { testid, 'aria-label': 'Role' });
  for (const r of ROLES) el('option', { value: r, text: r, selected: r === value }, s);
  return s;
}

function openShare() {
  closeShare();
  dialog = el('div', {
    className: 'export-dialog', role: 'dialog', 'aria-label': 'Share', testid: 'share-dialog',
  }, opener.parentElement);
  dialog.style.width = '300px';
  el('h2', { text: 'Share this board' }, dialog);
  list = el('ul', { testid: 'share-people' }, dialog);
  list.style.cssText = 'list-style:none;margin:0 0 8px;padding:0;';
  const form = el('form', { testid: 'share-form' }, dialog);
  form.style.cssText = 'display:flex;gap:4px;align-items:center;';
  const name = el('input', {
    name: 'name', required: true, placeholder: 'Person\'s name', testid: 'share-name', 'aria-label': 'Person\'s name',
  }, form);
  name.style.cssText = 'flex:1;min-width:0;';
  const role = roleSelect('editor', 'share-new-role');
  form.append(role);
  el('button', { type: 'submit', text: 'Add', testid: 'share-add' }, form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (await change('share', { name: name.value.trim(), role: role.value })) name.value = '';
  });
  error = el('p', { testid: 'share-error', role: 'alert' }, dialog);
  error.style.cssText = 'color:var(--danger, #b91c1c);margin:6px 0 0;';
  undismiss = dismissable(dialog, opener, closeShare);
  name.focus({ preventScroll: true });
  load();
}

export function closeShare() {
  if (!dialog) return;
  dialog.remove();
  dialog = null;
  undismiss?.();
  undismiss = null;
}



/** Asks a sharing route for JSON: the board's people, or throws the server's words. */
async function ask(route, form = null) {
  const init = { headers: { Accept: 'application/json' } };
  if (form) {
    init.method = 'POST';
    init.body = new URLSearchParams(form);
  }
  const res = await fetch(`${base()}${route}`, init);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `the server answered ${res.status}`);
  return body;
}

async function load() {
  try {
    render(await ask('shares'));
  } catch (err) {
    if (error) error.textContent = err.message;
  }
}

/** Posts a change of roles; answers whether it was made. */
async function change(route, form) {
  if (!dialog) return false;
  error.textContent = '';
  try {
    render(await ask(route, form));
    return true;
  } catch (err) {
    if (error) error.textContent = err.message;
    return false;
  }
}

function render({ role, people }) {
  if (!dialog) return;
  // No longer an owner (they gave their role away): nothing more to share here.
  if (role !== 'owner') {
    offer(false);
    return;
  }
  list.replaceChildren();
  for (const p of people) {
    const li = el('li', { testid: `share-person-${p.name}` }, list);
    li.style.cssText = 'display:flex;gap:6px;align-items:center;margin:4px 0;';
    const who = el('span', { text: p.name, className: 'share-name' }, li);
    who.style.flex = '1';
    const pick = roleSelect(p.role, `share-role-${p.name}`);
    pick.addEventListener('change', () => change('share', { name: p.name, role: pick.value }).then((ok) => {
      if (!ok) pick.value = p.role;
    }));
    li.append(pick);
    const remove = el('button', {
      type: 'button', text: 'Remove', testid: `share-remove-${p.name}`, title: `Take ${p.name}'s role away`,
    }, li);
    remove.addEventListener('click', () => change('unshare', { name: p.name }));
  }
}
