// richdom.js: the rich-text shortcuts of the formatted text editor (a contenteditable
// element, see textedit.js), acting on the DOM selection: Ctrl+B, Ctrl+I and
// Ctrl+Shift+X set bold, italic and strikethrough as the browser's own commands do,
// Ctrl+E wraps the selection in (or takes it out of) inline code, Ctrl+K makes it a
// link, Ctrl+Shift+8 and Ctrl+Shift+7 make the lines bullet or numbered lists, Tab
// and Shift+Tab indent and outdent a list item. Enter continues a list, and Enter on
// an empty item ends it, as the browser's editing does. What the element holds is
// made into Markdown by the server (`/api/rich`); the same keys on the Markdown
// source are richkeys.js's, for the chat view.

/** The innermost `tag` element around `node`, inside `root`. */
function around(node, tag, root) {
  for (let n = node; n && n !== root; n = n.parentNode) {
    if (n.nodeType === 1 && n.localName === tag) return n;
  }
  return null;
}

/** Puts `el`'s children in its place. */
function unwrap(el) {
  const parent = el.parentNode;
  while (el.firstChild) parent.insertBefore(el.firstChild, el);
  el.remove();
  parent.normalize();
}

/** Wraps the selection in inline code, or takes the code around it away. */
function toggleCode(root) {
  const sel = getSelection();
  if (!sel.rangeCount) return;
  const range = sel.getRangeAt(0);
  const code = around(range.commonAncestorContainer, 'code', root);
  if (code) {
    unwrap(code);
    return;
  }
  const el = document.createElement('code');
  if (range.collapsed) {
    // A zero-width space gives the caret a place inside; it is not kept.
    el.textContent = '\u200b';
    range.insertNode(el);
    sel.collapse(el.firstChild, 1);
    return;
  }
  el.textContent = range.toString();
  range.deleteContents();
  range.insertNode(el);
  sel.selectAllChildren(el);
}

function link() {
  const sel = getSelection();
  const url = window.prompt('Link address', 'https://');
  if (!url || !sel.rangeCount) return;
  if (sel.isCollapsed) document.execCommand('insertText', false, url);
  if (sel.isCollapsed) {
    const r = sel.getRangeAt(0);
    r.setStart(r.startContainer, Math.max(0, r.startOffset - url.length));
    sel.removeAllRanges();
    sel.addRange(r);
  }
  document.execCommand('createLink', false, url);
}

/**
 * Handles a rich-text shortcut in the editor `root`; true when it did (the caller
 * then lets the key do nothing else).
 */
export function richDomKey(e, root) {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  const run = (command) => {
    document.execCommand(command);
    return true;
  };
  if (mod && !e.altKey) {
    if (!e.shiftKey && key === 'b') return run('bold');
    if (!e.shiftKey && key === 'i') return run('italic');
    if (e.shiftKey && key === 'x') return run('strikeThrough');
    if (!e.shiftKey && key === 'u') return true; // no underline in the subset
    if (!e.shiftKey && key === 'e') {
      toggleCode(root);
      root.dispatchEvent(new Event('input'));
      return true;
    }
    if (!e.shiftKey && key === 'k') {
      link();
      root.dispatchEvent(new Event('input'));
      return true;
    }
    if (e.shiftKey && e.code === 'Digit8') return run('insertUnorderedList');
    if (e.shiftKey && e.code === 'Digit7') return run('insertOrderedList');
  }
  if (e.key === 'Tab' && !mod && !e.altKey) {
    const sel = getSelection();
    if (!sel.rangeCount || !around(sel.anchorNode, 'li', root)) return false;
    return run(e.shiftKey ? 'outdent' : 'indent');
  }
  return false;
}

/** Pasted text comes in as plain text: formatting is set with the keys. */
export function pastePlain(root) {
  root.addEventListener('paste', (e) => {
    e.preventDefault();
    const text = e.clipboardData?.getData('text/plain') ?? '';
    document.execCommand('insertText', false, text);
  });
}
