// shortcuts.js: every shortcut of the editor, in one table. The keyboard handling
// (keyboard.js), the toolbar's and buttons' tooltips, the `?` overlay (help.js) and
// the browser tests all read it, so a key is written once. An entry names an action,
// says what it does, and lists its keys ("Ctrl" is Ctrl or Cmd); entries marked
// `gesture` are mouse moves, shown in the overlay only, and `native` ones are the
// browser's own events (copy, cut, paste), handled by clipboard.js.

import { RICH_SHORTCUTS } from './richkeys.js';

/** [section, [{action, label, keys, gesture?, native?}]]: the overlay shows them in this order. */
export const SECTIONS = [
  ['Tools', [
    { action: 'tool:select', label: 'Select', keys: ['V'] },
    { action: 'tool:hand', label: 'Hand: pan', keys: ['H'] },
    { action: 'tool:rect', label: 'Rectangle', keys: ['R'] },
    { action: 'tool:ellipse', label: 'Ellipse', keys: ['O'] },
    { action: 'tool:diamond', label: 'Diamond', keys: ['D'] },
    { action: 'tool:connector', label: 'Connector', keys: ['C', 'A', 'L'] },
    { action: 'tool:note', label: 'Sticky note', keys: ['N', 'S'] },
    { action: 'tool:text', label: 'Text', keys: ['T'] },
    { action: 'tool:frame', label: 'Frame', keys: ['F'] },
    { action: 'tool:pen', label: 'Pen', keys: ['P', 'X'] },
    { action: 'tool:eraser', label: 'Eraser', keys: ['E'] },
    { action: 'tool:image', label: 'Image', keys: ['I'] },
  ]],
  ['Edit', [
    { action: 'undo', label: 'Undo', keys: ['Ctrl+Z'] },
    { action: 'redo', label: 'Redo', keys: ['Ctrl+Shift+Z', 'Ctrl+Y'] },
    { action: 'copy', label: 'Copy', keys: ['Ctrl+C'], native: true },
    { action: 'cut', label: 'Cut', keys: ['Ctrl+X'], native: true },
    { action: 'paste', label: 'Paste at the pointer', keys: ['Ctrl+V'], native: true },
    { action: 'duplicate', label: 'Duplicate', keys: ['Ctrl+D'] },
    { action: 'alt-drag', label: 'Duplicate by dragging', keys: ['Alt+drag'], gesture: true },
    { action: 'delete', label: 'Delete', keys: ['Delete', 'Backspace'] },
    { action: 'select-all', label: 'Select all', keys: ['Ctrl+A'] },
    { action: 'deselect', label: 'Deselect, or back to Select', keys: ['Escape'] },
    { action: 'edit-text', label: 'Edit text', keys: ['Enter'] },
    { action: 'save', label: 'Save now', keys: ['Ctrl+S'] },
    { action: 'nudge', label: 'Nudge by 1 px (Shift: 10 px)', keys: ['Arrows', 'Shift+Arrows'], gesture: true },
  ]],
  ['Arrange', [
    { action: 'group', label: 'Group', keys: ['Ctrl+G'] },
    { action: 'ungroup', label: 'Ungroup', keys: ['Ctrl+Shift+G'] },
    { action: 'lock', label: 'Lock or unlock', keys: ['Ctrl+Shift+L'] },
    { action: 'order:front', label: 'Bring to front', keys: ['Ctrl+Shift+]'] },
    { action: 'order:forward', label: 'Bring forward', keys: ['Ctrl+]'] },
    { action: 'order:backward', label: 'Send backward', keys: ['Ctrl+['] },
    { action: 'order:back', label: 'Send to back', keys: ['Ctrl+Shift+['] },
    { action: 'align:left', label: 'Align left', keys: ['Alt+A'] },
    { action: 'align:center', label: 'Align centres horizontally', keys: ['Alt+H'] },
    { action: 'align:right', label: 'Align right', keys: ['Alt+D'] },
    { action: 'align:top', label: 'Align top', keys: ['Alt+W'] },
    { action: 'align:middle', label: 'Align middles vertically', keys: ['Alt+V'] },
    { action: 'align:bottom', label: 'Align bottom', keys: ['Alt+S'] },
    { action: 'distribute:horizontal', label: 'Distribute horizontally', keys: ['Alt+Shift+H'] },
    { action: 'distribute:vertical', label: 'Distribute vertically', keys: ['Alt+Shift+V'] },
  ]],
  ['View', [
    { action: 'zoom-in', label: 'Zoom in', keys: ['+', '=', 'Ctrl+=', 'Ctrl++'] },
    { action: 'zoom-out', label: 'Zoom out', keys: ['-', 'Ctrl+-'] },
    { action: 'zoom-reset', label: 'Zoom to 100%', keys: ['Ctrl+0', 'Shift+0'] },
    { action: 'zoom-fit', label: 'Fit to content', keys: ['Shift+1'] },
    { action: 'zoom-selection', label: 'Zoom to the selection', keys: ['Shift+2'] },
    { action: 'pan', label: 'Pan', keys: ['Wheel', 'Space+drag', 'Middle-drag'], gesture: true },
    { action: 'zoom-wheel', label: 'Zoom about the pointer', keys: ['Ctrl+wheel', 'Pinch'], gesture: true },
    { action: 'help', label: 'Keyboard shortcuts', keys: ['?'] },
  ]],
  ['While editing text', RICH_SHORTCUTS.map(([keys, what]) => ({
    action: `text:${what}`, label: what[0].toUpperCase() + what.slice(1), keys: keys.split(' / '), gesture: true,
  })).concat([
    { action: 'text:done', label: 'Finish editing', keys: ['Escape', 'Ctrl+Enter'], gesture: true },
  ])],
];

