import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn } from './support.js';

describe('invitations end to end', () => {
  const app = appUnderTest();

  it('a friend signs up through the invitation link, and the inviter finds them and the coins', async () => {
    const alice = await phoneContext(app.browser, 'zh-CN');
    const aliceId = await signIn(alice.page, app.server, '13600136010', 'zh-CN');
    await alice.page.goto(`${app.server.url}/h5/#/renwu/index`);
    await alice.page.getByText('邀请好友', { exact: true }).click();
    await alice.page.waitForURL(/#\/renwu\/yaoqing$/);
    expect(await alice.page.getByTestId('invite-code').textContent()).toBe(aliceId);
    await alice.page.getByText('还没有邀请好友').waitFor();

    // The friend opens the link on their own phone and signs up.
    const bob = await phoneContext(app.browser, 'zh-CN');
    await signIn(bob.page, app.server, '13600136011', 'zh-CN', `user/login?invite=${aliceId}`);
    await bob.context.close();

    await alice.page.reload();
    await alice.page.getByText('已邀请 1 位好友 · 已获得 100 金币').waitFor();
    await alice.page.getByTestId('invited').getByText('user6011').waitFor();
    await alice.page.screenshot({ path: `${SHOTS}invitation-zh.png` });
    await alice.page.goto(`${app.server.url}/h5/#/member/notify`);
    await alice.page.getByText('user6011 通过你的邀请注册了：+100 金币').waitFor();
    expect(alice.dialogs).toEqual([]);
    await alice.context.close();
  });
});
