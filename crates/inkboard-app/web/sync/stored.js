// stored.js: values the editor keeps in the browser's storage (the view of each
// page, the style memory, the panel's state, the theme), as JSON. Storage can be
// refused (a private mode, a full quota): then a value lives as long as the page,
// and reading gives the fallback.

/** The value kept under `key`, or `fallback` when there is none or it is unreadable. */
export function readStored(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** Keeps `value` under `key`; null forgets it. */
export function writeStored(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage refused: remembered for this page only
  }
}
