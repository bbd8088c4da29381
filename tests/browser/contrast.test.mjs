// Every control of the editor's chrome is readable in both themes: the colour of
// each visible control's text or icon against what it sits on (its own
// background, else the nearest one behind it, translucent ones laid over) is at
// least 4.5:1, WCAG AA, as Chromium computes the styles. Measured with the
// toolbar, top bar, page tabs and zoom controls, the style panel of a selection,
// the export dialog, the find bar, the right-click menu and the `?` overlay open.
// Disabled controls are left out, as WCAG leaves them. And in dark, the style
// panel's swatches show the board's colours as the board shows them (a white
// fill's swatch is the dark grey the white shape is drawn in).

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { session, until, clickBoard, clientOf } from './lib.mjs';

/** Runs in the page: every visible control below `root` with a contrast under 4.5:1. */
function lowContrast(rootSelector) {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const lum = ([r, g, b]) => {
    const lin = (v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  /** The colour behind `el`: its background and its ancestors', laid over each other. */
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let out = [255, 255, 255, 1];
    for (const c of layers.reverse()) out = over(c, out);
    return out;
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const root = document.querySelector(rootSelector) ?? document.body;
  const controls = root.querySelectorAll(
    'button, summary, select, a, input[type="search"], input[type="text"], [role="tab"], kbd, h2, h3, dt, label span, .panel-title, .save-status, .board-title, .find-count, .present-count, .export-label, .choices-caption, .opacity-value',
  );
  const out = [];
  for (const el of controls) {
    if (el.disabled || el.closest('[disabled]') || el.classList.contains('swatch')) continue;
    if (el.closest('.board, .text-editor')) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden' || !el.checkVisibility?.()) continue;
    const hasText = el.textContent.trim().length > 0;
    const hasIcon = !!el.querySelector('svg');
    if (!hasText && !hasIcon) continue;
    const bg = backdrop(el);
    const fg = over([...parse(style.color).slice(0, 3), parse(style.color)[3] * opacity(el)], bg);
    const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    if (ratio < 4.5) {
      const name = el.dataset.testid || el.className || el.tagName;
      out.push(`${el.tagName.toLowerCase()} "${name}" ${JSON.stringify(el.textContent.trim().slice(0, 20))}: ${ratio.toFixed(2)}:1 (${style.color} on rgb(${bg.slice(0, 3).map(Math.round)}))`);
    }
  }
  return out;
}

describe('contrast of the chrome in both themes', { timeout: 180000 }, () => {
  let s;
  let page;

  const low = (root = 'body') => page.evaluate(lowContrast, root);
  const setTheme = async (t) => {
    await page.emulateMedia({ colorScheme: t });
    await until(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === t, { what: t });
  };

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 200, h: 100, text: 'White' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'Two', fill: 'blue' },
        { id: 's3', type: 'shape', geom: 'frame', x: 0, y: 200, w: 300, h: 200, text: 'A frame' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -200, y: -150, zoom: 1 }));
  });

  after(() => s?.close());

  for (const theme of ['light', 'dark']) {
    it(`${theme}: the top bar, toolbar, tabs and zoom controls`, async () => {
      await setTheme(theme);
      await page.keyboard.press('Escape');
      // A tool chosen: its button is drawn pressed.
      await page.keyboard.press('r');
      assert.deepEqual(await low(), []);
      await page.keyboard.press('Escape');
    });

    it(`${theme}: the style panel of a selection, and the export dialog`, async () => {
      await setTheme(theme);
      await clickBoard(page, { x: 100, y: 50 });
      await page.getByTestId('style-panel').waitFor();
      assert.deepEqual(await low('[data-testid="style-panel"]'), []);
      await page.getByTestId('export').click();
      await page.getByTestId('export-dialog').waitFor();
      assert.deepEqual(await low('[data-testid="export-dialog"]'), []);
      await page.keyboard.press('Escape');
    });

    it(`${theme}: the find bar, the right-click menu and the shortcut overlay`, async () => {
      await setTheme(theme);
      await page.keyboard.press('Control+f');
      await page.getByTestId('find-input').fill('Two');
      assert.deepEqual(await low('[data-testid="find-bar"]'), []);
      await page.keyboard.press('Escape');
      const c = await clientOf(page, 100, 50);
      await page.mouse.click(c.x, c.y, { button: 'right' });
      await page.getByTestId('context-menu').waitFor();
      assert.deepEqual(await low('[data-testid="context-menu"]'), []);
      await page.keyboard.press('Escape');
      await page.keyboard.press('?');
      await page.getByTestId('help').waitFor();
      assert.deepEqual(await low('[data-testid="help"]'), []);
      await page.keyboard.press('Escape');
    });
  }

  it('dark: a white shape\'s fill swatch is the colour the shape is shown in', async () => {
    await setTheme('dark');
    await clickBoard(page, { x: 100, y: 50 });
    const swatch = page.getByTestId('style-panel').getByTestId('fill-white');
    await swatch.waitFor();
    assert.equal(await swatch.getAttribute('aria-pressed'), 'true');
    const shot = async (x, y) => {
      const png = PNG.sync.read(await page.screenshot({ clip: { x: Math.round(x), y: Math.round(y), width: 1, height: 1 } }));
      return [png.data[0], png.data[1], png.data[2]];
    };
    const b = await swatch.boundingBox();
    const onSwatch = await shot(b.x + b.width / 2, b.y + b.height / 2);
    const c = await clientOf(page, 30, 80);
    const onShape = await shot(c.x, c.y);
    assert.ok(onShape.every((v) => v < 60), `the white shape is shown dark: ${onShape}`);
    const d = Math.max(...onSwatch.map((v, i) => Math.abs(v - onShape[i])));
    assert.ok(d <= 2, `the swatch ${onSwatch} is the shape's ${onShape}`);
    await page.keyboard.press('Escape');
  });
});
