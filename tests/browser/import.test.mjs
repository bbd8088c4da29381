// Opening a draw.io diagram (issue 16), as a person does: `inkboard open
// plan.drawio` shows it in the editor with a bar that says where it came from,
// what could not be kept, and that nothing is saved yet; one click saves it as
// the board file beside the diagram, which is left as it was.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ROOT, startApp, launch, newContext, openPage, until, tempDir,
} from './lib.mjs';

const CORPUS = path.join(ROOT, 'crates/inkboard-interop/tests/corpus');

describe('a draw.io diagram opened in the editor', () => {
  let app;
  let browser;
  let page;
  let source;
  let original;

  before(async () => {
    const dir = tempDir();
    source = path.join(dir, 'aws.drawio');
    copyFileSync(path.join(CORPUS, 'drawio-template-aws_3.xml'), source);
    original = readFileSync(source);
    app = await startApp(source, { dir });
    browser = await launch();
    page = await openPage(await newContext(browser), app);
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('is drawn, with a bar saying what was not kept and that it is not saved', async () => {
    const objects = await page.evaluate(() => Object.keys(window.inkboard.objects()).length);
    assert.ok(objects >= 30, `${objects} objects drawn`);
    const bar = page.getByTestId('banner');
    await until(async () => (await bar.getAttribute('data-kind')) === 'imported', { what: 'the import bar' });
    const words = await bar.textContent();
    assert.match(words, /Imported from aws\.drawio \(draw\.io\)/);
    assert.match(words, /13 stencil shapes drawn as rectangles/);
    assert.match(words, /not saved to a file yet/);
    assert.equal(await page.getByTestId('save-status').getAttribute('data-state'), 'unsaved');
  });

  it('is saved beside the diagram with one click, and the diagram is untouched', async () => {
    const target = path.join(app.dir, 'aws.inkboard');
    assert.equal(existsSync(target), false);
    const button = page.getByTestId('keep-import');
    assert.match(await button.textContent(), /Save as aws\.inkboard/);
    await button.click();
    await until(() => existsSync(target), { what: 'aws.inkboard written' });
    await until(async () => page.getByTestId('banner').isHidden(), { what: 'the bar gone' });
    await until(async () => (await page.getByTestId('save-status').getAttribute('data-state')) === 'saved', { what: 'saved' });
    const saved = JSON.parse(readFileSync(target, 'utf8'));
    assert.ok(saved.pages[0].objects.length >= 30);
    assert.deepEqual(readFileSync(source), original);
  });
});
