import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SHOTS, appUnderTest, memberOf, phoneContext, productApi, signIn, type E2eServer } from './support.js';

/** Calls the product API as the member signed in on `page`. */
const api = async (server: E2eServer, page: Page, path: string, body: Record<string, unknown>) =>
  productApi(server, path, { token: (await memberOf(page)).token, ...body });

describe('notifications end to end', () => {
  const app = appUnderTest();

  it('a new follower shows on the user tab and in the list, which clears the badge; the setting stops them', async () => {
    const alice = await phoneContext(app.browser, 'en-US');
    const bob = await phoneContext(app.browser, 'en-US');
    const aliceId = await signIn(alice.page, app.server, '13800138031', 'en');
    await signIn(bob.page, app.server, '13900139032', 'en');

    const followAlice = async (label: 'Follow' | 'Following') => {
      await bob.page.goto(`${app.server.url}/h5/#/user/home?id=${aliceId}`);
      await bob.page.getByRole('button', { name: label, exact: true }).click();
      if (label === 'Following') await bob.page.getByRole('button', { name: 'Unfollow' }).click();
      await bob.page.getByRole('button', { name: label === 'Follow' ? 'Following' : 'Follow', exact: true }).waitFor();
    };
    await followAlice('Follow');

    await alice.page.goto(`${app.server.url}/h5/#/pages/user/index`);
    const entry = alice.page.locator('.adm-list-item', { hasText: 'Notifications' });
    await entry.locator('.adm-badge', { hasText: '1' }).waitFor();
    await alice.page.screenshot({ path: `${SHOTS}mine-notifications-en.png` });
    await entry.click();
    await alice.page.waitForURL(/#\/member\/notify$/);
    await alice.page.getByText('user9032 followed you').waitFor();
    await alice.page.screenshot({ path: `${SHOTS}notifications-en.png` });
    await alice.page.goBack();
    await alice.page.getByText('Notifications', { exact: true }).waitFor();
    expect(await entry.locator('.adm-badge').count()).toBe(0);

    // Alice switches new followers off: Bob following again tells her nothing.
    await alice.page.goto(`${app.server.url}/h5/#/member/notify`);
    await alice.page.getByRole('button', { name: 'Settings' }).click();
    await alice.page.waitForURL(/#\/member\/sz-notify$/);
    const toggle = alice.page.getByRole('switch', { name: 'New followers' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await followAlice('Following');
    await followAlice('Follow');
    await alice.page.goto(`${app.server.url}/h5/#/member/notify`);
    await alice.page.getByText('user9032 followed you').waitFor();
    expect(await alice.page.getByTestId('notice').getAttribute('data-read')).toBe('true');
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });

  it('a comment and a like reach the author at once: the badge counts them without a reload, and one opens the comments', async () => {
    const alice = await phoneContext(app.browser, 'en-US');
    const bob = await phoneContext(app.browser, 'en-US');
    await signIn(alice.page, app.server, '13800138033', 'en');
    await signIn(bob.page, app.server, '13900139034', 'en');
    const article = await api(app.server, alice.page, 'member/article_add', {
      title: 'A day at the lake',
      content: 'We walked all afternoon.',
    });
    await alice.page.goto(`${app.server.url}/h5/#/pages/user/index`);
    const entry = alice.page.locator('.adm-list-item', { hasText: 'Notifications' });
    await entry.waitFor();
    expect(await entry.locator('.adm-badge').count()).toBe(0);
    // Alice's page stays as it is; what Bob does reaches it over her messaging connection.
    await api(app.server, bob.page, 'article/zan', { id: article['id'], zan: true });
    await entry.locator('.adm-badge', { hasText: '1' }).waitFor();
    await api(app.server, bob.page, 'article/ping_add', { id: article['id'], content: 'Lovely light' });
    await entry.locator('.adm-badge', { hasText: '2' }).waitFor();
    await entry.click();
    await alice.page.waitForURL(/#\/member\/notify$/);
    await alice.page.getByText('user9034 liked your article “A day at the lake”').waitFor();
    await alice.page.getByText('user9034 commented on your article “A day at the lake”: Lovely light').click();
    await alice.page.waitForURL(/#\/article\/ping\?id=/);
    await alice.page.getByTestId('comment').getByText('Lovely light').waitFor();
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });
});
