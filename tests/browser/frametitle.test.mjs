// Naming a frame where the hand expects it: an untitled frame shows a faint "Frame"
// in its title band on screen (frametitle.js), which `export` and `render` never
// draw; a real double-click on the title band of a titled or an untitled frame opens
// its title for typing, the name typed is the server's (MCP `read_board`), the
// placeholder goes once the frame is named, and one Ctrl+Z undoes each naming.
// Enter ends a title, as in Excalidraw and tldraw.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { BIN, session, until, clientOf } from './lib.mjs';

const TITLED = { id: 's1', type: 'shape', geom: 'frame', x: 0, y: 0, w: 400, h: 260, text: 'Plan' };
const UNTITLED = { id: 's2', type: 'shape', geom: 'frame', x: 500, y: 0, w: 400, h: 260 };
const TURNED = { id: 's3', type: 'shape', geom: 'frame', x: 0, y: 360, w: 400, h: 200, rotation: 30 };
/** The frames' title band is their top 32 units (inkboard-core's FRAME_TITLE_HEIGHT). */
const BAND = 32;

describe('naming a frame', { timeout: 120000 }, () => {
  let s;
  let page;
  let mcp;

  /** The frame's title on the server ('' when it has none). */
  const serverTitle = async (id) => {
    const board = await mcp.call('read_board', {});
    const obj = board.page.objects.find((o) => o.id === id);
    assert.ok(obj, `${id} is on the server's page`);
    return obj.text ?? '';
  };
  const titleIs = (id, want, what) => until(async () => (await serverTitle(id)) === want, { what });
  const placeholder = (id) => page.locator(`g#${id} [data-testid="frame-placeholder"]`);

  /** A real double-click at board point (x, y); answers the text editor once it is open. */
  const doubleClick = async (x, y) => {
    const c = await clientOf(page, x, y);
    await page.mouse.dblclick(c.x, c.y);
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    return editor;
  };

  before(async () => {
    s = await session({ objects: [TITLED, UNTITLED, TURNED], mcp: true });
    ({ page, mcp } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -40, y: -40, zoom: 1 }));
  });

  after(() => s?.close());

  it('an untitled frame shows a faint "Frame" in its title band; a titled one does not', async () => {
    await placeholder('s2').waitFor();
    assert.equal(await placeholder('s2').textContent(), 'Frame');
    assert.equal(await placeholder('s1').count(), 0, 'a titled frame shows its title only');
    // In the band, at the title's place: its left side, within the top 32 units.
    const box = await placeholder('s2').boundingBox();
    const top = await clientOf(page, UNTITLED.x, UNTITLED.y);
    assert.ok(box.x >= top.x + 6 && box.x <= top.x + 20, `starts where a title would: ${JSON.stringify(box)}`);
    assert.ok(box.y >= top.y && box.y + box.height <= top.y + BAND, `inside the title band: ${JSON.stringify(box)}`);
    // Faint: lighter than the title the titled frame draws in the same colour.
    const opacity = await placeholder('s2').evaluate((t) => Number(t.getAttribute('fill-opacity')));
    assert.ok(opacity > 0 && opacity < 0.6, `faint (fill-opacity ${opacity})`);
  });

  it('a turned untitled frame shows it turned with the frame', async () => {
    await placeholder('s3').waitFor();
    const box = await placeholder('s3').boundingBox();
    // The band's left end, turned 30° about the frame's centre (200, 460).
    const [cx, cy] = [TURNED.x + TURNED.w / 2, TURNED.y + TURNED.h / 2];
    const [dx, dy] = [TURNED.x + 10 - cx, TURNED.y + BAND / 2 - cy];
    const r = (30 * Math.PI) / 180;
    const start = await clientOf(page, cx + dx * Math.cos(r) - dy * Math.sin(r), cy + dx * Math.sin(r) + dy * Math.cos(r));
    assert.ok(Math.abs(box.x - start.x) < 14 && Math.abs(box.y - start.y) < 14,
      `the word starts at the turned band's left end ${JSON.stringify(start)}: ${JSON.stringify(box)}`);
  });

  it('export and render draw no placeholder', async () => {
    const out = path.join(s.app.dir, 'frames.svg');
    execFileSync(BIN, ['export', s.file, '-o', out], { env: s.app.env });
    const svg = readFileSync(out, 'utf8');
    const group = (id) => {
      const at = svg.indexOf(`<g id="${id}"`);
      assert.ok(at >= 0, `the export has ${id}`);
      const end = svg.indexOf('<g id=', at + 1);
      return svg.slice(at, end < 0 ? undefined : end);
    };
    assert.match(group('s1'), /<text/, 'the titled frame\'s title is exported as text');
    assert.doesNotMatch(group('s2'), /<text|Frame/, 'the untitled frame exports no title');
    assert.doesNotMatch(svg, />\s*Frame\s*</, 'no "Frame" anywhere in the export');

    // `render` of the untitled frame's title band: the frame's fill and its edge only.
    const answer = await mcp.callRaw('render', { region: { x: 500, y: 0, w: 400, h: BAND }, max_size: 400 });
    assert.equal(answer.isError, false);
    const png = PNG.sync.read(Buffer.from(answer.content.find((c) => c.type === 'image').data, 'base64'));
    const colours = new Map();
    // Inside the edge (8 px in from each side), every pixel is the one fill.
    for (let y = 8; y < png.height - 2; y++) {
      for (let x = 8; x < png.width - 8; x++) {
        const i = (y * png.width + x) * 4;
        const k = png.data.readUInt32BE(i);
        colours.set(k, (colours.get(k) ?? 0) + 1);
      }
    }
    assert.equal(colours.size, 1, `the title band renders plain: ${colours.size} colours`);
  });

  it('a double-click on an untitled frame\'s title band names it; the placeholder goes; one Ctrl+Z undoes it', async () => {
    const editor = await doubleClick(UNTITLED.x + 60, UNTITLED.y + BAND / 2);
    assert.equal(await editor.inputValue(), '', 'an empty title to type');
    // Hidden while the title is typed, as the frame's own text would be.
    assert.equal(await placeholder('s2').isVisible(), false, 'no placeholder under the typing');
    await page.keyboard.type('Team');
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    await titleIs('s2', 'Team', 'the frame named on the server');
    await until(async () => (await placeholder('s2').count()) === 0, { what: 'the placeholder gone' });
    assert.match(await page.locator('g#s2').textContent(), /Team/);
    assert.equal((await mcp.call('read_board', {})).page.objects.length, 3, 'no stray text object');

    await page.keyboard.press('Control+z');
    await titleIs('s2', '', 'one Ctrl+Z: untitled again');
    await placeholder('s2').waitFor();
  });

  it('a double-click on a titled frame\'s title renames it; Ctrl+Enter commits; one Ctrl+Z undoes it', async () => {
    const editor = await doubleClick(TITLED.x + 30, TITLED.y + BAND / 2);
    assert.equal(await editor.inputValue(), 'Plan', 'the title to change, selected');
    await page.keyboard.type('Roadmap');
    await page.keyboard.press('Control+Enter');
    await editor.waitFor({ state: 'detached' });
    await titleIs('s1', 'Roadmap', 'renamed on the server');
    assert.equal(await placeholder('s1').count(), 0);

    await page.keyboard.press('Control+z');
    await titleIs('s1', 'Plan', 'one Ctrl+Z: the old title');
    assert.equal(await serverTitle('s2'), '', 'the other frame untouched');
  });

  // A frame's title is one line: Enter ends it, as it does in Excalidraw and tldraw.
  it('Enter ends a frame\'s title', async () => {
    const editor = await doubleClick(UNTITLED.x + 60, UNTITLED.y + BAND / 2);
    await page.keyboard.type('Ops');
    await page.keyboard.press('Enter');
    try {
      await editor.waitFor({ state: 'detached', timeout: 2000 });
      await titleIs('s2', 'Ops', 'named by Enter, on one line');
    } finally {
      if (await editor.count()) await page.keyboard.press('Escape');
      await until(async () => (await serverTitle('s2')) !== '', { what: 'the edit committed' });
      await page.keyboard.press('Control+z');
      await titleIs('s2', '', 'untitled again');
    }
  });
});
