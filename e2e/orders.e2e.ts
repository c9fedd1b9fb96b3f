import { describe, expect, it } from 'vitest';
import { openShop, readyToBuy } from './shop-support.js';
import { SHOTS, appUnderTest, memberOf, phoneContext, pngFile, productApi as api, signIn } from './support.js';

const SELLER_PHONE = '13600136021';
const BUYER_PHONE = '13600136022';
const REFUND_SELLER_PHONE = '13600136023';
const REFUND_BUYER_PHONE = '13600136024';

describe('orders end to end', () => {
  const app = appUnderTest();

  it('a buyer puts a product in the cart and pays by balance; the seller ships; the buyer confirms and reviews; the seller answers and is paid once the return window passed', async () => {
    const { server } = app;
    const seller = await phoneContext(app.browser, 'en-US');
    await signIn(seller.page, server, SELLER_PHONE, 'en');
    await openShop(server, await memberOf(seller.page), { name: 'Hill Tea House', category: 'Green tea' });

    // The buyer: an address and 100 yuan in the wallet.
    const buyer = await phoneContext(app.browser, 'en-US');
    await signIn(buyer.page, server, BUYER_PHONE, 'en');
    await readyToBuy(server, (await memberOf(buyer.page)).token);

    const { page } = buyer;
    await page.goto(`${server.url}/h5/#/pages/shop/index`);
    await page.getByText('Spring green tea, 250 g').click();
    await page.waitForURL(/#\/shop\/view\?id=/);
    const productPage = page.url();
    await page.getByRole('button', { name: 'Add to favourites' }).click();
    await page.getByText('Added to favourites').waitFor();
    await page.getByRole('button', { name: 'Remove from favourites' }).waitFor();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByText('Added to the cart').waitFor();
    // The product is in the buyer's favourites, and in their browsing history under today.
    const marked = page.getByRole('button', { name: /^Spring green tea, 250 g/ }).filter({ visible: true });
    await page.goto(`${server.url}/h5/#/shop/shoucang`);
    await marked.waitFor();
    await page.goto(`${server.url}/h5/#/shop/history`);
    await page.getByText('Today', { exact: true }).filter({ visible: true }).waitFor();
    await marked.waitFor();
    await page.screenshot({ path: `${SHOTS}shop-history-en.png`, animations: 'disabled' });
    await page.goto(productPage);
    await page.getByText('Hill Tea House').filter({ visible: true }).click();
    await page.waitForURL(/#\/shop\/shop\?id=/);
    await page.getByText('Tea from the hills.').waitFor();
    await page.screenshot({ path: `${SHOTS}shop-front-en.png`, animations: 'disabled' });

    await page.goto(`${server.url}/h5/#/shop/cart`);
    // Pages opened before stay in the document, hidden: look at the one shown.
    await page.getByText('Spring green tea, 250 g', { exact: true }).filter({ visible: true }).waitFor();
    await page.getByText('Select all').click();
    await page.getByText('Total: ¥68.50').waitFor();
    await page.screenshot({ path: `${SHOTS}cart-en.png`, animations: 'disabled' });
    await page.getByRole('button', { name: /^Settle/ }).click();
    await page.waitForURL(/#\/shop\/payment\?/);
    await page.getByText('West Lake Road 1', { exact: false }).waitFor();
    await page.getByText('¥100.00').waitFor();
    await page.screenshot({ path: `${SHOTS}payment-en.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Pay by balance' }).click();
    await page.waitForURL(/#\/shop\/success\?code=/);
    await page.getByText('Payment successful').first().waitFor();
    await page.screenshot({ path: `${SHOTS}payment-success-en.png`, animations: 'disabled' });

    // The seller hears of it and ships it.
    await seller.page.goto(`${server.url}/h5/#/member/notify`);
    await seller.page.getByText('New order to ship: “Spring green tea, 250 g”, 68.5 yuan paid').click();
    await seller.page.waitForURL(/#\/shop\/business-order/);
    await seller.page.getByRole('tab', { name: 'Awaiting delivery' }).click();
    await seller.page.getByRole('button', { name: 'Ship' }).click();
    await seller.page.waitForURL(/#\/shop\/business-send\?id=/);
    await seller.page.getByText('West Lake Road 1', { exact: false }).waitFor();
    await seller.page.getByLabel('Logistics company').fill('SF Express');
    await seller.page.getByLabel('Shipment number').fill('SF1234567890');
    await seller.page.screenshot({ path: `${SHOTS}order-ship-en.png`, animations: 'disabled' });
    await seller.page.getByRole('button', { name: 'Ship' }).click();
    await seller.page.waitForURL(/#\/shop\/business-order\?status=shipped/);

    // The buyer is told, sees the logistics, and confirms receipt.
    await page.goto(`${server.url}/h5/#/member/notify`);
    await page.getByText('Your order “Spring green tea, 250 g” has been shipped').click();
    await page.waitForURL(/#\/shop\/user-order-view\?id=/);
    await page.getByText('SF1234567890').waitFor();
    await page.screenshot({ path: `${SHOTS}order-view-en.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Confirm receipt' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm receipt' }).click();
    await page.getByText('Receipt confirmed').waitFor();
    await page.goto(`${server.url}/h5/#/shop/user-order`);
    await page.getByRole('tab', { name: 'Completed' }).click();
    await page.getByText('Spring green tea, 250 g', { exact: true }).filter({ visible: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}orders-en.png`, animations: 'disabled' });

    // The money: out of the buyer's wallet; the seller's comes once the 7-day no-reason return has passed.
    await page.goto(`${server.url}/h5/#/member/money-records`);
    await page.getByText('-¥68.50').waitFor();
    await seller.page.goto(`${server.url}/h5/#/shop/business-order`);
    await seller.page.getByRole('tab', { name: 'Successful' }).click();
    await seller.page
      .getByText(/The proceeds arrive when the no-reason return ends/)
      .filter({ visible: true })
      .waitFor();

    // The buyer reviews the order; the seller hears of it and answers; the product's page shows both.
    await page.goto(`${server.url}/h5/#/shop/user-order`);
    await page.getByRole('tab', { name: 'To review' }).click();
    await page.getByRole('button', { name: 'Review' }).filter({ visible: true }).click();
    await page.waitForURL(/#\/shop\/user-ping-add\?id=/);
    for (const [label, stars] of [
      ['Quality', 5],
      ['Service', 4],
      ['Logistics', 5],
    ] as const) {
      const rating = page.getByRole('radiogroup', { name: label, exact: true });
      await rating
        .getByRole('radio')
        .nth(stars - 1)
        .click();
      await expect.poll(() => rating.getByRole('radio', { checked: true }).count()).toBe(stars);
    }
    await page.getByLabel('Your review').fill('Fresh and fragrant, as on the hills.');
    await page.screenshot({ path: `${SHOTS}review-write-en.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page.waitForURL(/#\/shop\/user-order-view\?id=/);
    await page.getByText('Fresh and fragrant, as on the hills.').waitFor();

    await seller.page.goto(`${server.url}/h5/#/member/notify`);
    await seller.page.getByText('A buyer reviewed “Spring green tea, 250 g”: quality 5 of 5').click();
    await seller.page.waitForURL(/#\/shop\/business-ping/);
    await seller.page.getByText('Fresh and fragrant, as on the hills.').waitFor();
    await seller.page.getByRole('button', { name: 'Reply' }).click();
    await seller.page.getByLabel('Your reply').fill('Thank you! New leaves come in May.');
    await seller.page.getByRole('button', { name: 'Send reply' }).click();
    await seller.page.getByText('Reply sent').waitFor();

    // A week on, the proceeds are the seller's, and they are told.
    server.advance(7 * 86_400_000 + 60_000);
    await seller.page.goto(`${server.url}/h5/#/member/money-records`);
    await seller.page.getByText('+¥68.50').waitFor();
    await seller.page.getByText('Sale').waitFor();
    await seller.page.goto(`${server.url}/h5/#/member/notify`);
    await seller.page
      .getByText('The proceeds of “Spring green tea, 250 g” arrived: 68.5 yuan is in your wallet')
      .waitFor();

    await page.goto(productPage);
    const reply = page.getByText('Thank you! New leaves come in May.').filter({ visible: true });
    await reply.waitFor();
    await reply.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}product-reviews-en.png`, animations: 'disabled' });
    expect(buyer.dialogs).toEqual([]);
    expect(seller.dialogs).toEqual([]);
    await buyer.context.close();
    await seller.context.close();
  });

  it('a buyer asks for part of the money back; the seller wants the goods back; the buyer sends them; the money goes back', async () => {
    const { server } = app;
    const seller = await phoneContext(app.browser, 'en-US');
    await signIn(seller.page, server, REFUND_SELLER_PHONE, 'en');
    const product = await openShop(server, await memberOf(seller.page), { name: 'Valley Tea', category: 'Black tea' });

    // The buyer has bought and paid for it, through the APIs.
    const buyer = await phoneContext(app.browser, 'en-US');
    await signIn(buyer.page, server, REFUND_BUYER_PHONE, 'en');
    const { token } = await memberOf(buyer.page);
    const address = await readyToBuy(server, token);
    const code = await api(server, 'shop/code', { token, items: [{ id: product, num: 1 }], address });
    await api(server, 'shop/pay_payment', { token, code: code['ret'], type: 'balance' });

    // The buyer applies for 30 yuan back from the order's page.
    const { page } = buyer;
    await page.goto(`${server.url}/h5/#/shop/user-order`);
    await page.getByRole('tab', { name: 'To ship' }).click();
    await page.getByRole('button', { name: 'Apply for refund' }).filter({ visible: true }).click();
    await page.waitForURL(/#\/shop\/user-drawback\?id=/);
    await page.getByLabel('Refund amount (yuan)').fill('30');
    await page.getByText('Damaged', { exact: true }).click();
    await page.getByLabel('Supplementary description').fill('The tin was dented and the seal broken.');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add a proof image' }).click();
    const photo = pngFile(64, 64, (x) => (x < 32 ? [200, 120, 40] : [250, 250, 250]));
    await (await chooser).setFiles({ name: 'dent.png', mimeType: 'image/png', buffer: photo });
    await page.getByRole('img', { name: 'Proof image 1' }).waitFor();
    await page.screenshot({ path: `${SHOTS}refund-apply-en.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Submit refund' }).click();
    await page.waitForURL(/#\/shop\/user-order-view\?id=/);
    await page.getByText('Awaiting the seller').waitFor();

    // The seller hears of it and wants the goods back.
    await seller.page.goto(`${server.url}/h5/#/member/notify`);
    await seller.page.getByText('Refund requested for “Spring green tea, 250 g”: 30 yuan').click();
    await seller.page.waitForURL(/#\/shop\/business-drawback\?id=/);
    await seller.page.getByText('The tin was dented and the seal broken.').waitFor();
    await seller.page.screenshot({ path: `${SHOTS}refund-handle-en.png`, animations: 'disabled' });
    await seller.page.getByRole('button', { name: 'Agree with return' }).click();
    await seller.page.getByRole('dialog').getByRole('button', { name: 'Agree with return' }).click();
    await seller.page.getByText('Agreed: waiting for the goods').waitFor();

    // The buyer is told and sends the goods back.
    await page.goto(`${server.url}/h5/#/member/notify`);
    await page.getByText('The seller agreed to refund “Spring green tea, 250 g”: send the goods back').click();
    await page.waitForURL(/#\/shop\/user-order-view\?id=/);
    await page.getByLabel('Logistics company').fill('SF Express');
    await page.getByLabel('Shipment number').fill('SF0987654321');
    await page.getByRole('button', { name: 'Submit return logistics' }).click();
    await page.getByText('Goods sent back').waitFor();

    // The seller receives them, which sends the money back.
    await seller.page.goto(`${server.url}/h5/#/member/notify`);
    await seller.page.getByText('The buyer sent back “Spring green tea, 250 g”: receive it to refund').click();
    await seller.page.waitForURL(/#\/shop\/business-drawback\?id=/);
    await seller.page.getByRole('button', { name: 'Goods received: refund' }).click();
    await seller.page.getByRole('dialog').getByRole('button', { name: 'Goods received: refund' }).click();
    await seller.page.getByText('Money refunded to the buyer').waitFor();

    // The buyer is told; the order is refunded; 30 yuan back in the wallet, the rest to the seller.
    await page.goto(`${server.url}/h5/#/member/notify`);
    await page.getByText('Your refund of 30 yuan for “Spring green tea, 250 g” is in your wallet').click();
    await page.waitForURL(/#\/shop\/user-order-view\?id=/);
    await page.getByText('Money refunded').waitFor();
    await page.screenshot({ path: `${SHOTS}refund-done-en.png`, animations: 'disabled' });
    await page.goto(`${server.url}/h5/#/member/money-records`);
    await page.getByText('+¥30.00').waitFor();
    await seller.page.goto(`${server.url}/h5/#/member/money-records`);
    await seller.page.getByText('+¥38.50').waitFor();
    expect(buyer.dialogs).toEqual([]);
    expect(seller.dialogs).toEqual([]);
    await buyer.context.close();
    await seller.context.close();
  });
});
