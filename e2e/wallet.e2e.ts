import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn, type E2eServer } from './support.js';

/** The deployment's payment service reporting the member's unpaid recharge paid, through the operator's API. */
async function reportPaid(server: E2eServer, memberId: string, reference: string) {
  const base = `${server.url}/api/v1/apps/demo-appkey/recharges`;
  const auth = { authorization: 'Bearer demo-secret-key' };
  const queue = (await (await fetch(base, { headers: auth })).json()) as {
    content: Array<{ id: string; memberId: string; amount: number; method: string }>;
  };
  const recharge = queue.content.find((r) => r.memberId === memberId);
  expect(recharge).toMatchObject({ amount: 50, method: 'wechat' });
  const res = await fetch(`${base}/${recharge?.id}/review`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ paid: true, reference }),
  });
  expect(res.status).toBe(200);
}

describe('wallet end to end', () => {
  const app = appUnderTest();

  it('a member recharges 50 yuan by WeChat Pay, is told when it is paid, and sees the balance and the details', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const id = await signIn(page, app.server, '13600136011', 'en');

    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.getByText('Wallet', { exact: true }).click();
    await page.waitForURL(/#\/member\/money$/);
    await page.getByText('¥0.00').waitFor();
    await page.getByRole('button', { name: 'Recharge' }).click();
    await page.waitForURL(/#\/member\/recharge$/);
    await page.getByRole('button', { name: '50 yuan' }).click();
    await page.getByText('WeChat Pay').click();
    await page.getByText('Recharge Agreement', { exact: true }).click();
    await page.getByText('1. Your balance').waitFor();
    await page.screenshot({ path: `${SHOTS}recharge-agreement-en.png` });
    await page.locator('.adm-popup-close-icon').click();
    await page.getByText('I have read and agree to the').click();
    await page.screenshot({ path: `${SHOTS}recharge-en.png` });
    await page.getByRole('button', { name: 'Recharge', exact: true }).click();
    await page.waitForURL(/#\/member\/recharge-records$/);
    await page.getByText('Waiting for payment').waitFor();
    await page.getByText('¥50.00 by WeChat Pay').waitFor();

    await reportPaid(app.server, id, 'WX-4200001');
    await page.reload();
    await page.getByText('Paid', { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}recharge-records-en.png` });
    await page.goto(`${app.server.url}/h5/#/member/notify`);
    await page.getByText('Your recharge of 50 yuan has arrived in your wallet').click();
    await page.waitForURL(/#\/member\/recharge-records$/);
    await page.goto(`${app.server.url}/h5/#/member/money`);
    await page.getByText('¥50.00').waitFor();
    await page.screenshot({ path: `${SHOTS}wallet-en.png` });
    await page.getByText('Balance details').click();
    await page.getByText('+¥50.00').waitFor();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
