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

  it('a member is sent to certification, applies for a shop, is approved, and sells a product', async () => {
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

    // A product: added to be reviewed, passed by the operator, on sale in the shop tab.
    const category = await fetch(`${app.server.url}/api/v1/apps/demo-appkey/product-categories`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Green tea' }),
    });
    expect(category.status).toBe(200);
    await page.getByText('Add a product').click();
    await page.waitForURL(/#\/shop\/business-add$/);
    const picture = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add an image' }).click();
    await (await picture).setFiles({ name: 'tea.png', mimeType: 'image/png', buffer: photo });
    await page.getByRole('img', { name: 'Image 1' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Spring green tea, 250 g');
    await page.getByRole('textbox', { name: 'Price (yuan)' }).fill('68.5');
    await page.getByRole('textbox', { name: 'Stock' }).fill('40');
    await page.getByText('Green tea', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Details' }).fill('Picked in April on the hills.');
    await page.screenshot({ path: `${SHOTS}product-add-en.png` });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL(/#\/shop\/business-list$/);
    await page.getByText('To be reviewed').waitFor();

    const queue = (await (
      await fetch(`${app.server.url}/api/v1/apps/demo-appkey/products`, { headers: AUTH })
    ).json()) as {
      content: Array<{ id: string; memberId: string; price: number }>;
    };
    const added = queue.content.find((entry) => entry.memberId === id);
    expect(added?.price).toBe(68.5);
    const passed = await fetch(`${app.server.url}/api/v1/apps/demo-appkey/products/${added?.id}/review`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'pass' }),
    });
    expect(passed.status).toBe(200);
    await page.goto(`${app.server.url}/h5/#/pages/shop/index`);
    await page.getByText('Spring green tea, 250 g').waitFor();
    await page.screenshot({ path: `${SHOTS}shop-tab-en.png` });
    await page.getByText('Spring green tea, 250 g').click();
    await page.waitForURL(/#\/shop\/view\?id=/);
    await page.getByText('Picked in April on the hills.').waitFor();
    await page.getByText('40 in stock').waitFor();
    await page.screenshot({ path: `${SHOTS}product-view-en.png` });
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
