// The page shows the core's warnings for a CNN (docs/api.md, "Warnings") as text, and none when
// there are none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, dist, cliApi, newPage } from './helpers.mjs';

let server, browser;

before(async () => {
  server = await serve(dist);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash) {
  const page = await newPage(browser);
  await page.goto(server.url + '/' + hash);
  await page.waitForSelector('body[data-ready=true]');
  return page;
}

test('a convolution algorithm a CPU cannot use is shown as the core\'s warning', async () => {
  const page = await open('#device=CPU_I7&conv_algorithm=winograd');
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'CPU_I7', conv_algorithm: 'winograd' });
  assert.equal(cli.warnings.length, 1);
  const list = page.locator('#warnings');
  assert.equal(await list.isVisible(), true);
  assert.deepEqual(await list.locator('li').allTextContents(), cli.warnings);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('no warnings, no list', async () => {
  const page = await open('#device=TITAN_X&conv_algorithm=winograd');
  assert.equal(await page.locator('#warnings').isVisible(), false);
  assert.equal(await page.locator('#warnings li').count(), 0);
  await page.close();
});
