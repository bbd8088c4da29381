// An exported SVG embeds each bundled face it draws cut down to the characters it
// draws (`text/subset.rs`), and Chromium draws it exactly as with the whole faces
// embedded (what the export carried before): the subsets keep the glyphs, the
// kerning and the contextual forms the browser's own shaping reads. The text stays
// `<text>`, and every embedded face loads (a font the browser's sanitizer refused
// would fall back to another face, and the pictures would differ).
//
// The "before" picture is the same SVG with its `<style>` swapped for the editor's
// `fonts.css`, which holds every bundled face whole under the same names. A third
// picture, without any `@font-face`, shows the comparison can fail: the host's
// fallback face draws other letters.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { BIN, launch, newContext, openPage, startBoard } from './lib.mjs';

// Labels in every bundled text face and weight, with kerning pairs (AV, Te, To, Wa),
// ligature candidates (fi, ->), symbols and an emoji from the fallback faces.
const OBJECTS = [
  { id: 's1', type: 'shape', geom: 'rounded', x: 0, y: 0, w: 220, h: 70, text: 'AVATAR Tokyo Wa fi' },
  { id: 's2', type: 'shape', x: 260, y: 0, w: 220, h: 70, text: '**Bold Team** and *italic* `code()`' },
  { id: 's3', type: 'shape', x: 0, y: 110, w: 220, h: 70, font: 'serif', text: 'Serif Typewriter' },
  { id: 's4', type: 'shape', x: 260, y: 110, w: 220, h: 70, font: 'mono', text: 'mono -> fn(x) != 0' },
  { id: 's5', type: 'shape', geom: 'ellipse', x: 0, y: 220, w: 220, h: 80, font: 'hand', text: 'Handwritten note' },
  { id: 's6', type: 'shape', x: 260, y: 220, w: 220, h: 80, text: 'Arrows → ✓ ∑ ★ 😀' },
  { id: 'c7', type: 'connector', from: 's1', to: 's2', text: 'yes, AVoid' },
];

/** The SVG's `<style>` replaced by `css` (none when empty). */
function withStyle(svg, css) {
  const rest = svg.replace(/<style>[\s\S]*?<\/style>\n?/, '');
  if (!css) return rest;
  const at = rest.indexOf('>', rest.indexOf('<svg')) + 1;
  return `${rest.slice(0, at)}<style>${css}</style>${rest.slice(at)}`;
}

/** Pixels differing (any channel) between two same-sized pictures. */
function differing(a, b) {
  assert.equal(`${b.width}x${b.height}`, `${a.width}x${a.height}`, 'picture sizes');
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) n++;
  }
  return n;
}

describe('an exported SVG with subset fonts', { timeout: 120000 }, () => {
  let app;
  let browser;
  let svg;
  let wholeCss;

  before(async () => {
    app = await startBoard({ objects: OBJECTS });
    const out = path.join(app.dir, 'out.svg');
    execFileSync(BIN, ['export', app.file, '-o', out], { env: app.env });
    svg = readFileSync(out, 'utf8');
    browser = await launch();
    // The editor's stylesheet is served to a signed-in window.
    const context = await newContext(browser);
    await openPage(context, app);
    const res = await context.request.get(`${app.origin}/assets/fonts.css`);
    assert.equal(res.status(), 200);
    wholeCss = await res.text();
    await context.close();
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Chromium's picture of `doc` (an SVG document), once its fonts are loaded. */
  async function shot(doc) {
    const page = await browser.newPage({ viewport: { width: 600, height: 400 }, deviceScaleFactor: 2 });
    await page.setContent(`<!doctype html><body style="margin:0;background:#fff">${doc}</body>`);
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].map((f) => ({ family: f.family, weight: f.weight, status: f.status }));
    });
    const png = PNG.sync.read(await page.locator('svg').screenshot());
    await page.close();
    return { png, fonts };
  }

  it('is small and keeps its text as text', () => {
    const rules = svg.match(/@font-face/g) ?? [];
    // Inter 400 and 600, serif, mono, hand, symbols, math, symbols 2, emoji.
    assert.ok(rules.length >= 6, `${rules.length} faces embedded`);
    assert.ok(svg.length < 120_000, `${svg.length} bytes (the whole faces were ${wholeCss.length})`);
    for (const label of ['AVATAR Tokyo Wa fi', 'Serif Typewriter', 'Handwritten note', 'yes, AVoid']) {
      assert.ok(svg.includes(`>${label}</text>`), label);
    }
  });

  it('draws exactly as with the whole faces', async (t) => {
    const subset = await shot(svg);
    const whole = await shot(withStyle(svg, wholeCss));
    const host = await shot(withStyle(svg, ''));
    for (const f of subset.fonts) assert.equal(f.status, 'loaded', `${f.family} ${f.weight} loads`);
    const same = differing(subset.png, whole.png);
    const fallback = differing(subset.png, host.png);
    t.diagnostic(`${subset.png.width}x${subset.png.height}: ${same} pixels differ from the whole faces, ${fallback} from the host's fallback`);
    if (process.env.INKBOARD_KEEP_PICTURES) {
      const dir = process.env.INKBOARD_KEEP_PICTURES;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'svgfonts-subset.png'), PNG.sync.write(subset.png));
      writeFileSync(path.join(dir, 'svgfonts-whole.png'), PNG.sync.write(whole.png));
      writeFileSync(path.join(dir, 'svgfonts-host.png'), PNG.sync.write(host.png));
    }
    assert.ok(fallback > 2000, `the host's faces draw otherwise (${fallback} pixels)`);
    assert.equal(same, 0, 'the subset draws pixel for pixel as the whole faces');
  });
});
