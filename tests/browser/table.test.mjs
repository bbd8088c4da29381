// A table grows with its rows (issue 32, item 2): a real double-click on an
// auto-sized table opens its text as written (the name, then a row a line,
// cells split by '|'), plain, not formatted; a row typed with the keyboard
// (End of the text, Enter, the cells) and Escape commit it, and the server's
// table is taller by about a row, as wide or wider, with its top left where it
// was and the new row in its text. A second row typed and then Escape grows it
// again; Ctrl+Z takes the row back and the table shrinks to what it was.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, clientOf, watch } from './lib.mjs';

const TEXT = 'Customer\nint | id | PK\nstring | email | UK';

describe('a table in the editor', { timeout: 120000 }, () => {
  let s;
  let page;
  let mcp;
  let id;
  const { objects, waitFor } = watch(() => page);

  /** A real double-click on the table's rows; answers the text editor once open. */
  const edit = async (t) => {
    const c = await clientOf(page, t.x + t.w / 2, t.y + t.h - 12);
    await page.mouse.dblclick(c.x, c.y);
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    return editor;
  };

  /** Types `row` as a new last line with real key presses, then Escape. */
  const addRow = async (row) => {
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(row);
    await page.keyboard.press('Escape');
  };

  before(async () => {
    s = await session({ objects: [], mcp: true });
    ({ page, mcp } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -60, y: -60, zoom: 1 }));
    // Added as an agent adds one: auto-sized, fitted to its rows by the server.
    ({ id } = await mcp.call('add_shape', { geom: 'table', text: TEXT, x: 0, y: 0 }));
    await waitFor((o) => o[id], 'the table in the page');
  });

  after(() => s?.close());

  it('opens its text as written, plain', async () => {
    const t = (await objects())[id];
    const editor = await edit(t);
    assert.equal(await editor.evaluate((e) => e.tagName), 'TEXTAREA', 'a plain editor, not a formatted one');
    assert.equal(await editor.inputValue(), TEXT);
    await page.keyboard.press('Escape');
    await until(async () => (await page.getByTestId('text-editor').count()) === 0, { what: 'the editor closed' });
  });

  it('a row typed in grows the table downwards; another grows it again; Ctrl+Z shrinks it back', async () => {
    // The fitted size, before any row is added.
    const first = await waitFor((o) => o[id]?.text === TEXT && o[id], 'the table');
    await edit(first);
    await addRow('string | name');
    const grown = await waitFor((o) => o[id].text.endsWith('string | name') && o[id], 'the row committed');
    assert.equal(grown.text, `${TEXT}\nstring | name`);
    const row = grown.h - first.h;
    assert.ok(row > 16 && row < 40, `about a row taller: ${first.h} -> ${grown.h}`);
    assert.ok(grown.w >= first.w, `as wide or wider: ${first.w} -> ${grown.w}`);
    assert.deepEqual([grown.x, grown.y], [first.x, first.y], 'its top left stays');

    await edit(grown);
    await addRow('date | created_at | | first order');
    const again = await waitFor((o) => o[id].text.endsWith('first order') && o[id], 'the second row');
    assert.ok(Math.abs(again.h - grown.h - row) < 1, `another row's height: ${grown.h} -> ${again.h}`);
    assert.ok(again.w > grown.w, `wider for the comment column: ${grown.w} -> ${again.w}`);

    await page.keyboard.press('Control+z');
    const back = await waitFor((o) => o[id].text === grown.text && o[id], 'the row undone');
    assert.deepEqual([back.w, back.h], [grown.w, grown.h], 'back to its size');
  });
});
