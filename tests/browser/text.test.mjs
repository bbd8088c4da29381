// Text and frames where the hand expects them: new text is drawn where it was typed,
// each line where it was (no re-wrap, no re-centring); a double-click inside a
// frame names the frame (no stray text object); pastes land at the pointer.
// Text fitted as it is typed, by the server's one rule: a shape sized to its text
// grows while the label is typed, to the size the server gives that text (a note
// grows down); a fixed
// shape's text shrinks as the drawing will; CJK and emoji typed are drawn, on the
// page as by `render`.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import {
  session, until, clickBoard, clientOf, selectionOf, newObject, watch, savedObjects,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

/** The box of the dark (ink-coloured) pixels of a PNG in each of two row bands. */
function inkLines(png, split) {
  const img = PNG.sync.read(png);
  const bands = [null, null];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const [r, g, b] = [img.data[i], img.data[i + 1], img.data[i + 2]];
      if (!(r < 110 && g < 110 && b < 110)) continue;
      const k = y < split ? 0 : 1;
      const o = bands[k] ?? { left: x, right: x, top: y, bottom: y };
      bands[k] = { left: Math.min(o.left, x), right: Math.max(o.right, x), top: Math.min(o.top, y), bottom: Math.max(o.bottom, y) };
    }
  }
  return bands;
}

/** The box and count of the dark pixels of a PNG inside `r`, in two row bands. */
function darkLines(png, r, split) {
  const img = PNG.sync.read(png);
  const bands = [null, null];
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) {
      const i = (y * img.width + x) * 4;
      if (!(img.data[i] < 160 && img.data[i + 1] < 160 && img.data[i + 2] < 160)) continue;
      const k = y < split ? 0 : 1;
      const o = bands[k] ?? { left: x, right: x, top: y, bottom: y, n: 0 };
      bands[k] = {
        left: Math.min(o.left, x), right: Math.max(o.right, x), top: Math.min(o.top, y), bottom: Math.max(o.bottom, y), n: o.n + 1,
      };
    }
  }
  return bands;
}

