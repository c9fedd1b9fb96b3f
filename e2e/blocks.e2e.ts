import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn } from './support.js';

describe('block list end to end', () => {
  const app = appUnderTest();

  it('a member blocks another from the chat; neither can message the other until unblocked from the list', async () => {
    const alice = await phoneContext(app.browser, 'en-US');
    const bob = await phoneContext(app.browser, 'en-US');
    const aliceId = await signIn(alice.page, app.server, '13800138011', 'en');
    const bobId = await signIn(bob.page, app.server, '13900139012', 'en');

    await bob.page.goto(`${app.server.url}/h5/#/im/view?uid=${aliceId}`);
    await bob.page.getByPlaceholder('Say something…').fill('hi Alice');
    await bob.page.getByRole('button', { name: 'Send', exact: true }).click();
    await bob.page.locator('[data-testid=message][data-status=success]').first().waitFor();

    // Alice opens Bob's home from the chat's menu, and comes back.
    await alice.page.goto(`${app.server.url}/h5/#/im/view?uid=${bobId}`);
    await alice.page.getByText('hi Alice').waitFor();
    await alice.page.getByRole('button', { name: 'More' }).click();
    await alice.page.getByText('Profile', { exact: true }).click();
    await alice.page.waitForURL(new RegExp(`#/user/home\\?id=${bobId}`));
    await alice.page.getByText(`ID: ${bobId}`).waitFor();
    await alice.page.screenshot({ path: `${SHOTS}user-home-en.png` });
    await alice.page.goBack();
    await alice.page.getByText('hi Alice').waitFor();

    // Alice blocks Bob from the chat's menu.
    await alice.page.getByRole('button', { name: 'More' }).click();
    await alice.page.getByText('Block', { exact: true }).click();
    await alice.page.getByText(/You blocked this user/).waitFor();
    await alice.page.screenshot({ path: `${SHOTS}chat-blocked-en.png` });

    // Bob's next message fails, with the reason.
    await bob.page.getByPlaceholder('Say something…').fill('are you there?');
    await bob.page.getByRole('button', { name: 'Send', exact: true }).click();
    await bob.page.getByText('The user does not exist or is blocked').waitFor();
    await bob.page.locator('[data-testid=message][data-status=fail]').waitFor();
    // Alice cannot write to Bob either.
    await alice.page.getByPlaceholder('Say something…').fill('bye');
    await alice.page.getByRole('button', { name: 'Send', exact: true }).click();
    await alice.page.locator('[data-testid=message][data-status=fail]').waitFor();

    // Alice unblocks Bob from her block list; his messages reach her again.
    await alice.page.goto(`${app.server.url}/h5/#/member/sz`);
    await alice.page.getByText('Block list', { exact: true }).click();
    const row = alice.page.getByTestId('blocked-member');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    await alice.page.screenshot({ path: `${SHOTS}block-list-en.png` });
    await row.getByRole('button', { name: 'Unblock' }).click();
    await alice.page.getByText('No one is blocked').waitFor();

    await bob.page.getByPlaceholder('Say something…').fill('hello again');
    await bob.page.getByRole('button', { name: 'Send', exact: true }).click();
    await bob.page.locator('[data-testid=message][data-status=success]').filter({ hasText: 'hello again' }).waitFor();
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });
});
