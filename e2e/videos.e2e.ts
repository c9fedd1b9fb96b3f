import { describe, expect, it } from 'vitest';
import {
  SHOTS,
  appUnderTest,
  memberOf,
  phoneContext,
  pngFile,
  productApi as api,
  signIn,
  uploadFile as upload,
} from './support.js';

describe('videos end to end', () => {
  const app = appUnderTest();

  it('a member publishes a video with its cover; it plays on its page, a visitor finds it in the video tab, and a circle post holds one', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const id = await signIn(page, app.server, '13600136090', 'en');
    await page.goto(`${app.server.url}/h5/#/pages/video/index`);
    await page.getByText('No videos yet').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/#\/member\/add-video$/);

    await page.getByLabel('Title').fill('Ducks on the lake');
    await page.getByLabel('Description').fill('Filmed from the pier at dusk.');
    // Refused before anything is uploaded: the video comes first, then its cover.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Please upload a video').waitFor();
    const clip = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypmp42'), Buffer.alloc(4096, 7)]);
    await page.getByLabel('Choose a video').setInputFiles({ name: 'ducks.mp4', mimeType: 'video/mp4', buffer: clip });
    await page.getByText('ducks.mp4 · 4 KB').waitFor();
    // The picked clip plays in the form before anything is uploaded.
    expect(await page.getByTestId('picked-video-preview').getAttribute('src')).toMatch(/^blob:/);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('A video cover is required').waitFor();
    const cover = pngFile(64, 36, (x) => (x < 32 ? [30, 90, 160] : [230, 200, 120]));
    await page.getByLabel('Choose a cover').setInputFiles({ name: 'ducks.png', mimeType: 'image/png', buffer: cover });
    await page.getByRole('img', { name: 'Cover' }).waitFor();
    await page.getByText('A video cover is required').waitFor({ state: 'hidden' });
    await page.screenshot({ path: `${SHOTS}video-form-en.png` });

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published').waitFor();
    await page.getByRole('button', { name: 'View content' }).click();
    await page.waitForURL(/#\/video\/view\?id=/);
    await page.getByRole('heading', { name: 'Ducks on the lake' }).waitFor();
    await page.getByText('Filmed from the pier at dusk.').waitFor();
    const player = page.getByTestId('video-player');
    const stored = new RegExp(`^${app.server.url}/uploads/product/[0-9a-f]{16}/${id}/parley_[a-z0-9]{32}\\.`);
    const src = (await player.getAttribute('src')) ?? '';
    const poster = (await player.getAttribute('poster')) ?? '';
    expect(src).toMatch(new RegExp(`${stored.source}mp4$`));
    expect(poster).toMatch(new RegExp(`${stored.source}png$`));
    // What the storage holds is what the member picked.
    expect(Buffer.from(await (await fetch(src)).arrayBuffer()).equals(clip)).toBe(true);
    await page.getByText('Published').waitFor({ state: 'hidden' });
    await page.screenshot({ path: `${SHOTS}video-view-en.png` });

    // A visitor finds it in the video tab, its cover decoded by the browser, and opens it.
    const visitor = await phoneContext(app.browser, 'en-US');
    await visitor.page.goto(`${app.server.url}/h5/#/pages/video/index`);
    const card = visitor.page.getByTestId('video').filter({ hasText: 'Ducks on the lake' });
    await card.waitFor();
    await expect
      .poll(() =>
        card
          .locator('.video-cover img')
          .evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth),
      )
      .toBe(64);
    await visitor.page.screenshot({ path: `${SHOTS}video-tab-en.png` });
    await card.getByText('Ducks on the lake').click();
    await visitor.page.waitForURL(/#\/video\/view\?id=/);
    expect(await visitor.page.getByTestId('video-player').getAttribute('src')).toBe(src);

    // A second video, published through the API; the newest one's cover opens the short videos at it, the first after.
    const { token } = await memberOf(page);
    const second = await api(app.server, 'member/video_add', {
      token,
      title: 'Swans at noon',
      content: 'From the bridge.',
      video: await upload(app.server, token, { name: 'swans.mp4', type: 'video/mp4', buffer: clip }),
      img: await upload(app.server, token, { name: 'swans.png', type: 'image/png', buffer: cover }),
    });
    expect(typeof second['vid']).toBe('string');
    await visitor.page.goto(`${app.server.url}/h5/#/pages/video/index`);
    await visitor.page
      .getByTestId('video')
      .filter({ hasText: 'Swans at noon' })
      .getByRole('button', { name: 'Play' })
      .click();
    await visitor.page.waitForURL(/#\/svideo\/index\?id=/);
    const slides = visitor.page.getByTestId('svideo');
    await expect.poll(() => slides.count()).toBe(2);
    const inView = visitor.page.locator('[data-testid="svideo"][aria-current="true"]');
    expect(await inView.getAttribute('aria-label')).toBe('Swans at noon');
    // Each slide fills the screen; a swipe (the feed scrolled by one screen) snaps to the next, which plays.
    const feed = visitor.page.getByRole('feed');
    const box = await slides.first().boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 780 });
    await feed.evaluate((element) => element.scrollTo({ top: element.clientHeight }));
    await expect.poll(() => inView.getAttribute('aria-label')).toBe('Ducks on the lake');
    expect(await inView.getByTestId('svideo-player').getAttribute('src')).toBe(src);
    await visitor.page.screenshot({ path: `${SHOTS}svideo-en.png` });
    await feed.focus();
    await visitor.page.keyboard.press('ArrowUp');
    await expect.poll(() => inView.getAttribute('aria-label')).toBe('Swans at noon');
    await expect.poll(() => feed.evaluate((element) => element.scrollTop)).toBe(0);
    // A plain article's feed does not list it.
    await visitor.page.goto(`${app.server.url}/h5/#/pages/article/index`);
    await visitor.page.getByText('No articles yet: be the first to write one').waitFor();
    await visitor.context.close();

    // A circle post with a video: uploaded again from the form, played in the circle.
    await page.goto(`${app.server.url}/h5/#/pages/quanzi/index`);
    await page.getByRole('button', { name: 'Post' }).click();
    await page.waitForURL(/#\/member\/add-quanzi$/);
    await page.getByLabel('Title').fill('Ducks again');
    await page.getByLabel('Text').fill('The ducks again, from the circle');
    await page.getByText('Add a video').click();
    await page.getByLabel('Choose a video').setInputFiles({ name: 'ducks.mp4', mimeType: 'video/mp4', buffer: clip });
    await page.getByLabel('Choose a cover').setInputFiles({ name: 'ducks.png', mimeType: 'image/png', buffer: cover });
    await page.getByRole('img', { name: 'Cover' }).waitFor();
    await page.getByRole('button', { name: 'Post' }).last().click();
    await page.waitForURL(/#\/pages\/quanzi\/index$/);
    const posted = page.getByTestId('post').filter({ hasText: 'The ducks again, from the circle' });
    const circlePlayer = posted.getByTestId('post-video');
    await circlePlayer.waitFor();
    expect((await circlePlayer.getAttribute('src')) ?? '').toMatch(new RegExp(`${stored.source}mp4$`));
    expect((await circlePlayer.getAttribute('poster')) ?? '').toMatch(new RegExp(`${stored.source}png$`));
    await page.screenshot({ path: `${SHOTS}circle-video-en.png` });

    expect(dialogs).toEqual([]);
    await context.close();
  });
});
