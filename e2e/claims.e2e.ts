import { describe, expect, it } from 'vitest';
import { openShop, operator, readyToBuy } from './shop-support.js';
import { SHOTS, appUnderTest, memberOf, phoneContext, pngFile, productApi as api, signIn } from './support.js';

const SELLER_PHONE = '13600136071';
const BUYER_PHONE = '13600136072';

describe('guarantee claims end to end', () => {
  const app = appUnderTest();

  it('a buyer reports a counterfeit with a photo; the seller is told; the platform upholds it; the buyer gets the money back and four times it', async () => {
    const { server } = app;
    const seller = await phoneContext(app.browser, 'en-US');
    await signIn(seller.page, server, SELLER_PHONE, 'en');
    const sellerMember = await memberOf(seller.page);
    const product = await openShop(server, sellerMember, { name: 'River Tea', category: 'Oolong' });

    // The buyer bought it, the seller shipped it and the buyer confirmed receipt, through the APIs.
    const buyer = await phoneContext(app.browser, 'en-US');
    await signIn(buyer.page, server, BUYER_PHONE, 'en');
    const { token } = await memberOf(buyer.page);
    const address = await readyToBuy(server, token);
    const code = await api(server, 'shop/code', { token, items: [{ id: product, num: 1 }], address });
    await api(server, 'shop/pay_payment', { token, code: code['ret'], type: 'balance' });
    const orderId = (code['orders'] as Array<{ id: string }>)[0]?.id ?? '';
    await api(server, 'shop/business_send', {
      token: sellerMember.token,
      id: orderId,
      company: 'SF Express',
      number: 'SF2468013579',
    });
    await api(server, 'shop/order_confirm', { token, id: orderId });

    // The buyer reports it as counterfeit from the order's page, with a photo.
    const { page } = buyer;
    await page.goto(`${server.url}/h5/#/shop/user-order-view?id=${orderId}`);
    await page.getByRole('button', { name: 'Report counterfeit' }).click();
    await page.waitForURL(/#\/shop\/user-claim\?/);
    await page.getByLabel('Description').fill('The seal is printed crooked and the leaves smell of nothing.');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add a photo' }).click();
    const photo = pngFile(64, 64, (x) => (x < 32 ? [120, 90, 40] : [250, 250, 250]));
    await (await chooser).setFiles({ name: 'seal.png', mimeType: 'image/png', buffer: photo });
    await page.getByRole('img', { name: 'Photo 1' }).waitFor();
    await page.screenshot({ path: `${SHOTS}claim-file-en.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Submit claim' }).click();
    await page.waitForURL(/#\/shop\/user-order-view\?id=/);
    await page.getByText('Awaiting the platform').waitFor();

    // The seller is told, and sees the claim on the order.
    await seller.page.goto(`${server.url}/h5/#/member/notify`);
    await seller.page
      .getByText(
        'The buyer reported “Spring green tea, 250 g” as counterfeit: the platform decides, and the proceeds wait',
      )
      .click();
    await seller.page.waitForURL(/#\/shop\/business-order-view\?id=/);
    await seller.page.getByText('The seal is printed crooked and the leaves smell of nothing.').waitFor();

    // The platform upholds it.
    const pending = await operator(server, 'claims');
    const claim = (pending as unknown as Array<{ id: string; orderId: string; kind: string }>).find(
      (c) => c.orderId === orderId,
    );
    expect(claim?.kind).toBe('counterfeit');
    await operator(server, `claims/${claim?.id}/decide`, { decision: 'uphold' });

    // The buyer is told; the order is refunded; 68.5 yuan back and 274 yuan of compensation in the wallet.
    await page.goto(`${server.url}/h5/#/member/notify`);
    await page.getByText('The counterfeit claim on “Spring green tea, 250 g” was upheld', { exact: false }).click();
    await page.waitForURL(/#\/shop\/user-order-view\?id=/);
    await page.getByText('Upheld').waitFor();
    await page.screenshot({ path: `${SHOTS}claim-upheld-en.png`, animations: 'disabled' });
    await page.goto(`${server.url}/h5/#/member/money-records`);
    await page.getByText('+¥68.50').waitFor();
    await page.getByText('+¥274.00').waitFor();
    await page.getByText('Counterfeit compensation').waitFor();
    // The seller is charged the compensation.
    await seller.page.goto(`${server.url}/h5/#/member/money-records`);
    await seller.page.getByText('-¥274.00').waitFor();
    await seller.page.getByText('Guarantee claim charged').waitFor();
    expect(buyer.dialogs).toEqual([]);
    expect(seller.dialogs).toEqual([]);
    await buyer.context.close();
    await seller.context.close();
  });
});
