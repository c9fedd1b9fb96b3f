import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn } from './support.js';

const XSS = '<img src=x onerror=alert(1)>';

describe('product app end to end', () => {
  const app = appUnderTest();

  it('two users sign in, chat both ways with a read mark, and user content stays text', async () => {
    const alice = await phoneContext(app.browser, 'zh-CN');
    const bob = await phoneContext(app.browser, 'en-US');
    const aliceId = await signIn(alice.page, app.server, '13800138001', 'zh-CN');
    const bobId = await signIn(bob.page, app.server, '13900139002', 'en');
    expect(aliceId).not.toBe(bobId);

    // Both languages: the tab bar reads Chinese for Alice and English for Bob.
    await expect.poll(() => alice.page.locator('.app-tabbar').innerText()).toContain('首页');
    await expect.poll(() => bob.page.locator('.app-tabbar').innerText()).toContain('Home');
    await alice.page.screenshot({ path: `${SHOTS}home-zh.png` });
    await bob.page.screenshot({ path: `${SHOTS}home-en.png` });

    // Alice writes to Bob.
    await alice.page.goto(`${app.server.url}/h5/#/im/view?uid=${bobId}`);
    await alice.page.getByPlaceholder('说点什么…').fill('hello from Alice');
    await alice.page.getByRole('button', { name: '发送' }).click();
    await alice.page.locator('[data-testid=message][data-status=success]').first().waitFor();

    // Bob sees the conversation, opens it, and Alice gets the read mark.
    await bob.page.goto(`${app.server.url}/h5/#/im/index`);
    const row = bob.page.getByTestId('conversation').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('hello from Alice');
    await bob.page.screenshot({ path: `${SHOTS}conversations-en.png` });
    await row.click();
    await bob.page.getByText('hello from Alice').waitFor();
    await alice.page.getByTestId('read-mark').filter({ hasText: '已读' }).waitFor();

    // Bob answers with markup: Alice sees it as text, no image element appears and no dialog opens.
    // While he types, Alice sees that he does; his message ends it (TYPING-1..TYPING-3).
    await bob.page.getByPlaceholder('Say something…').fill(XSS);
    await alice.page.getByText('对方正在输入…').waitFor();
    await bob.page.getByRole('button', { name: 'Send' }).click();
    await alice.page.locator('.bubble').filter({ hasText: XSS }).waitFor();
    await alice.page.getByText('对方正在输入…').waitFor({ state: 'detached' });
    expect(await alice.page.locator('.messages img[src="x"]').count()).toBe(0);
    await alice.page.waitForTimeout(300);
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);
    await alice.page.screenshot({ path: `${SHOTS}chat-zh.png` });
    await bob.page.screenshot({ path: `${SHOTS}chat-en.png` });

    await alice.context.close();
    await bob.context.close();
  });

  it('renders in dark mode, by the system setting and by the settings switch', async () => {
    const { context, page } = await phoneContext(app.browser, 'en-US');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.locator('.app-tabbar').waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.screenshot({ path: `${SHOTS}mine-dark.png` });

    // Settings are a member page (spec §2).
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, app.server, '13700137003', 'en');
    await page.goto(`${app.server.url}/h5/#/member/sz`);
    await page.getByText('On', { exact: true }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('dark_mode'))).toBe('dark');
    await page.screenshot({ path: `${SHOTS}settings-dark.png` });
    await context.close();
  });

  it('switches language on the login page and keeps the choice', async () => {
    const { context, page } = await phoneContext(app.browser, 'en-US');
    await page.goto(`${app.server.url}/h5/#/user/login`);
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByText('简体中文').click();
    await page.getByText('手机号登录').waitFor();
    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await expect.poll(() => page.locator('.app-tabbar').innerText()).toContain('我的');
    await page.reload();
    await expect.poll(() => page.locator('.app-tabbar').innerText()).toContain('我的');
    await page.screenshot({ path: `${SHOTS}mine-zh.png` });
    await context.close();
  });

  it('sends a visitor from a protected page to the login page, and says a page the app does not have does not exist', async () => {
    const { context, page } = await phoneContext(app.browser, 'en-US');
    await page.goto(`${app.server.url}/h5/#/im/index`);
    await page.waitForURL(/#\/user\/login\?redirect=/);
    // The agreements open from the login page, in the app.
    await page.getByRole('link', { name: 'User Agreement' }).click();
    await page.getByRole('heading', { name: 'User Agreement' }).waitFor();
    await page.screenshot({ path: `${SHOTS}agreement-en.png` });
    // Every page of spec §2 is built; an address outside them is no page at all.
    await page.goto(`${app.server.url}/h5/#/article/nowhere`);
    await page.getByText('Link does not exist').first().waitFor();
    await page.screenshot({ path: `${SHOTS}link-missing.png` });
    await context.close();
  });
});
