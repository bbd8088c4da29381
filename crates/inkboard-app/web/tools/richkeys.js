// richkeys.js: the rich-text shortcuts of the text editor. A shape's text is written in
// the Markdown subset the renderer draws (**bold**, *italic*, ~~strike~~, `code`,
// [text](url), "- " and "1. " list lines), so the shortcuts edit that source: they
// wrap the selection in marks (or unwrap it), and make lines into list items. Edits go
// through the textarea's own undo (insertText), so Ctrl+Z in the textarea undoes them.
// Links in the drawing open only with Ctrl (or Cmd) held, so a click still selects.

/** The shortcuts, for the help and the tests: [keys, what]. */
export const RICH_SHORTCUTS = [
  ['Ctrl+B', 'bold'],
  ['Ctrl+I', 'italic'],
  ['Ctrl+Shift+X', 'strikethrough'],
  ['Ctrl+E', 'inline code'],
  ['Ctrl+K', 'link'],
  ['Ctrl+Shift+8', 'bulleted list'],
  ['Ctrl+Shift+7', 'numbered list'],
  ['Tab / Shift+Tab', 'indent or outdent a list item'],
];

const WRAPS = { b: '**', i: '*', x: '~~', e: '`' };

/** Replaces the textarea's [start, end) with `text`, as typing would (undoable). */
function replace(area, start, end, text) {
  area.setSelectionRange(start, end);
  const done = text === ''
    ? start === end || document.execCommand('delete')
    : document.execCommand('insertText', false, text);
  if (!done) {
    area.setRangeText(text, start, end, 'end');
    area.dispatchEvent(new Event('input'));
  }
}

/** Wraps the selection in `mark`, or unwraps it when it is wrapped already. */
function toggleMark(area, mark) {
  const { selectionStart: s, selectionEnd: e, value } = area;
  const n = mark.length;
  const inner = value.slice(s, e);
  if (value.slice(s - n, s) === mark && value.slice(e, e + n) === mark) {
    replace(area, s - n, e + n, inner);
    area.setSelectionRange(s - n, e - n);
  } else if (inner.length >= 2 * n && inner.startsWith(mark) && inner.endsWith(mark)) {
    replace(area, s, e, inner.slice(n, -n));
    area.setSelectionRange(s, e - 2 * n);
  } else {
    replace(area, s, e, mark + inner + mark);
    area.setSelectionRange(s + n, e + n);
  }
}

function link(area) {
  const { selectionStart: s, selectionEnd: e, value } = area;
  const label = value.slice(s, e) || 'link';
  const url = 'https://';
  replace(area, s, e, `[${label}](${url})`);
  const at = s + label.length + 3;
  area.setSelectionRange(at, at + url.length);
}

const ITEM = /^( *)([-*+]|\d{1,9}[.)]) +/;

/** The start and end of the lines the selection touches. */
function lineSpan(area) {
  const { selectionStart: s, selectionEnd: e, value } = area;
  const start = value.lastIndexOf('\n', s - 1) + 1;
  let end = value.indexOf('\n', e > s && value[e - 1] === '\n' ? e - 1 : e);
  if (end < 0) end = value.length;
  return [start, end];
}

/** Makes the selected lines bullet (or numbered) items, or plain lines if they are. */
function toggleList(area, numbered) {
  const [start, end] = lineSpan(area);
  const lines = area.value.slice(start, end).split('\n');
  const kind = (l) => {
    const m = ITEM.exec(l);
    return m && (/\d/.test(m[2]) ? 'n' : 'b');
  };
  const want = numbered ? 'n' : 'b';
  const all = lines.every((l) => !l.trim() || kind(l) === want);
  let n = 0;
  const out = lines.map((l) => {
    if (!l.trim()) return l;
    const m = ITEM.exec(l);
    const indent = m ? m[1] : '';
    const body = m ? l.slice(m[0].length) : l;
    if (all) return indent + body;
    n += 1;
    return `${indent}${numbered ? `${n}.` : '-'} ${body}`;
  });
  replace(area, start, end, out.join('\n'));
  area.setSelectionRange(start, start + out.join('\n').length);
}

/** Indents (or outdents) the selected list lines by one level. */
function indent(area, out) {
  const [start, end] = lineSpan(area);
  const lines = area.value.slice(start, end).split('\n');
  if (!lines.every((l) => !l.trim() || ITEM.test(l))) return false;
  const moved = lines.map((l) => {
    if (!l.trim()) return l;
    return out ? l.replace(/^ {1,2}/, '') : `  ${l}`;
  });
  replace(area, start, end, moved.join('\n'));
  area.setSelectionRange(start, start + moved.join('\n').length);
  return true;
}

/** Enter in a list item starts the next item; Enter on an empty item ends the list. */
function continueList(area) {
  const { selectionStart: s, selectionEnd: e, value } = area;
  if (s !== e) return false;
  const start = value.lastIndexOf('\n', s - 1) + 1;
  const line = value.slice(start, s);
  const m = /^( *)([-*+]|(\d{1,9})([.)]))( +)/.exec(line);
  if (!m) return false;
  // Enter on an empty item ("- " alone) ends the list: the marker goes.
  if (!line.slice(m[0].length).trim()) {
    if (value.slice(s).split('\n')[0].trim()) return false;
    replace(area, start, s, '');
    return true;
  }
  const next = m[3] ? `${Number(m[3]) + 1}${m[4]}` : m[2];
  replace(area, s, e, `\n${m[1]}${next} `);
  return true;
}

/**
 * Handles a rich-text shortcut on the textarea; true when it did (the caller then
 * lets the key do nothing else).
 */
export function richKey(e, area) {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (mod && !e.altKey) {
    if (!e.shiftKey && (key === 'b' || key === 'i' || key === 'e')) {
      toggleMark(area, WRAPS[key]);
      return true;
    }
    if (e.shiftKey && key === 'x') {
      toggleMark(area, WRAPS.x);
      return true;
    }
    if (!e.shiftKey && key === 'k') {
      link(area);
      return true;
    }
    if (e.shiftKey && (e.code === 'Digit8' || e.code === 'Digit7')) {
      toggleList(area, e.code === 'Digit7');
      return true;
    }
  }
  if (e.key === 'Tab' && !mod && !e.altKey) return indent(area, e.shiftKey);
  if (e.key === 'Enter' && !mod && !e.shiftKey && !e.altKey) return continueList(area);
  return false;
}

/** Links in the drawing under `el` open (in a new tab) only on Ctrl or Cmd+click. */
export function guardLinks(el) {
  el.addEventListener('click', (e) => {
    const a = e.target.closest?.('a');
    if (a && !(e.ctrlKey || e.metaKey)) e.preventDefault();
  }, true);
}
