import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn } from './support.js';

describe('account cancellation end to end', () => {
  const app = appUnderTest();

  it('a member cancels their account from settings; the phone then signs up as someone new', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const phone = '13500135003';
    const id = await signIn(page, app.server, phone, 'en');

    await page.goto(`${app.server.url}/h5/#/member/sz`);
    await page.getByText('Cancel account', { exact: true }).click();
    await page.waitForURL(/#\/member\/out/);
    await page.getByText('I have another account').click();
    // The agreement opens from its link and back leads to the form as it was.
    await page.getByRole('link', { name: 'Account Cancellation Agreement' }).click();
    await page.getByRole('heading', { name: 'Account Cancellation Agreement', level: 1 }).waitFor();
    await page.goBack();
    await page.waitForURL(/#\/member\/out/);
    // Back from the agreement, the reason chosen is still chosen.
    await page.locator('.adm-radio-checked', { hasText: 'I have another account' }).waitFor({ timeout: 5000 });
    await page.locator('.out-agree .adm-checkbox-icon').click();
    await page.screenshot({ path: `${SHOTS}cancel-account-en.png` });
    await page.locator('.page-actions').getByRole('button', { name: 'Cancel account' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel account' }).click();

    await page.waitForURL(/#\/pages\/article\/index/);
    await page.getByText('Your account has been cancelled').waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('user'), localStorage.getItem('user_out')])).toEqual([
      null,
      null,
    ]);

    // The same number signs in again, as a new member: the cancelled account's pending code went with it.
    const again = await signIn(page, app.server, phone, 'en');
    expect(again).not.toBe(id);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
