// Rich text by hand: a shape's text editor is formatted (WYSIWYG). Ctrl+B, Ctrl+I and
// the list shortcuts show bold, italic and lists while typing, with no Markdown mark
// in sight, and save the Markdown the renderer draws (bold in the bold face, italic
// slanted, list items with bullets or numbers); Enter continues a list and Enter on an
// empty item ends it; a rich note opens formatted; plain text with underscores and
// asterisks comes back byte for byte; a link is drawn as a link, and a plain click on
// it selects its shape instead of leaving the editor.

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
        { id: 's6', type: 'shape', geom: 'note', x: 520, y: 0, w: 220, h: 160, text: '**Due** *soon*\n- `a_b`\n- ~~c~~', align: 'left' },
        { id: 's7', type: 'shape', geom: 'note', x: 520, y: 200, w: 220, h: 160, text: 'snake_case 2 * 3\nplain\\*', align: 'left' },
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
  // What the formatted editor holds: its text as shown, and the tags that format it.
  const shownIn = (editor) => editor.evaluate((el) => el.innerText.replace(/\n$/, ''));
  const tagged = (editor, tag) => editor.evaluate((el, t) => [...el.querySelectorAll(t)].map((n) => n.textContent), tag);

  it('Ctrl+B makes the selection bold, and it is drawn bold', async () => {
    const editor = await edit(100, 40);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+B');
    assert.equal(await shownIn(editor), 'Plan', 'no asterisks while typing');
    assert.deepEqual(await tagged(editor, 'b'), ['Plan'], 'shown bold while typing');
    const weight = await editor.evaluate((el) => getComputedStyle(el.querySelector('b')).fontWeight);
    assert.equal(weight, '600', 'in the weight the drawing uses');
    await page.keyboard.press('End');
    await page.keyboard.press('Control+B');
    await page.keyboard.type(' now');
    assert.equal(await shownIn(editor), 'Plan now');
    await page.keyboard.press('Escape');
    await until(() => saved('s1') === '**Plan** now', { what: 'bold saved' });
    await until(async () => {
      const bold = await page.locator('g#s1 text[font-weight="600"]').allTextContents();
      return bold.join('') === 'Plan';
    }, { what: '"Plan" drawn bold, without its asterisks' });
    const shown = (await page.locator('g#s1').textContent()).replace(/\s+/g, '');
    assert.equal(shown, 'Plannow');
  });

  it('typing after Ctrl+B is bold while typed, with no asterisks, and saved as **…**', async () => {
    await page.locator('[data-testid="canvas"][data-tool="select"]').waitFor();
    const p = await clientOf(page, 100, 560);
    await page.mouse.dblclick(p.x, p.y);
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    await page.keyboard.press('Control+B');
    await page.keyboard.type('Bold');
    await page.keyboard.press('Control+B');
    await page.keyboard.type(' then plain');
    assert.equal(await shownIn(editor), 'Bold then plain', 'no asterisks while typing');
    assert.deepEqual(await tagged(editor, 'b'), ['Bold'], 'bold while typing');
    await page.keyboard.press('Escape');
    await until(() => savedObjects(file).some((o) => o.text === '**Bold** then plain'), { what: 'the new text saved with its bold' });
  });

  it('Ctrl+Shift+8 makes a list; Enter continues it and ends it on an empty item', async () => {
    const editor = await edit(360, 80);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+Shift+8');
    assert.deepEqual(await tagged(editor, 'ul > li'), ['one'], 'a bullet item while typing');
    const bullet = await editor.evaluate((el) => getComputedStyle(el.querySelector('li')).listStyleType);
    assert.equal(bullet, 'disc', 'shown with a bullet');
    assert.ok(!(await shownIn(editor)).includes('-'), 'no Markdown marker shown');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('after');
    assert.deepEqual(await tagged(editor, 'ul > li'), ['one', 'two']);
    assert.equal(await shownIn(editor), 'one\ntwo\nafter');
    await page.keyboard.press('Escape');
    await until(() => saved('s2') === '- one\n- two\nafter', { what: 'the list saved' });
    await until(async () => (await page.locator('g#s2').textContent()).split('•').length === 3, { what: 'two bullets drawn' });
  });

  it('Ctrl+I makes the selection italic, and it is drawn slanted; again, it is not', async () => {
    const editor = await edit(100, 360);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+I');
    assert.deepEqual(await tagged(editor, 'i'), ['Idea']);
    assert.equal(await shownIn(editor), 'Idea');
    await page.keyboard.press('Control+I');
    assert.deepEqual(await tagged(editor, 'i'), [], 'Ctrl+I again takes the italic off');
    await page.keyboard.press('Control+I');
    await page.keyboard.press('End');
    await page.keyboard.press('Control+I');
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
    assert.deepEqual(await tagged(editor, 'ol > li'), ['first', 'second']);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('third');
    assert.deepEqual(await tagged(editor, 'ol > li'), ['first', 'second', 'third']);
    assert.equal(await shownIn(editor), 'first\nsecond\nthird', 'numbers drawn by the list, not typed');
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
    assert.deepEqual(await tagged(editor, 'li'), []);
    await page.keyboard.press('Escape');
    await until(() => saved('s5') === 'first\nsecond\nthird', { what: 'plain lines saved' });
  });

  it('an existing rich note opens formatted, and comes back as it was', async () => {
    const editor = await edit(630, 80);
    assert.equal(await shownIn(editor), 'Due soon\na_b\nc', 'no Markdown marks shown');
    assert.deepEqual(await tagged(editor, 'b'), ['Due']);
    assert.deepEqual(await tagged(editor, 'i'), ['soon']);
    assert.deepEqual(await tagged(editor, 'ul > li'), ['a_b', 'c']);
    assert.deepEqual(await tagged(editor, 'code'), ['a_b']);
    assert.deepEqual(await tagged(editor, 's'), ['c']);
    // Typing at the end of the code item stays code, and the rest is saved as written.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('x');
    await page.keyboard.press('Escape');
    const want6 = '**Due** *soon*\n- `a_xb`\n- ~~c~~';
    await until(() => saved('s6') === want6, { what: 'the note saved with its marks' }).catch(() => {});
    assert.equal(saved('s6'), want6);
  });

  it('plain text with underscores and asterisks comes back byte for byte', async () => {
    const before = saved('s7');
    const editor = await edit(630, 280);
    assert.equal(await shownIn(editor), 'snake_case 2 * 3\nplain*');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('!');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Escape');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(saved('s7'), before, 'unchanged text saved unchanged');
    await edit(630, 280);
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.type(' x_y');
    await page.keyboard.press('Escape');
    const want7 = 'snake_case 2 * 3 x_y\nplain\\*';
    await until(() => saved('s7') === want7, { what: 'typed text saved without new escapes' }).catch(() => {});
    assert.equal(saved('s7'), want7);
  });

  it('Ctrl+K links the selection to the address asked for, shown as a link while typing', async () => {
    const editor = await edit(100, 40);
    page.once('dialog', (d) => d.accept('https://example.com/plan'));
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+K');
    await until(async () => (await tagged(editor, 'a')).length === 1, { what: 'a link in the editor' });
    assert.ok(await editor.isVisible(), 'still editing');
    await page.keyboard.press('Escape');
    const want = '[**Plan** now](https://example.com/plan)';
    await until(() => saved('s1') === want, { what: 'the link saved' }).catch(() => {});
    assert.equal(saved('s1'), want);
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
