// One look in dark: the editor shows the board in dark through a CSS filter on the
// server's light drawing (app.css), and `export` with `theme: "dark"` paints the
// colours by the renderer's rule (inkboard-render's theme.rs), which computes that
// same filter. Here both are asked for the same swatches: the pixel Chromium shows
// at each swatch's centre and the colour the CLI's dark SVG export writes for it
// agree within a shade, for palette names, hex colours, a frame and a stroke.
// (That app.css names the filter theme.rs computes is checked by
// crates/inkboard-app/tests/theme.rs.)

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { BIN, session, until, clientOf } from './lib.mjs';

/** A channel may differ by this much (rounding); in Chromium 156 they agree exactly. */
const SHADE = 1;

const FILLS = [
  'red', 'blue', 'green', 'yellow', 'orange', 'purple', 'pink', 'gray', 'black', 'white',
  '#ffe0e0', '#123456', '#00ff00', '#808080', '#f5deb3',
];

/** One 80 × 80 swatch per fill, in rows of five, with no text over its centre. */
const swatches = FILLS.map((fill, i) => ({
  id: `s${i + 1}`,
  type: 'shape',
  x: (i % 5) * 120,
  y: Math.floor(i / 5) * 120,
  w: 80,
  h: 80,
  text: '',
  fill,
}));
const frame = { id: 's20', type: 'shape', geom: 'frame', x: 0, y: 400, w: 200, h: 120, text: '' };
// A thick red outline: its colour is sampled on the line.
const outline = { id: 's21', type: 'shape', x: 300, y: 400, w: 120, h: 120, text: '', stroke: 'red', stroke_width: 24 };

const hex = (rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const rgbOf = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

describe('dark on screen and dark export agree', { timeout: 120000 }, () => {
  let s;
  let page;
  let svg;

  /** The colour on screen at board point (x, y). */
  const pixel = async (x, y) => {
    const c = await clientOf(page, x, y);
    const png = PNG.sync.read(await page.screenshot({ clip: { x: Math.round(c.x), y: Math.round(c.y), width: 1, height: 1 } }));
    return [png.data[0], png.data[1], png.data[2]];
  };

  /** The first `attr` colour the export wrote inside object `id`'s group. */
  const exported = (id, attr) => {
    const group = svg.slice(svg.indexOf(`<g id="${id}"`));
    const m = group.match(new RegExp(`<path [^>]*${attr}="(#[0-9a-f]{6})"`));
    assert.ok(m, `the export has a ${attr} for ${id}`);
    return m[1];
  };

  before(async () => {
    s = await session({ objects: [...swatches, frame, outline] });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -40, y: -40, zoom: 1 }));
    await page.emulateMedia({ colorScheme: 'dark' });
    await until(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', { what: 'dark' });
    const out = path.join(s.app.dir, 'dark.svg');
    execFileSync(BIN, ['export', s.file, '-o', out, '--theme', 'dark'], { env: s.app.env });
    svg = readFileSync(out, 'utf8');
  });

  after(() => s?.close());

  it('every fill, the frame and a stroke are the same colour in both', async () => {
    const samples = [
      ...swatches.map((o) => ({ id: o.id, what: o.fill, at: [o.x + 40, o.y + 40], attr: 'fill' })),
      { id: frame.id, what: 'a frame', at: [100, 480], attr: 'fill' },
      { id: outline.id, what: 'a red stroke', at: [300, 460], attr: 'stroke' },
    ];
    const off = [];
    for (const { id, what, at, attr } of samples) {
      const screen = await pixel(...at);
      const file = exported(id, attr);
      const d = Math.max(...screen.map((v, i) => Math.abs(v - rgbOf(file)[i])));
      if (d > SHADE) off.push(`${what}: screen ${hex(screen)}, export ${file} (${d} apart)`);
    }
    assert.deepEqual(off, [], 'the dark export paints what the dark editor shows');
  });

  it('the dark export is not the light drawing', () => {
    // The light fill of "white" is #ffffff; in dark it is the page's 7% grey.
    assert.equal(exported('s10', 'fill'), '#121212');
    assert.match(svg, /data-type="background"[^>]*fill="#121212"/);
  });
});
