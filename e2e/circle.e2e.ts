import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, pngFile, signIn } from './support.js';

describe('circle end to end', () => {
  const app = appUnderTest();

  it('a member posts a photo and a vote; another votes once; the results show to everyone', async () => {
    const alice = await phoneContext(app.browser, 'en-US');
    await signIn(alice.page, app.server, '13600136050', 'en');
    await alice.page.goto(`${app.server.url}/h5/#/pages/quanzi/index`);
    await alice.page.getByText('Nothing in the circle yet: be the first to post').waitFor();
    await alice.page.getByRole('button', { name: 'Post' }).click();
    await alice.page.waitForURL(/#\/member\/add-quanzi$/);
    // A title is needed first, of 5 characters at least (spec §5).
    await alice.page.getByLabel('Title').fill('Lake');
    await alice.page.getByLabel('Text').fill('Spring at the lake');
    await alice.page.getByRole('button', { name: 'Post' }).last().click();
    await alice.page.getByText('The title must not be less than 5 characters').waitFor();
    await alice.page.getByLabel('Title').fill('A spring walk');
    const chooser = alice.page.waitForEvent('filechooser');
    await alice.page.getByRole('button', { name: 'Add an image' }).click();
    const photo = pngFile(640, 400, (x) => (x < 320 ? [40, 160, 90] : [250, 250, 250]));
    await (await chooser).setFiles({ name: 'lake.png', mimeType: 'image/png', buffer: photo });
    // Shown from the device: nothing is uploaded before the post is sent (spec §4).
    expect(await alice.page.getByRole('img', { name: 'Image 1' }).getAttribute('src')).toMatch(/^blob:/);
    // Images and a vote never go together.
    await alice.page.getByText('Add a vote').click();
    await alice.page
      .getByText('Images, video and vote are mutually exclusive: remove one before adding another')
      .waitFor();
    await alice.page.getByRole('button', { name: 'Post' }).last().click();
    await alice.page.waitForURL(/#\/pages\/quanzi\/index$/);
    await alice.page.getByTestId('post').getByText('Spring at the lake').waitFor();
    await alice.page.getByTestId('post').getByTestId('post-title').getByText('A spring walk').waitFor();
    // The list loads a thumbnail the server made for its width (UP-20), not the whole photo.
    const listed = alice.page
      .getByTestId('post')
      .filter({ hasText: 'Spring at the lake' })
      .getByRole('img', { name: 'Image 1' });
    await expect
      .poll(() => listed.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
      .toBe(256);
    expect(await listed.getAttribute('src')).toContain('?x-oss-process=image/resize,m_lfit,w_256');
    expect(await listed.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(160);

    await alice.page.getByRole('button', { name: 'Post' }).click();
    await alice.page.getByLabel('Title').fill('Hills or sea?');
    await alice.page.getByLabel('Text').fill('Where shall we go next?');
    await alice.page.getByText('Add a vote').click();
    await alice.page.getByRole('textbox', { name: 'Option 1' }).fill('Hills');
    await alice.page.getByRole('textbox', { name: 'Option 2' }).fill('Sea');
    await alice.page.getByText('7 days').click();
    await alice.page.screenshot({ path: `${SHOTS}circle-post-vote-en.png` });
    await alice.page.getByRole('button', { name: 'Post' }).last().click();
    await alice.page.waitForURL(/#\/pages\/quanzi\/index$/);
    await alice.page.getByTestId('vote').getByText('0 votes', { exact: false }).waitFor();
    await alice.context.close();

    const bob = await phoneContext(app.browser, 'en-US');
    await signIn(bob.page, app.server, '13600136051', 'en');
    await bob.page.goto(`${app.server.url}/h5/#/pages/quanzi/index`);
    await bob.page.getByTestId('vote').getByRole('button', { name: 'Sea' }).click();
    await bob.page
      .getByTestId('vote')
      .getByText(/my vote/)
      .waitFor();
    // Voted: the results stay after a reload, and there is nothing to vote for again.
    await bob.page.reload();
    await bob.page
      .getByTestId('vote')
      .getByText(/my vote/)
      .waitFor();
    expect(await bob.page.getByTestId('vote').getByRole('button').count()).toBe(0);
    await bob.page.screenshot({ path: `${SHOTS}circle-en.png` });
    // Bob likes the photo post and comments on it; the circle counts both.
    const photoPost = bob.page.getByTestId('post').filter({ hasText: 'Spring at the lake' });
    await photoPost.getByRole('button', { name: 'Like', exact: true }).click();
    await photoPost.getByText('1 like', { exact: true }).waitFor();
    await photoPost.getByText('0 comments').click();
    await bob.page.waitForURL(/#\/article\/ping\?id=\w+&type=quanzi$/);
    await bob.page.getByRole('textbox', { name: 'Write a comment' }).fill('Lovely light');
    await bob.page.getByRole('button', { name: 'Send' }).click();
    await bob.page.getByTestId('comment').getByText('Lovely light').waitFor();
    await bob.page.goBack();
    await photoPost.getByText('1 comment', { exact: true }).waitFor();
    await photoPost.getByText('1 like', { exact: true }).click();
    await bob.page.waitForURL(/#\/article\/ping-zan\?id=\w+&type=quanzi$/);
    await bob.page.getByTestId('liker').getByText('user6051').waitFor();
    await bob.context.close();

    const visitor = await phoneContext(app.browser, 'en-US');
    await visitor.page.goto(`${app.server.url}/h5/#/pages/quanzi/index`);
    await visitor.page.getByTestId('vote').getByText('1 vote · ends', { exact: false }).waitFor();
    await visitor.page.getByTestId('vote').getByRole('button', { name: 'Hills' }).click();
    await visitor.page.waitForURL(/#\/user\/login/);
    await visitor.context.close();
  });

  it('the operator adds a topic; a member posts to it from its page; the topic lists the post', async () => {
    const res = await fetch(`${app.server.url}/api/v1/apps/demo-appkey/circle-topics`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-secret-key', 'content-type': 'application/json' },
      body: JSON.stringify({ title: '春游', intro: '去哪儿走走' }),
    });
    expect(res.status).toBe(200);
    const { context, page } = await phoneContext(app.browser, 'zh-CN');
    await signIn(page, app.server, '13600136052', 'zh-CN');
    await page.goto(`${app.server.url}/h5/#/pages/quanzi/index`);
    await page.getByRole('button', { name: '话题' }).click();
    await page.waitForURL(/#\/topic\/index$/);
    await page.getByText('#春游#').click();
    await page.waitForURL(/#\/topic\/list\?id=/);
    await page.getByText('这个话题还没有帖子').waitFor();
    await page.getByRole('button', { name: '发帖' }).click();
    await page.getByLabel('标题').fill('山上的花开了');
    await page.getByLabel('正文').fill('山上的花开了，去看看吧');
    await page.getByRole('button', { name: '发布' }).click();
    await page.waitForURL(/#\/topic\/list\?id=/);
    await page.getByTestId('post').getByTestId('post-title').getByText('山上的花开了').waitFor();
    await page.getByTestId('topic-head').getByText('1 条帖子').waitFor();
    await page.screenshot({ path: `${SHOTS}topic-zh-CN.png` });
    // The member's home lists it under Posts.
    await page.goto(`${app.server.url}/h5/#/user/home`);
    await page.getByRole('tab', { name: '帖子' }).click();
    await page.getByTestId('post').getByText('山上的花开了，去看看吧').waitFor();
    await context.close();
  });
});
