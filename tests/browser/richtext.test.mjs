// Rich text by hand: in a shape's text editor, Ctrl+B, Ctrl+I and the list shortcuts
// write the Markdown the renderer draws (bold in the bold face, italic slanted, list
// items with bullets or numbers), Enter continues a list and Enter on an empty item
// ends it; a link is drawn as a link, and a plain click on it selects its shape
// instead of leaving the editor.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, savedObjects, clientOf, clickBoard } from './lib.mjs';

describe('rich text in the editor', { timeout: 120000 }, () => {
  let s;
  let page;
  let file;

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 200, h: 80, text: 'Plan' },
        { id: 's2', type: 'shape', geom: 'note', x: 260, y: 0, w: 200, h: 160, text: 'one', align: 'left' },
        { id: 's3', type: 'shape', x: 0, y: 200, w: 240, h: 80, text: 'See [the docs](https://example.com/docs)' },
        { id: 's4', type: 'shape', x: 0, y: 320, w: 200, h: 80, text: 'Idea' },
        { id: 's5', type: 'shape', geom: 'note', x: 260, y: 200, w: 200, h: 160, text: 'first\nsecond', align: 'left' },
      ],
    });
    ({ page, file } = s);
  });

  after(() => s?.close());

  const edit = async (x, y) => {
    await page.locator('[data-testid="canvas"][data-tool="select"]').waitFor();
    const p = await clientOf(page, x, y);
    await page.mouse.dblclick(p.x, p.y);
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    return editor;
  };
  const saved = (id) => savedObjects(file).find((o) => o.id === id)?.text;

  it('Ctrl+B makes the selection bold, and it is drawn bold', async () => {
    const editor = await edit(100, 40);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+B');
    assert.equal(await editor.inputValue(), '**Plan**');
    await page.keyboard.press('End');
    await page.keyboard.type(' now');
    await page.keyboard.press('Escape');
    await until(() => saved('s1') === '**Plan** now', { what: 'bold saved' });
    await until(async () => {
      const bold = await page.locator('g#s1 text[font-weight="600"]').allTextContents();
      return bold.join('') === 'Plan';
    }, { what: '"Plan" drawn bold, without its asterisks' });
    const shown = (await page.locator('g#s1').textContent()).replace(/\s+/g, '');
    assert.equal(shown, 'Plannow');
  });

  it('Ctrl+Shift+8 makes a list; Enter continues it and ends it on an empty item', async () => {
    const editor = await edit(360, 80);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+Shift+8');
    assert.equal(await editor.inputValue(), '- one');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('after');
    assert.equal(await editor.inputValue(), '- one\n- two\nafter');
    // The textarea's own undo takes back the last typing, as typed.
    await page.keyboard.press('Escape');
    await until(() => saved('s2') === '- one\n- two\nafter', { what: 'the list saved' });
    await until(async () => (await page.locator('g#s2').textContent()).split('•').length === 3, { what: 'two bullets drawn' });
  });

  it('Ctrl+I makes the selection italic, and it is drawn slanted; again, it is not', async () => {
    const editor = await edit(100, 360);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+I');
    assert.equal(await editor.inputValue(), '*Idea*');
    await page.keyboard.press('Control+I');
    assert.equal(await editor.inputValue(), 'Idea', 'Ctrl+I again takes the italic off');
    await page.keyboard.press('Control+I');
    await page.keyboard.press('End');
    await page.keyboard.type(' later');
    await page.keyboard.press('Escape');
    await until(() => saved('s4') === '*Idea* later', { what: 'italic saved' });
    // Italic is drawn slanted (a skew about the baseline), the rest upright.
    await until(async () => {
      const slanted = await page.locator('g#s4 text[transform*="matrix"]').allTextContents();
      return slanted.join('') === 'Idea';
    }, { what: '"Idea" drawn slanted, without its asterisks' });
    const upright = await page.locator('g#s4 text:not([transform])').allTextContents();
    assert.equal(upright.join('').trim(), 'later');
  });

  it('Ctrl+Shift+7 numbers the lines; Enter adds the next number', async () => {
    const editor = await edit(360, 280);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+Shift+7');
    assert.equal(await editor.inputValue(), '1. first\n2. second');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('third');
    assert.equal(await editor.inputValue(), '1. first\n2. second\n3. third');
    await page.keyboard.press('Escape');
    await until(() => saved('s5') === '1. first\n2. second\n3. third', { what: 'the numbered list saved' });
    // Each item is drawn after its number, and no source mark is left.
    await until(async () => {
      const texts = (await page.locator('g#s5 text').allTextContents()).map((t) => t.trim());
      return ['1.', '2.', '3.'].every((n) => texts.includes(n))
        && ['first', 'second', 'third'].every((w) => texts.includes(w));
    }, { what: 'three numbered items drawn' });
    // Ctrl+Shift+7 on a numbered list makes plain lines again.
    await edit(360, 280);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+Shift+7');
    assert.equal(await editor.inputValue(), 'first\nsecond\nthird');
    await page.keyboard.press('Escape');
    await until(() => saved('s5') === 'first\nsecond\nthird', { what: 'plain lines saved' });
  });

  it('a link is drawn as a link, and a plain click selects its shape', async () => {
    const link = page.locator('g#s3 a[href="https://example.com/docs"]');
    await link.waitFor({ state: 'attached' });
    const box = await link.boundingBox();
    const pagesBefore = page.context().pages().length;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await until(async () => (await page.evaluate(() => window.inkboard.selection())).join() === 's3', { what: 's3 selected' });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(page.context().pages().length, pagesBefore, 'no new tab');
    assert.ok(page.url().startsWith('http://127.0.0.1'), page.url());
    await clickBoard(page, { x: 600, y: 400 });
  });
});