/** Every entry, in the overlay's order. */
export const SHORTCUTS = SECTIONS.flatMap(([, entries]) => entries);

const BY_ACTION = new Map(SHORTCUTS.map((s) => [s.action, s]));

/** The entry of an action (undefined for an unknown one). */
export function shortcut(action) {
  return BY_ACTION.get(action);
}

/** A tooltip: the label and its keys, "Zoom in (+, =, Ctrl+=)". */
export function hint(action, label = null) {
  const s = BY_ACTION.get(action);
  if (!s) return label ?? action;
  return `${label ?? s.label} (${s.keys.join(', ')})`;
}

/** A key spec parsed: {ctrl, shift, alt, key} with `key` lower case ("z", "+", "delete"). */
export function parseKey(spec) {
  const m = /^((?:(?:Ctrl|Shift|Alt)\+)*)(.+)$/.exec(spec);
  const mods = m[1];
  return {
    ctrl: mods.includes('Ctrl+'),
    shift: mods.includes('Shift+'),
    alt: mods.includes('Alt+'),
    key: m[2].toLowerCase(),
  };
}

/** The key a physical key code stands for when the layout or Alt changes `key` ("KeyA" → "a"). */
function codeKey(code) {
  if (/^Key[A-Z]$/.test(code)) return code.slice(3).toLowerCase();
  if (/^Digit[0-9]$/.test(code)) return code.slice(5);
  return { Equal: '=', Minus: '-', BracketLeft: '[', BracketRight: ']', Slash: '/' }[code] ?? null;
}

/** Whether a key event is the key `spec` ("Ctrl+Shift+Z", "D", "+"). */
function matches(spec, e) {
  const want = parseKey(spec);
  if (want.ctrl !== (e.ctrlKey || e.metaKey) || want.alt !== e.altKey) return false;
  const key = e.key.toLowerCase();
  const code = codeKey(e.code);
  // A letter or a digit is told apart by Shift; a symbol is whatever the layout types.
  const plain = /^[a-z0-9]$/.test(want.key);
  if (plain) return want.shift === e.shiftKey && (key === want.key || code === want.key);
  // Shift+] types "}": a symbol named with Shift is found by its physical key too.
  if (want.key.length === 1) return want.shift ? e.shiftKey && (key === want.key || code === want.key) : key === want.key;
  return want.shift === e.shiftKey && key === want.key;
}

/** The action a key event means, or null (gestures and native ones are never answered). */
export function actionOf(e) {
  for (const s of SHORTCUTS) {
    if (s.gesture || s.native) continue;
    if (s.keys.some((k) => matches(k, e))) return s.action;
  }
  return null;
}
