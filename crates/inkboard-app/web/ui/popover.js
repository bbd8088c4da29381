// popover.js: what the editor's small dialogs (export, share) share: making
// their elements, and closing them by Escape or a press outside.

/** An element with `props` (text, testid, properties or attributes), appended to `parent`. */
export function el(tag, props = {}, parent = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'testid') e.dataset.testid = v;
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  parent?.append(e);
  return e;
}

/**
 * Makes `dialog`, opened by `opener`, close by `close()` on Escape (focus goes
 * back to the opener) or on a press outside both. Answers the function that
 * takes this off again, for `close` to call.
 */
export function dismissable(dialog, opener, close) {
  const onOutside = (e) => {
    if (!dialog.contains(e.target) && !opener.contains(e.target)) close();
  };
  const onKey = (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopImmediatePropagation();
    close();
    opener.focus({ preventScroll: true });
  };
  opener.setAttribute('aria-expanded', 'true');
  // Escape closes it at once: a key pressed before the next task (input runs
  // ahead of timers on a busy page) is not lost.
  document.addEventListener('keydown', onKey, true);
  // From the next task: the press that opened it is not a press outside.
  const timer = setTimeout(() => document.addEventListener('pointerdown', onOutside, true));
  return () => {
    clearTimeout(timer);
    opener.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', onOutside, true);
    document.removeEventListener('keydown', onKey, true);
  };
}
