import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn } from './support.js';

describe('follows end to end', () => {
  const app = appUnderTest();

  it('a member finds another and follows them from their home; the other follows back from their followers; a block ends both', async () => {
    const alice = await phoneContext(app.browser, 'en-US');
    const bob = await phoneContext(app.browser, 'en-US');
    const aliceId = await signIn(alice.page, app.server, '13800138021', 'en');
    const bobId = await signIn(bob.page, app.server, '13900139022', 'en');

    // Alice finds Bob by his nickname from the user tab, and opens his home.
    await alice.page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await alice.page.getByText('Find friends', { exact: true }).click();
    await alice.page.waitForURL(/#\/user\/user_list$/);
    await alice.page.getByRole('searchbox').fill('9022');
    const found = alice.page.getByTestId('follow-line');
    // The search answers once typing pauses: Bob alone.
    await expect.poll(() => found.count()).toBe(1);
    await found.getByText('user9022').waitFor();
    await alice.page.screenshot({ path: `${SHOTS}find-friends-en.png` });
    await found.click();

    // She follows him from his home; his fan count goes up.
    await alice.page.waitForURL(new RegExp(`#/user/home\\?id=${bobId}`));
    await alice.page.getByText(`ID: ${bobId}`).waitFor();
    await alice.page.getByRole('button', { name: 'Follow', exact: true }).click();
    await alice.page.getByRole('button', { name: 'Following', exact: true }).waitFor();
    expect(await alice.page.getByTestId('count-fans').locator('strong').textContent()).toBe('1');
    await alice.page.screenshot({ path: `${SHOTS}user-home-following-en.png` });

    // Bob sees a follower on his user tab, and follows back from the list.
    await bob.page.goto(`${app.server.url}/h5/#/pages/user/index`);
    const fans = bob.page.getByTestId('count-fans');
    await fans.getByText('1', { exact: true }).waitFor();
    await bob.page.screenshot({ path: `${SHOTS}mine-follow-counts-en.png` });
    await fans.click();
    await bob.page.waitForURL(/#\/member\/guanzhu\?tab=fans/);
    const line = bob.page.getByTestId('follow-line');
    await line.getByText(/^user/).waitFor();
    expect(await line.count()).toBe(1);
    await line.getByRole('button', { name: 'Follow back' }).click();
    await line.getByRole('button', { name: 'Mutual' }).waitFor();
    await bob.page.screenshot({ path: `${SHOTS}followers-en.png` });

    // Alice's lists show Bob both ways.
    await alice.page.goto(`${app.server.url}/h5/#/member/guanzhu`);
    await alice.page.getByTestId('follow-line').getByRole('button', { name: 'Following' }).waitFor();
    await alice.page.getByRole('tab', { name: 'Followers' }).click();
    await alice.page.getByTestId('follow-line').getByRole('button', { name: 'Mutual' }).waitFor();
    await alice.page.screenshot({ path: `${SHOTS}follows-en.png` });

    // Alice blocks Bob from his home: neither follows the other any more.
    await alice.page.goto(`${app.server.url}/h5/#/user/home?id=${bobId}`);
    await alice.page.getByRole('button', { name: 'Block', exact: true }).click();
    await alice.page.getByText(/You blocked this user/).waitFor();
    await expect.poll(() => alice.page.getByTestId('count-fans').locator('strong').textContent()).toBe('0');
    await alice.page.goto(`${app.server.url}/h5/#/member/guanzhu`);
    await alice.page.getByText('Not following anyone yet').waitFor();
    await bob.page.goto(`${app.server.url}/h5/#/user/home?id=${aliceId}`);
    await bob.page.getByRole('button', { name: 'Follow', exact: true }).click();
    await bob.page.getByText('The user does not exist or is blocked').waitFor();
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });
});
