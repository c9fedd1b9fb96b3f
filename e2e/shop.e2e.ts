import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, pngFile, signIn, type E2eServer } from './support.js';

const AUTH = { authorization: 'Bearer demo-secret-key' };

/** The operator passes the member's certification or reviews their shop application, as the demo's server is called. */
async function review(server: E2eServer, queue: 'certifications' | 'shops', memberId: string, decision: object) {
  const base = `${server.url}/api/v1/apps/demo-appkey/${queue}`;
  const listed = (await (await fetch(base, { headers: AUTH })).json()) as {
    content: Array<{ id?: string; memberId: string; submittedAt: number }>;
  };
  const item = listed.content.find((entry) => entry.memberId === memberId);
  expect(item).toBeDefined();
  const res = await fetch(`${base}/${item?.id ?? memberId}/review`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ ...decision, submittedAt: item?.submittedAt }),
  });
  expect(res.status).toBe(200);
}

describe('shop application end to end', () => {
  const app = appUnderTest();

  it('a member is sent to certification, then applies for a shop, is approved and opens My shop', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const id = await signIn(page, app.server, '13600136012', 'en');
    const photo = pngFile(64, 64, (x) => (x < 32 ? [40, 140, 90] : [250, 250, 250]));

    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.getByText('My shop', { exact: true }).click();
    await page.waitForURL(/#\/shop\/business-index$/);
    await page.getByText('You have no shop yet').waitFor();
    await page.getByRole('button', { name: 'Open a shop' }).click();
    await page.waitForURL(/#\/shop\/user-add$/);
    await page.getByText('Real-name certification first').waitFor();
    await page.getByRole('button', { name: 'Get certified' }).click();
    await page.waitForURL(/#\/member\/renzheng$/);
    await page.getByRole('textbox', { name: 'Real name' }).fill('Wang Xiaoming');
    await page.getByRole('textbox', { name: 'ID card number' }).fill('11010519491231002X');
    for (const side of ['Front', 'Back']) {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: side, exact: true }).click();
      await (await chooser).setFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: photo });
      await page.getByRole('button', { name: side, exact: true }).locator('img').waitFor();
    }
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Under review').waitFor();
    await review(app.server, 'certifications', id, { pass: true });

    await page.goto(`${app.server.url}/h5/#/shop/user-add`);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Shop icon' }).click();
    await (await chooser).setFiles({ name: 'icon.png', mimeType: 'image/png', buffer: photo });
    await page.getByRole('button', { name: 'Shop icon' }).locator('img').waitFor();
    await page.getByRole('textbox', { name: 'Shop name' }).fill('Hill Tea House');
    await page.getByRole('textbox', { name: 'Description' }).fill('Green tea from the hills, picked each spring.');
    await page.screenshot({ path: `${SHOTS}shop-apply-en.png` });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Your application is under review').waitFor();
    await page.screenshot({ path: `${SHOTS}shop-pending-en.png` });

    await review(app.server, 'shops', id, { pass: true });
    await page.goto(`${app.server.url}/h5/#/member/notify`);
    await page.getByText('Your shop “Hill Tea House” is open').click();
    await page.waitForURL(/#\/shop\/business-index$/);
    await page.getByText('Green tea from the hills, picked each spring.').waitFor();
    await page.getByText('Add a product').waitFor();
    await page.screenshot({ path: `${SHOTS}shop-business-en.png` });
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