describe('text, frames and pasting', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor } = watch(() => page);

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' },
        { id: 's2', type: 'shape', geom: 'frame', x: 0, y: 300, w: 360, h: 220, text: '' },
      ],
      mcp: true,
    });
    ({ page } = s);
    // The caret and the editor's outline are not text.
    await page.addStyleTag({ content: '.text-editor { outline: none !important; caret-color: transparent !important; }' });
  });

  after(() => s?.close());

  it('new text is drawn where it was typed, line by line', async () => {
    await page.keyboard.press('t');
    const before = await ids();
    await clickBoard(page, { x: 500, y: 100 });
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    await page.keyboard.type('Hi');
    await page.keyboard.press('Enter');
    await page.keyboard.type('a longer second line');
    const box = await editor.boundingBox();
    const clip = { x: box.x - 40, y: box.y - 40, width: box.width + 80, height: box.height + 80 };
    const split = 40 + box.height / 2;
    const typed = inkLines(await page.screenshot({ clip }), split);
    await page.keyboard.press('Escape');
    const [id, o] = await newObject(page, before, 'the text shape');
    assert.equal(o.text, 'Hi\na longer second line');
    await page.locator(`g#${id} text`).first().waitFor();
    await page.keyboard.press('Escape'); // no selection outline
    await until(async () => (await selectionOf(page)).length === 0, { what: 'deselected' });
    const drawn = inkLines(await page.screenshot({ clip }), split);
    for (const k of [0, 1]) {
      assert.ok(typed[k] && drawn[k], `line ${k + 1} seen in both`);
      for (const side of ['left', 'top', 'right', 'bottom']) near(drawn[k][side], typed[k][side], 2, `line ${k + 1} ${side}`);
    }
  });

  it('a double-click inside a frame names the frame, and makes no text object', async () => {
    await page.keyboard.press('Escape');
    const before = await ids();
    await clickBoard(page, { x: 180, y: 430 }, { clickCount: 2 });
    await page.getByTestId('text-editor').waitFor();
    await page.keyboard.type('Team');
    await page.keyboard.press('Escape');
    await waitFor((o) => o.s2.text === 'Team', 'the frame named');
    assert.equal((await ids()).size, before.size, 'no new object');
  });

  it('a paste lands at the pointer once it has moved; again without moving, 20 px on', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await until(async () => (await selectionOf(page)).join() === 's1', { what: 's1 selected' });
    await page.keyboard.press('Control+c');
    const at = await clientOf(page, 250, 150);
    await page.mouse.move(at.x, at.y, { steps: 4 });
    let before = await ids();
    await page.keyboard.press('Control+v');
    const [, a] = await newObject(page, before, 'the pasted copy');
    near(a.x + a.w / 2, 250, 1, 'centred on the pointer: x');
    near(a.y + a.h / 2, 150, 1, 'centred on the pointer: y');
    before = await ids();
    await page.keyboard.press('Control+v');
    const [, b] = await newObject(page, before, 'the second copy');
    assert.deepEqual([b.x - a.x, b.y - a.y], [20, 20]);
  });

  it('a pasted image lands at the pointer', async () => {
    const png = new PNG({ width: 40, height: 20 });
    png.data.fill(90);
    const data = PNG.sync.write(png).toString('base64');
    const at = await clientOf(page, -200, 100);
    await page.mouse.move(at.x, at.y, { steps: 4 });
    const before = await ids();
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, data);
    const [, img] = await newObject(page, before, 'the pasted image');
    near(img.x + img.w / 2, -200, 1, 'x');
    near(img.y + img.h / 2, 100, 1, 'y');
  });

  /** Double-clicks board point (x, y), at 100%, and waits for the text editor. */
  const edit = async (x, y) => {
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.inkboard.setView({ x: 400, y: -620, zoom: 1 }));
    await page.locator('[data-testid="canvas"][data-tool="select"]').waitFor();
    const p = await clientOf(page, x, y);
    await page.mouse.dblclick(p.x, p.y);
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    return editor;
  };
  /** What the page draws of `id` now: its outline's box and its lines of text. */
  const drawnOf = (id) => page.evaluate((i) => {
    const g = document.getElementById(i);
    // The outline: a note's shadow layers are faint copies under it.
    const b = g.querySelector('path:not([fill-opacity])').getBBox();
    const texts = [...g.querySelectorAll('text')];
    return {
      box: { x: b.x, y: b.y, w: b.width, h: b.height },
      lines: new Set(texts.map((t) => t.getAttribute('y'))).size,
      fontSize: Number(texts[0]?.getAttribute('font-size')),
      text: texts.map((t) => t.textContent).join(''),
    };
  }, id);
  /** The text editor's box in board units, its font size and its number of lines. */
  const editorOf = () => page.evaluate(() => {
    const a = document.querySelector('[data-testid="text-editor"]');
    const { zoom } = window.inkboard.view();
    const fs = parseFloat(a.style.fontSize);
    return { w: parseFloat(a.style.width) / zoom, fontSize: fs / zoom, lines: Math.round(a.clientHeight / (fs * 1.25)) };
  });

  it('a shape sized to its text grows while a long label is typed, to the size the server gives it', async () => {
    const label = 'Start a much longer label that keeps on going';
    const { id } = await s.mcp.call('add_shape', { geom: 'ellipse', text: 'Start', x: 560, y: -500 });
    await page.locator(`g#${id}`).waitFor();
    const small = (await objects())[id];
    assert.equal(small.size, 'auto', 'added without w/h, the ellipse is sized to its text');
    await edit(small.x + small.w / 2, small.y + small.h / 2);
    await page.keyboard.press('End');
    await page.keyboard.type(label.slice('Start'.length));
    // While typing (the editor still open), the drawn outline has grown, and the
    // editor wraps its lines at the grown shape's text box, as the drawing does.
    let typing;
    await until(async () => {
      typing = await drawnOf(id);
      const ed = await editorOf();
      return typing.box.w > small.w + 60 && typing.lines === 2 && ed.lines === 2
        && Math.abs(ed.w - (typing.box.w * 0.72 - 12)) < 1.5;
    }, { what: 'the ellipse drawn grown while typing, the editor as wide as its text box' });
    assert.ok(await page.getByTestId('text-editor').isVisible(), 'still typing');
    assert.equal((await objects())[id].w, small.w, 'nothing committed yet');
    await page.keyboard.press('Escape');
    await waitFor((o) => o[id].text === label, 'the label committed');
    const grown = (await objects())[id];
    // The size the server gives that text, asked of it afresh.
    const fresh = await s.mcp.call('add_shape', { geom: 'ellipse', text: label, x: 560, y: -800 });
    assert.deepEqual([grown.w, grown.h], [fresh.w, fresh.h], 'sized as the server sizes the label');
    assert.equal(grown.size, 'auto');
    near(typing.box.w, grown.w, 1, 'width while typing');
    near(typing.box.h, grown.h, 1, 'height while typing');
    near(grown.x + grown.w / 2, small.x + small.w / 2, 1, 'grown about its centre');
    await until(() => savedObjects(s.file).find((o) => o.id === id)?.w === grown.w, { what: 'saved at that size' });
  });

  it('a sticky note sized to its text grows down while typed, as committed', async () => {
    const { id } = await s.mcp.call('add_shape', { geom: 'note', text: 'Todo', x: 1000, y: -600 });
    await page.locator(`g#${id}`).waitFor();
    const small = (await objects())[id];
    assert.equal(small.size, 'auto');
    const editor = await edit(small.x + small.w / 2, small.y + 40);
    await page.keyboard.press('End');
    await page.keyboard.type(': write the release notes, tag the build, tell the team, book the room, water the plants, call home, mend the bike, read a book, then rest');
    let typing;
    await until(async () => {
      typing = await drawnOf(id);
      return typing.box.h > small.h + 20 && typing.text.endsWith('rest');
    }, { what: 'the note drawn taller while typing' });
    assert.ok(await editor.isVisible(), 'still typing');
    near(typing.box.w, small.w, 1, 'the same width');
    near(typing.box.y, small.y, 1, 'the same top');
    await page.keyboard.press('Escape');
    await waitFor((o) => o[id].text.endsWith('rest'), 'committed');
    const grown = (await objects())[id];
    assert.deepEqual([grown.x, grown.y, grown.w], [small.x, small.y, small.w], 'grown down only');
    near(typing.box.h, grown.h, 1, 'as tall while typing as committed');
  });

  it('a fixed shape\'s text shrinks while typed, to the size it is drawn at', async () => {
    const label = 'A fixed box holding a label longer than it';
    const { id } = await s.mcp.call('add_shape', { text: 'Fixed', x: 560, y: -350, w: 120, h: 60 });
    await page.locator(`g#${id}`).waitFor();
    const editor = await edit(620, -320);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(label);
    let typed;
    let drawn;
    // The preview of the whole label drawn, and the editor at its font size.
    await until(async () => {
      typed = await editorOf();
      drawn = await drawnOf(id);
      return drawn.text.replace(/\s/g, '') === label.replace(/\s/g, '') && Math.abs(drawn.fontSize - typed.fontSize) < 0.01;
    }, { what: 'the editor at the font size of the previewed label' });
    assert.ok(typed.fontSize < 15, `shrunk: ${typed.fontSize}`);
    assert.equal(typed.lines, drawn.lines, 'wrapped as drawn');
    assert.ok(typed.fontSize >= 16 * 0.6 - 0.01, `not under the floor: ${typed.fontSize}`);
    assert.ok(await editor.isVisible(), 'still typing');
    await page.keyboard.press('Escape');
    await waitFor((o) => o[id].text === label, 'committed');
    const o = (await objects())[id];
    assert.deepEqual([o.w, o.h], [120, 60], 'a fixed shape keeps its size');
    await until(async () => Math.abs((await drawnOf(id)).fontSize - typed.fontSize) < 0.01, { what: 'drawn at the size typed' });
  });

  it('CJK and emoji typed into a shape are drawn, with every character', async () => {
    const typed = '中文 日本語 한국어 😀 → ──';
    const { id } = await s.mcp.call('add_shape', { text: '', x: 760, y: -350, w: 160, h: 60 });
    await page.locator(`g#${id}`).waitFor();
    await edit(840, -320);
    await page.keyboard.type(typed);
    assert.equal(await page.getByTestId('text-editor').innerText(), typed);
    await page.keyboard.press('Escape');
    await until(() => savedObjects(s.file).find((o) => o.id === id)?.text === typed, { what: 'saved as typed' });
    // The drawing the page shows is the server's SVG of the shape.
    const bare = (t) => t.replace(/\s+/g, '');
    await until(async () => bare((await drawnOf(id)).text) === bare(typed), { what: 'every character drawn' });
    // `render` finds no character of it without a glyph (nor text overflowing) ...
    const r = await s.mcp.call('render', { region: { x: 740, y: -370, w: 200, h: 100 } });
    const mine = r.problems.filter((p) => p.ids?.includes(id));
    assert.deepEqual(mine, [], JSON.stringify(mine));
    // ... and an export's SVG holds the text.
    const out = path.join(path.dirname(s.file), 'cjk.svg');
    await s.mcp.call('export', { output: out });
    const svg = readFileSync(out, 'utf8');
    for (const ch of bare(typed)) assert.ok(svg.includes(ch), `${ch} in the exported SVG`);
    // The page draws the text as `render` does: each line's dark pixels take the same
    // box (within 2 px) and about as many pixels (Chromium and resvg smooth the CJK
    // strokes differently, so pixels are not compared one by one).
    const region = { x: 760, y: -350, w: 160, h: 60 };
    await page.keyboard.press('Escape');
    await until(async () => (await selectionOf(page)).length === 0, { what: 'deselected' });
    await page.mouse.move(5, 700); // no hover look on the shape
    await page.addStyleTag({ content: '[data-testid="canvas"] { background: #fff !important; }' });
    await page.evaluate((v) => window.inkboard.setView(v), { x: region.x, y: region.y, zoom: 2 });
    const canvas = await page.getByTestId('canvas').boundingBox();
    const shot = await page.screenshot({ clip: { x: canvas.x, y: canvas.y, width: 320, height: 120 } });
    const answer = await s.mcp.callRaw('render', { region, max_size: 320 });
    const png = Buffer.from(answer.content.find((c) => c.type === 'image').data, 'base64');
    // Inside the outline (6 px in at scale 2), split between the two lines.
    const inner = { x: 6, y: 6, w: 308, h: 108 };
    const [drawn, rendered] = [shot, png].map((p) => darkLines(p, inner, 60));
    for (const k of [0, 1]) {
      assert.ok(drawn[k] && rendered[k], `line ${k + 1} drawn in both`);
      for (const side of ['left', 'top', 'right', 'bottom']) near(drawn[k][side], rendered[k][side], 2, `line ${k + 1} ${side}`);
      const ratio = drawn[k].n / rendered[k].n;
      assert.ok(ratio > 0.7 && ratio < 1.3, `line ${k + 1}: ${drawn[k].n} dark pixels on the page, ${rendered[k].n} in render`);
    }
  });
});
