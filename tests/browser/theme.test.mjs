// Dark mode on screen: the page follows the system's colour scheme, the toggle picks
// one (remembered across a reload), and in dark the board is shown inverted while the
// file, as the server draws it, stays light.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { session, until, clientOf } from './lib.mjs';

describe('dark mode', { timeout: 120000 }, () => {
  let s;
  let page;

  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  /** The colour on screen at board point (x, y): [r, g, b]. */
  const pixel = async (x, y) => {
    const c = await clientOf(page, x, y);
    const png = PNG.sync.read(await page.screenshot({ clip: { x: Math.round(c.x), y: Math.round(c.y), width: 1, height: 1 } }));
    return [png.data[0], png.data[1], png.data[2]];
  };
  const light = (rgb) => rgb.every((v) => v > 180);
  const dark = (rgb) => rgb.every((v) => v < 80);

  before(async () => {
    s = await session({
      objects: [{ id: 's1', type: 'shape', x: 0, y: 0, w: 200, h: 100, text: '' }],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('follows the system: light, then dark with the board inverted', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await until(async () => (await theme()) === 'light', { what: 'light' });
    assert.ok(light(await pixel(100, 50)), 'a white shape is white');
    await page.emulateMedia({ colorScheme: 'dark' });
    await until(async () => (await theme()) === 'dark', { what: 'dark with the system' });
    await until(async () => dark(await pixel(100, 50)), { what: 'the white shape shown dark' });
    assert.ok(dark(await pixel(-150, 50)), 'the canvas is dark');
    const bg = await page.evaluate(() => getComputedStyle(document.querySelector('.topbar')).backgroundColor);
    assert.ok(dark(bg.match(/\d+/g).slice(0, 3).map(Number)), `the top bar is dark: ${bg}`);
  });

  it('the toggle picks light against the system, and a reload keeps it', async () => {
    await page.getByTestId('theme-toggle').click();
    await until(async () => (await theme()) === 'light', { what: 'toggled to light' });
    await until(async () => light(await pixel(100, 50)), { what: 'the shape white again' });
    await page.reload();
    await page.waitForFunction(() => window.inkboard?.ready);
    assert.equal(await theme(), 'light', 'kept across the reload while the system is dark');
    await page.getByTestId('theme-toggle').click();
    await until(async () => (await theme()) === 'dark', { what: 'dark again' });
  });
});
