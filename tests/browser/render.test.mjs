// The page shows what `render` draws: a screenshot of the canvas and the PNG that
// MCP `render` answers for the same region, at the same scale, agree pixel for
// pixel up to anti-aliasing (Chromium and resvg rasterise the same SVG and font),
// rotated shapes, text, frames and a rotated image included.
//
// Alignment: the page's view is set so the region's top-left corner is the
// canvas's top-left corner at the render's scale; the screenshot is clipped to the
// region's size. The editor's dotted canvas background is made plain white (the
// render's background) for the screenshot: it is chrome, not the drawing.
//
// Tolerance, chosen by looking at both pictures and their difference: only
// anti-aliased edges of text and lines differ. Whole picture: ≥ 99% of pixels
// within 48 (largest channel difference, 0-255). "Ink" pixels (those not of the
// render's background colours in either picture): ≥ 95% within 48. The ink figure
// is the one that catches a misplaced drawing: a 1 px shift drops it to ~77%,
// while the whole-picture figure still passes at 2 px (~97.5%).

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { session } from './lib.mjs';

const TOLERANCE = 48;

/** Compares two same-sized RGBA pictures: fractions of pixels within TOLERANCE. */
function compare(a, b) {
  assert.equal(`${b.width}x${b.height}`, `${a.width}x${a.height}`, 'picture sizes');
  const n = a.width * a.height;
  // Background colours: those covering at least 5% of the render.
  const counts = new Map();
  for (let i = 0; i < n; i++) {
    const k = a.data.readUInt32BE(i * 4);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const bg = [...counts].filter(([, c]) => c >= 0.05 * n).map(([k]) => [k >>> 24, (k >>> 16) & 255, (k >>> 8) & 255]);
  const isBg = (d, i) => bg.some((c) => Math.abs(d[i] - c[0]) <= 8 && Math.abs(d[i + 1] - c[1]) <= 8 && Math.abs(d[i + 2] - c[2]) <= 8);
  let ok = 0;
  let ink = 0;
  let inkOk = 0;
  const diff = new PNG({ width: a.width, height: a.height });
  for (let i = 0; i < n * 4; i += 4) {
    const d = Math.max(Math.abs(a.data[i] - b.data[i]), Math.abs(a.data[i + 1] - b.data[i + 1]), Math.abs(a.data[i + 2] - b.data[i + 2]));
    const good = d <= TOLERANCE;
    if (good) ok++;
    if (!isBg(a.data, i) || !isBg(b.data, i)) {
      ink++;
      if (good) inkOk++;
    }
    const v = 255 - Math.min(255, 2 * d);
    diff.data.set([255, v, v, 255], i);
  }
  return { all: ok / n, ink: inkOk / Math.max(1, ink), inkPixels: ink, diff };
}

describe('the page and render agree', { timeout: 120000 }, () => {
  let s;
  let page;
  let mcp;

  before(async () => {
    s = await session({ golden: true, mcp: true });
    ({ page, mcp } = s);
    await page.addStyleTag({ content: '[data-testid="canvas"] { background: #fff !important; }' });
    await page.evaluate(() => document.fonts.ready);
  });

  after(() => s?.close());

  /** Screenshot of board region `r` shown at `zoom`, and `render` of it at that scale. */
  async function both(r, zoom) {
    await page.evaluate(([v]) => window.inkboard.setView(v), [{ x: r.x, y: r.y, zoom }]);
    const box = await page.getByTestId('canvas').boundingBox();
    const w = Math.ceil(r.w * zoom);
    const h = Math.ceil(r.h * zoom);
    assert.ok(w <= box.width && h <= box.height, 'the region fits the canvas');
    const shot = PNG.sync.read(await page.screenshot({ clip: { x: box.x, y: box.y, width: w, height: h } }));
    const answer = await mcp.callRaw('render', { region: r, max_size: Math.max(w, h) });
    assert.equal(answer.isError, false);
    const image = answer.content.find((c) => c.type === 'image');
    assert.equal(image.mimeType, 'image/png');
    return { shot, render: PNG.sync.read(Buffer.from(image.data, 'base64')) };
  }

  function check(t, name, { shot, render }) {
    const c = compare(render, shot);
    if (process.env.INKBOARD_KEEP_PICTURES) {
      const out = process.env.INKBOARD_KEEP_PICTURES;
      mkdirSync(out, { recursive: true });
      writeFileSync(path.join(out, `${name}-render.png`), PNG.sync.write(render));
      writeFileSync(path.join(out, `${name}-page.png`), PNG.sync.write(shot));
      writeFileSync(path.join(out, `${name}-diff.png`), PNG.sync.write(c.diff));
    }
    const figures = `all ${(100 * c.all).toFixed(2)}%, ink ${(100 * c.ink).toFixed(2)}% of ${c.inkPixels}`;
    t.diagnostic(`${name}: ${figures} within ${TOLERANCE}`);
    assert.ok(c.inkPixels > 10000, `the region shows a drawing (${figures})`);
    assert.ok(c.all >= 0.99, `whole picture: ${figures}`);
    assert.ok(c.ink >= 0.95, `drawn pixels: ${figures}`);
  }

  it('at 100%: a screenshot of the canvas matches render of the same region', async (t) => {
    check(t, 'zoom100', await both({ x: -20, y: -60, w: 1000, h: 620 }, 1));
  });

  it('at 50%: the same after zooming out', async (t) => {
    check(t, 'zoom50', await both({ x: -40, y: -80, w: 1040, h: 660 }, 0.5));
  });

  it('rotated shapes, text and a frame match render too (the page draws the server\'s turned SVG)', async (t) => {
    // Far from the golden board's drawing, so the region holds only these.
    const batch = await mcp.call('batch', {
      operations: [
        { tool: 'add_shape', args: { geom: 'frame', x: 3000, y: 0, w: 420, h: 300, text: 'Turned frame', rotation: 8 } },
        { tool: 'add_shape', args: { x: 3060, y: 80, w: 140, h: 70, text: 'Thirty degrees', fill: 'blue', rotation: 30 } },
        { tool: 'add_shape', args: { geom: 'ellipse', x: 3240, y: 70, w: 130, h: 80, text: 'Quarter', rotation: 90 } },
        { tool: 'add_shape', args: { geom: 'text', x: 3080, y: 200, w: 200, h: 24, text: 'Text turned -15°', rotation: -15 } },
        { tool: 'add_shape', args: { geom: 'diamond', x: 3280, y: 190, w: 90, h: 80, rotation: 45 } },
      ],
    });
    assert.equal(batch.results.length, 5);
    await page.waitForFunction(() => [...Object.values(window.inkboard.objects())].filter((o) => o.rotation).length >= 5);
    // The agent's edits are outlined for a while (the flash layer): chrome, not drawing.
    await page.addStyleTag({ content: 'g.flash { display: none !important; }' });
    check(t, 'rotated', await both({ x: 2960, y: -60, w: 520, h: 420 }, 1));
  });

  it('a rotated image matches render too (the page turns the bitmap as resvg does)', async (t) => {
    // Nine blocks of colour, each under 5% of the region (so none counts as
    // background), whose edges show where the picture is and how it is turned.
    const png = new PNG({ width: 180, height: 135 });
    const colours = [
      [220, 40, 40], [40, 160, 60], [40, 80, 220],
      [240, 200, 40], [150, 50, 180], [30, 170, 170],
      [250, 130, 30], [90, 90, 90], [200, 60, 140],
    ];
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        const [r, g, b] = colours[Math.floor(y / 45) * 3 + Math.floor(x / 60)];
        png.data.set([r, g, b, 255], (y * png.width + x) * 4);
      }
    }
    const data = `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
    const { id } = await mcp.call('add_image', { data, x: 6060, y: 80, w: 180, h: 135 });
    await mcp.call('update', { id, rotation: 25 });
    await page.waitForFunction((i) => window.inkboard.objects()[i]?.rotation === 25, id);
    await page.addStyleTag({ content: 'g.flash { display: none !important; }' });
    check(t, 'rotated-image', await both({ x: 6000, y: 0, w: 300, h: 300 }, 1));
  });

  it('fails the comparison when the drawing is 1 px off (the check can see a shift)', async () => {
    const { shot, render } = await both({ x: -20, y: -60, w: 1000, h: 620 }, 1);
    const shifted = await both({ x: -19, y: -60, w: 1000, h: 620 }, 1);
    assert.ok(compare(render, shot).ink >= 0.95);
    assert.ok(compare(render, shifted.shot).ink < 0.9, 'a 1 px shift is caught');
  });
});
