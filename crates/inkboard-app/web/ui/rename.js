// rename.js: the one-line text field that renames something in place (a page's
// tab, the board's title): Enter or leaving the field keeps the text, Escape
// keeps the old name; keys typed in it never reach the editor's shortcuts.

/**
 * Opens a field holding `value`, put in the page by `place(input)`. `done` is
 * called once, with the new name, or with null when it is cancelled, empty or
 * unchanged; the caller takes the field away.
 */
export function renameField({ value, className, testid, label, place, done }) {
  const input = document.createElement('input');
  input.className = className;
  input.value = value;
  input.dataset.testid = testid;
  input.setAttribute('aria-label', label);
  place(input);
  input.focus();
  input.select();
  let finished = false;
  const finish = (keep) => {
    if (finished) return;
    finished = true;
    const name = input.value.trim();
    done(keep && name && name !== value ? name : null, input);
  };
  input.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Enter') finish(true);
    if (e.key === 'Escape') finish(false);
  });
  input.addEventListener('blur', () => finish(true));
}
