// shortcuts.js: every shortcut of the editor, in one table. The keyboard handling
// (keyboard.js), the toolbar's and buttons' tooltips, the `?` overlay (help.js) and
// the browser tests all read it, so a key is written once. An entry names an action,
// says what it does, and lists its keys ("Ctrl" is Ctrl or Cmd); entries marked
// `gesture` are mouse moves, shown in the overlay only, and `native` ones are the
// browser's own events (copy, cut, paste), handled by clipboard.js.

import { RICH_SHORTCUTS } from '../tools/richkeys.js';

/** [section, [{action, label, keys, gesture?, native?}]]: the overlay shows them in this order. */
export const SECTIONS = [
  // The digits are Excalidraw's: 1 select, 2 rectangle, 3 diamond, 4 ellipse,
  // 5 arrow, 6 line, 7 draw, 8 text, 9 image, 0 eraser.
  ['Tools', [
    { action: 'tool:select', label: 'Select', keys: ['V', '1'] },
    { action: 'tool:hand', label: 'Hand: pan', keys: ['H'] },
    { action: 'tool:rect', label: 'Rectangle', keys: ['R', '2'] },
    { action: 'tool:diamond', label: 'Diamond', keys: ['D', '3'] },
    { action: 'tool:ellipse', label: 'Ellipse', keys: ['O', '4'] },
    { action: 'tool:connector', label: 'Arrow (connector)', keys: ['A', 'C', '5'] },
    { action: 'tool:line', label: 'Line', keys: ['L', '6'] },
    { action: 'tool:pen', label: 'Draw (pen)', keys: ['P', 'X', '7'] },
    { action: 'tool:text', label: 'Text', keys: ['T', '8'] },
    { action: 'tool:image', label: 'Image', keys: ['I', '9'] },
    { action: 'tool:eraser', label: 'Eraser', keys: ['E', '0'] },
    { action: 'tool:note', label: 'Sticky note', keys: ['N', 'S'] },
    { action: 'tool:frame', label: 'Frame', keys: ['F'] },
    { action: 'tool:laser', label: 'Laser pointer', keys: ['K'] },
    { action: 'tool-lock', label: 'Keep the tool after drawing (tool lock)', keys: ['Q'] },
    { action: 'multi-point', label: 'Arrow or line by points: click each, then', keys: ['Enter', 'Escape', 'Double-click'], gesture: true },
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
    { action: 'find', label: 'Find text on the board', keys: ['Ctrl+F'] },
    { action: 'copy-style', label: 'Copy style', keys: ['Ctrl+Alt+C'] },
    { action: 'link', label: 'Link the selection to an address', keys: ['Ctrl+K'] },
    { action: 'open-link', label: 'Open a shape\'s link', keys: ['Ctrl+click'], gesture: true },
    { action: 'paste-style', label: 'Paste style', keys: ['Ctrl+Alt+V'] },
    { action: 'nudge', label: 'Nudge by 1 px (Shift: 10 px)', keys: ['Arrows', 'Shift+Arrows'], gesture: true },
  ]],
  ['Arrange', [
    { action: 'group', label: 'Group', keys: ['Ctrl+G'] },
    { action: 'ungroup', label: 'Ungroup', keys: ['Ctrl+Shift+G'] },
    { action: 'lock', label: 'Lock or unlock', keys: ['Ctrl+Shift+L'] },
    { action: 'flip:horizontal', label: 'Flip horizontally', keys: ['Shift+H'] },
    { action: 'flip:vertical', label: 'Flip vertically', keys: ['Shift+V'] },
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
    { action: 'export', label: 'Export…', keys: ['Ctrl+Shift+E'] },
    { action: 'help', label: 'Keyboard shortcuts', keys: ['?'] },
  ]],
  ['Present', [
    { action: 'present', label: 'Present the frames as slides', keys: ['Alt+P'] },
    { action: 'present-next', label: 'Next slide', keys: ['→', '↓', 'Space', 'Page Down'], gesture: true },
    { action: 'present-back', label: 'Previous slide', keys: ['←', '↑', 'Page Up'], gesture: true },
    { action: 'present-end', label: 'End the presentation', keys: ['Escape'], gesture: true },
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
