import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn, type E2eServer } from './support.js';

const DAY = 86_400_000;

/** The operator's withdrawal queue and review, as the demo app's server calls them. */
async function rejectFirst(server: E2eServer, memberId: string, reason: string) {
  const base = `${server.url}/api/v1/apps/demo-appkey/withdrawals`;
  const auth = { authorization: 'Bearer demo-secret-key' };
  const queue = (await (await fetch(base, { headers: auth })).json()) as {
    content: Array<{ id: string; memberId: string; account: string; amount: number }>;
  };
  const withdrawal = queue.content.find((w) => w.memberId === memberId);
  expect(withdrawal).toMatchObject({ account: 'wang@example.cn', amount: 1 });
  const res = await fetch(`${base}/${withdrawal?.id}/review`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ paid: false, reason }),
  });
  expect(res.status).toBe(200);
}

describe('coin withdrawal end to end', () => {
  const app = appUnderTest();

  it('a member binds Alipay, withdraws a yuan of coins, and sees it rejected with the coins back', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const id = await signIn(page, app.server, '13600136009', 'en');
    // Eight days of sign-ins: 80 coins and the seventh day's 50.
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string }).token,
    );
    for (let day = 0; day < 8; day += 1) {
      const res = await fetch(`${app.server.url}/index.php/api/renwu/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(res.status).toBe(200);
      app.server.advance(DAY);
    }

    await page.goto(`${app.server.url}/h5/#/renwu/index`);
    await page.getByText('Withdraw', { exact: true }).click();
    await page.waitForURL(/#\/renwu\/tixian$/);
    await page.getByText('Worth 1 yuan').waitFor();
    await page.getByRole('button', { name: 'Bind' }).first().click();
    await page.waitForURL(/#\/renwu\/tixian_band\?type=alipay$/);
    await page.getByRole('textbox', { name: 'Real name' }).fill('王小明');
    await page.getByRole('textbox', { name: 'Alipay account' }).fill('wang@example.cn');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/renwu\/tixian$/);
    await page.getByText('王小明 wang@example.cn').waitFor();

    await page.getByRole('textbox', { name: 'Amount (yuan)' }).fill('1');
    await page.getByText('Withdrawal Agreement', { exact: true }).click();
    await page.getByText('1. Coins and money').waitFor();
    await page.screenshot({ path: `${SHOTS}withdrawal-agreement-en.png` });
    await page.locator('.adm-popup-close-icon').click();
    await page.getByText('I have read and agree to the').click();
    await page.screenshot({ path: `${SHOTS}withdrawal-en.png` });
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.waitForURL(/#\/renwu\/tixian_list$/);
    await page.getByText('Under review').waitFor();
    await page.getByText('1 yuan to Alipay w***@example.cn').waitFor();

    await rejectFirst(app.server, id, 'Name does not match the account');
    await page.reload();
    await page.getByText('Rejected: coins returned').waitFor();
    await page.getByText('Reason: Name does not match the account').waitFor();
    await page.screenshot({ path: `${SHOTS}withdrawal-records-en.png` });
    await page.goto(`${app.server.url}/h5/#/renwu/jinbi`);
    await page.getByText('Withdrawal returned').waitFor();
    await page.getByText('-100').waitFor();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
