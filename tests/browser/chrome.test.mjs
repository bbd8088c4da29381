// Around the drawing: panning and zooming (wheel, Ctrl+wheel, Space+drag, the hand
// tool, the zoom buttons, fit), page tabs (rename, delete), the export dialog, images
// by drop and paste, the save status and the agent highlight; and text people or
// agents type is shown as text, never read as markup.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import {
  session, until, clientOf, objectsOf, newObject, savedObjects, BIN,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

describe('around the drawing', { timeout: 120000 }, () => {
  let s;
  let page;

  const view = () => page.evaluate(() => window.inkboard.view());
  const ids = async () => new Set(Object.keys(await objectsOf(page)));
  /** The canvas's centre on screen. */
  const middle = async () => {
    const b = await page.getByTestId('canvas').boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  /** Waits until the view differs from `v`; answers the new one. */
  const changed = (v, what) => until(async () => {
    const now = await view();
    return (now.x !== v.x || now.y !== v.y || now.zoom !== v.zoom) && now;
  }, { what });

  before(async () => {
    s = await session({
      mcp: true,
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 160, h: 80, text: 'One' },
        { id: 's2', type: 'shape', x: 400, y: 300, w: 160, h: 80, text: 'Two' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('the wheel pans; Ctrl+wheel zooms about the pointer', async () => {
    const m = await middle();
    await page.mouse.move(m.x, m.y);
    let v = await view();
    await page.mouse.wheel(30, 100);
    let w = await changed(v, 'the wheel pan');
    near(w.x - v.x, 30 / v.zoom, 0.5, 'x panned');
    near(w.y - v.y, 100 / v.zoom, 0.5, 'y panned');
    assert.equal(w.zoom, v.zoom);

    v = w;
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    w = await changed(v, 'the Ctrl+wheel zoom');
    assert.ok(w.zoom > v.zoom, `zoomed in: ${v.zoom} → ${w.zoom}`);
    // The board point under the pointer stays under it.
    const box = await page.getByTestId('canvas').boundingBox();
    const at = (u) => ({ x: u.x + (m.x - box.x) / u.zoom, y: u.y + (m.y - box.y) / u.zoom });
    near(at(w).x, at(v).x, 0.5, 'board x under the pointer');
    near(at(w).y, at(v).y, 0.5, 'board y under the pointer');
  });

  it('Space+drag pans, even right after a tool was picked with the mouse; the hand tool pans', async () => {
    await page.getByTestId('tool-rect').click();
    const before = await ids();
    const m = await middle();
    let v = await view();
    await page.keyboard.down('Space');
    await page.mouse.move(m.x, m.y);
    await page.mouse.down();
    await page.mouse.move(m.x + 120, m.y + 60, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Space');
    const w = await changed(v, 'the Space+drag pan');
    near(v.x - w.x, 120 / v.zoom, 1, 'panned x');
    near(v.y - w.y, 60 / v.zoom, 1, 'panned y');
    assert.deepEqual(await ids(), before, 'nothing drawn');
    assert.equal(await page.getByTestId('tool-rect').getAttribute('aria-pressed'), 'true');

    await page.getByTestId('tool-hand').click();
    v = w;
    await page.mouse.move(m.x, m.y);
    await page.mouse.down();
    await page.mouse.move(m.x - 50, m.y - 40, { steps: 4 });
    await page.mouse.up();
    const h = await changed(v, 'the hand tool pan');
    near(h.x - v.x, 50 / v.zoom, 1, 'hand x');
    assert.deepEqual(await ids(), before, 'nothing drawn');
    await page.keyboard.press('Escape');
  });

  it('the zoom buttons zoom, and Fit shows every object', async () => {
    const v = await view();
    await page.getByTestId('zoom-in').click();
    const w = await changed(v, 'zoom in');
    near(w.zoom, v.zoom * 1.25, 0.001, 'zoom');
    assert.equal(await page.getByTestId('zoom-reset').textContent(), `${Math.round(w.zoom * 100)}%`);
    const m = await middle();
    await page.mouse.move(m.x, m.y);
    await page.mouse.wheel(2000, 2000); // far away
    await changed(w, 'panned away');
    await page.getByTestId('zoom-fit').click();
    await until(async () => {
      const canvas = await page.getByTestId('canvas').boundingBox();
      for (const id of ['s1', 's2']) {
        const b = await page.locator(`g#${id}`).boundingBox();
        if (!b || b.x < canvas.x || b.y < canvas.y || b.x + b.width > canvas.x + canvas.width
          || b.y + b.height > canvas.y + canvas.height) return false;
      }
      return true;
    }, { what: 'both shapes in view after Fit' });
  });

  it('a page is renamed in its tab (the name stays text) and deleted', async () => {
    const name = '<b>Plan</b> & "more"';
    await page.getByTestId('page-tab-1').dblclick();
    const input = page.getByTestId('page-rename-input');
    await input.fill(name);
    await input.press('Enter');
    await until(async () => (await page.getByTestId('page-tab-1').textContent()) === name, { what: 'the renamed tab' });
    assert.equal(await page.locator('[data-testid="page-tabs"] b').count(), 0);
    await until(async () => (await s.mcp.call('read_board', {})).page.name === name, { what: 'the name in the board' });

    await page.getByTestId('add-page').click();
    await until(async () => (await page.evaluate(() => window.inkboard.page())) === 2, { what: 'page 2 shown' });
    page.once('dialog', (d) => d.accept());
    await page.getByTestId('page-delete-2').click();
    await until(async () => (await page.getByTestId('page-tab-2').count()) === 0, { what: 'page 2 gone' });
    await until(async () => (await page.evaluate(() => window.inkboard.page())) === 1, { what: 'page 1 shown' });
  });

  it('the export dialog downloads the page as PNG, SVG and PDF', async () => {
    const magic = { png: '\x89PNG', svg: '<svg', pdf: '%PDF' };
    for (const [format, start] of Object.entries(magic)) {
      await page.getByTestId('export').click();
      await page.getByTestId('export-dialog').waitFor();
      await page.getByTestId(`export-format-${format}`).click();
      const link = page.getByTestId('export-download');
      assert.ok(await link.isVisible(), `${format}: the dialog's Download`);
      // A real click and a real download: the page fetches it with its key.
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      assert.match(download.suggestedFilename(), new RegExp(`-page1\\.${format}$`));
      const body = readFileSync(await download.path()).toString('latin1');
      assert.ok(body.slice(0, 200).includes(start), `${format} starts ${JSON.stringify(body.slice(0, 40))}`);
      if (format === 'svg') assert.match(body, /One/);
      if (format !== 'pdf') {
        // The download carries the board: `inkboard import` gives it back.
        const back = path.join(s.app.dir, `back-${format}.inkboard`);
        execFileSync(BIN, ['import', await download.path(), '-o', back]);
        const texts = JSON.parse(readFileSync(back, 'utf8')).pages[0].objects.map((o) => o.text);
        assert.ok(texts.includes('One'), `${format} carries the board: ${texts}`);
      }
      // The plain link without the key (what another port's page could make the
      // browser send, cookie included) gets no board.
      await page.getByTestId('export').click();
      const href = await page.getByTestId('export-download').getAttribute('href');
      const bare = await page.request.get(new URL(href, s.app.origin).href);
      assert.equal(bare.status(), 401, `${format} without the key`);
      await page.keyboard.press('Escape');
      await page.getByTestId('export-dialog').waitFor({ state: 'detached' });
    }
  });

  it('the export dialog\'s scale and dark reach the picture; Escape and a click outside close it', async () => {
    const png = async () => {
      const link = page.getByTestId('export-download');
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      return PNG.sync.read(readFileSync(await download.path()));
    };
    await page.getByTestId('export').click();
    await page.getByTestId('export-format-png').click();
    await page.getByTestId('export-scale-1').click();
    const one = await png();
    await page.getByTestId('export').click();
    await page.getByTestId('export-scale-3').click();
    assert.equal(await page.getByTestId('export-scale-3').getAttribute('aria-pressed'), 'true');
    const three = await png();
    assert.ok(Math.abs(three.width - 3 * one.width) <= 3, `3× is three times as wide: ${three.width} and ${one.width}`);
    await page.getByTestId('export').click();
    await page.getByTestId('export-scale-1').click();
    await page.getByTestId('export-dark').check();
    const dark = await png();
    // The page's corner is its background: white in light, the dark grey in dark.
    assert.deepEqual([...one.data.slice(0, 3)], [255, 255, 255]);
    assert.ok([...dark.data.slice(0, 3)].every((v) => v < 40), `dark background: ${[...dark.data.slice(0, 3)]}`);
    // Only the selection, and a transparent background, go in the address, as the
    // export tool names them, and the route draws them.
    await page.getByTestId('export').click();
    assert.equal(await page.getByTestId('export-selection').isDisabled(), true, 'nothing selected: no selection to export');
    await page.getByTestId('export-dark').uncheck();
    await page.getByTestId('export-transparent').check();
    assert.match(await page.getByTestId('export-download').getAttribute('href'), /background=transparent/);
    const clear = await png();
    assert.equal(clear.data[3], 0, 'a transparent picture\'s corner is clear');
    assert.equal(clear.width, one.width, 'the whole page');
    await page.locator('g#s1').click();
    await until(async () => (await page.evaluate(() => [...window.inkboard.selection()])).join() === 's1', { what: 's1 selected' });
    await page.getByTestId('export').click();
    await page.getByTestId('export-transparent').uncheck();
    await page.getByTestId('export-selection').check();
    assert.match(await page.getByTestId('export-download').getAttribute('href'), /ids=s1/);
    const only = await png();
    assert.equal(only.data[3], 255, 'on the page\'s colour again');
    // s1 alone (160 wide, with the padding) instead of both shapes (560 wide).
    assert.ok(only.width < one.width / 2, `only s1: ${only.width} px, the page ${one.width} px`);
    await page.getByTestId('export').click();
    await page.getByTestId('export-selection').uncheck();
    await page.getByTestId('canvas').click({ position: { x: 5, y: 5 } });
    await page.getByTestId('export-dialog').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+E');
    await page.getByTestId('export-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('export-dialog').waitFor({ state: 'detached' });
    // The route says what it does not take.
    const key = await page.evaluate(() => localStorage.getItem('inkboard-key'));
    for (const q of ['scale=99', 'scale=0', 'theme=sepia', 'background=none', 'ids=s404', 'ids=']) {
      const r = await page.request.get(`${s.app.origin}/export?format=png&${q}`, { headers: { 'X-Inkboard-Key': key } });
      assert.equal(r.status(), 400, `${q} is refused`);
    }
  });

  it('images come in by drop and by paste', async () => {
    const png = new PNG({ width: 40, height: 20 });
    png.data.fill(200);
    const data = PNG.sync.write(png).toString('base64');
    const send = (kind, at) => page.evaluate(([b64, k, p]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      const canvas = document.querySelector('[data-testid="canvas"]');
      if (k === 'paste') {
        document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
        return;
      }
      const init = { dataTransfer: dt, clientX: p.x, clientY: p.y, bubbles: true, cancelable: true };
      canvas.dispatchEvent(new DragEvent('dragover', init));
      canvas.dispatchEvent(new DragEvent('drop', init));
    }, [data, kind, at]);

    let before = await ids();
    await send('drop', await clientOf(page, 300, 150));
    const [, dropped] = await newObject(page, before, 'the dropped image');
    assert.deepEqual([dropped.type, dropped.w, dropped.h], ['image', 40, 20]);
    near(dropped.x + 20, 300, 1, 'centred where dropped: x'); // event coordinates are whole pixels
    near(dropped.y + 10, 150, 1, 'centred where dropped: y');

    before = await ids();
    await send('paste');
    const [, pasted] = await newObject(page, before, 'the pasted image');
    assert.equal(pasted.type, 'image');
  });

  it('an agent\'s change is highlighted; its text is drawn as text; the status says saved', async () => {
    const text = '<img src=x onerror="window.pwned=1"> & <b>bold</b>';
    const r = await s.mcp.call('add_shape', { x: 0, y: 150, w: 600, h: 80, text });
    await page.locator(`.agent-flash[data-id="${r.id}"]`).waitFor({ state: 'attached' });
    await until(async () => /agent/i.test(await page.getByTestId('status-note').textContent()), { what: 'the agent note' });
    const g = page.locator(`g#${r.id}`);
    assert.equal((await g.textContent()).replace(/\s+/g, ' ').trim(), text);
    assert.equal(await page.locator('[data-testid="objects"] img, [data-testid="objects"] b').count(), 0);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    await until(() => savedObjects(s.file).some((o) => o.id === r.id), { what: 'the shape saved' });
    await until(async () => (await page.getByTestId('save-status').getAttribute('data-state')) === 'saved', { what: 'Saved' });
  });
});
