import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, pngFile, signIn } from './support.js';

describe('articles end to end', () => {
  const app = appUnderTest();

  it('a member writes an article with a photo; a visitor reads it; another likes and comments; a block hides it', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const aliceId = await signIn(page, app.server, '13600136020', 'en');
    await page.getByRole('button', { name: 'Write' }).click();
    await page.waitForURL(/#\/member\/add-article$/);
    await page.getByLabel('Title').fill('A day at the lake');
    await page.getByLabel('Text').fill('We walked all afternoon.\nThe water was cold.');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add an image' }).click();
    const photo = pngFile(64, 40, (x) => (x < 32 ? [40, 120, 200] : [250, 250, 250]));
    await (await chooser).setFiles({ name: 'lake.png', mimeType: 'image/png', buffer: photo });
    // Shown from the device: nothing is uploaded before Publish (spec §4).
    expect(await page.getByRole('img', { name: 'Image 1' }).getAttribute('src')).toMatch(/^blob:/);
    await page.screenshot({ path: `${SHOTS}article-form-en.png` });
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published').waitFor();
    await page.getByTestId('article-progress').getByText('Publishing 100%').waitFor();
    await page.getByRole('button', { name: 'View content' }).click();
    await page.waitForURL(/#\/article\/view\?id=/);
    await page.getByRole('heading', { name: 'A day at the lake' }).waitFor();
    await page.getByText(/The water was cold\./).waitFor();
    await page.getByText('Published').waitFor({ state: 'hidden' });
    await page.screenshot({ path: `${SHOTS}article-view-en.png` });

    // A visitor finds it on the front page and opens it.
    const visitor = await phoneContext(app.browser, 'en-US');
    await visitor.page.goto(`${app.server.url}/h5/#/pages/article/index`);
    await visitor.page.getByText('A day at the lake').click();
    await visitor.page.getByText(/We walked all afternoon\./).waitFor();
    await visitor.page.getByRole('img', { name: 'Image 1' }).waitFor();
    await visitor.page.goto(`${app.server.url}/h5/#/pages/article/index`);
    await visitor.page.getByTestId('article').first().waitFor();
    await visitor.page.screenshot({ path: `${SHOTS}front-page-en.png` });
    // Search finds it by a word of its text.
    await visitor.page.getByRole('button', { name: 'Search' }).click();
    await visitor.page.waitForURL(/#\/search\/index$/);
    await visitor.page.getByRole('searchbox').fill('COLD');
    await visitor.page.getByRole('searchbox').press('Enter');
    await visitor.page.waitForURL(/#\/search\/list\?keyword=COLD$/);
    await visitor.page.getByTestId('article').getByText('A day at the lake').waitFor();
    await visitor.context.close();

    // A member who blocks the author no longer sees it.
    const bob = await phoneContext(app.browser, 'en-US');
    await signIn(bob.page, app.server, '13600136021', 'en');
    // Bob likes it and comments; Alice finds both.
    await bob.page.getByText('A day at the lake').click();
    await bob.page.getByRole('button', { name: 'Like', exact: true }).click();
    await bob.page.getByText('1 like', { exact: true }).waitFor();
    await bob.page.getByRole('button', { name: 'Collect', exact: true }).click();
    await bob.page.getByRole('button', { name: 'Collected', exact: true }).waitFor();
    await bob.page.getByText('0 comments').click();
    await bob.page.waitForURL(/#\/article\/ping\?id=/);
    await bob.page.getByLabel('Write a comment').fill('Looks lovely!');
    await bob.page.getByRole('button', { name: 'Send' }).click();
    await bob.page.getByTestId('comment').getByText('Looks lovely!').waitFor();
    await bob.page.screenshot({ path: `${SHOTS}article-comments-en.png` });
    await page.reload();
    await page.getByText('1 like', { exact: true }).waitFor();
    await page.getByText('1 comment', { exact: true }).click();
    await page.getByText('Looks lovely!').waitFor();
    // The collection, from the user tab.
    await bob.page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await bob.page.getByText('My collection', { exact: true }).click();
    await bob.page.waitForURL(/#\/member\/record$/);
    await bob.page.getByText('A day at the lake').waitFor();
    await bob.page.goto(`${app.server.url}/h5/#/pages/article/index`);
    await bob.page.getByText('A day at the lake').waitFor();
    const token = await bob.page.evaluate(
      () => (JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string }).token,
    );
    const blocked = await fetch(`${app.server.url}/index.php/api/member/lahei/uid_s/${aliceId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, block: true }),
    });
    expect(blocked.status).toBe(200);
    await bob.page.reload();
    await bob.page.getByText('No articles yet: be the first to write one').waitFor();
    await bob.context.close();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
