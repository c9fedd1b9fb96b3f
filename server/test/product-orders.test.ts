import { describe, expect, it } from 'vitest';
import { SERVICE_GUARANTEES } from '../src/shop/guarantees.js';
import { ORDER_LIMITS } from '../src/shop/orders.js';
import {
  HOME,
  market,
  operator,
  type Order,
  type ProductServer,
  productServer,
  signIn,
  uploadImage,
} from './product-support.js';

const notices = async (p: ProductServer, token: string) =>
  ((await p.call('member/notify_list', { token })).ret as Array<{ kind: string; data: unknown }>).filter(
    (n) => n.kind === 'order',
  );

describe('product orders: shop/code, pay_payment, order_*, business_order, business_send', () => {
  it('checks out, pays by balance, ships and confirms, telling each side; money moves once', async () => {
    const p = await productServer();
    const { seller, buyer, product, address, imgs } = await market(p);
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
    const refused = async (path: string, body: Record<string, unknown>, code: string, err: string, token?: string) =>
      expect(await call(path, body, token)).toEqual({ status: 200, err, code });

    const items = 'please choose 1 to 20 products, 1 to 99 of each';
    for (const bad of [
      undefined,
      [],
      [{ id: product, num: 0 }],
      [{ id: product, num: 100 }],
      [{ id: product, num: 1.5 }],
      [{ id: product }],
      [{ id: '', num: 1 }],
      [{ id: 'x'.repeat(33), num: 1 }],
      [
        { id: product, num: 1 },
        { id: product, num: 1 },
      ],
      Array.from({ length: ORDER_LIMITS.linesMax + 1 }, (_, i) => ({ id: `p${i}`, num: 1 })),
      'tea',
      [null],
    ]) {
      await refused('shop/code', { items: bad, address }, 'order_items_invalid', items);
    }
    const one = [{ id: product, num: 2 }];
    await refused('shop/code', { items: one, address: 'nope' }, 'address_missing', 'the address does not exist');
    await refused(
      'shop/code',
      { items: [{ id: 'nope', num: 1 }], address },
      'product_missing',
      'the product does not exist, return to the cart',
    );
    await refused(
      'shop/code',
      { items: [{ id: product, num: 4 }], address },
      'stock_insufficient',
      'insufficient stock',
    );
    const sellerAddress = (
      (await p.call('member/address_add', { token: seller.token, ...HOME })).ret as Array<{ id: string }>
    )[0]?.id;
    await refused(
      'shop/code',
      { items: one, address: sellerAddress },
      'order_own_product',
      'you cannot buy your own product',
      seller.token,
    );
    expect(await p.call('shop/code', { items: one, address })).toMatchObject({ code: 'token_invalid' });

    // A second on, so that the ledger lists the payment after the recharge.
    p.advance(1_000);
    const placed = await call('shop/code', { items: one, address });
    const code = placed.ret as string;
    const [order] = placed['orders'] as Order[];
    expect(placed['total']).toBe(25);
    expect(order).toEqual({
      id: expect.any(String) as string,
      code,
      shop: { id: seller.shopId, name: `Shop ${seller.id}`, icon: expect.any(String) as string },
      status: 'unpaid',
      pay_method: '',
      total: 25,
      items: [{ product_id: product, title: 'Green tea', image: imgs[0], price: 12.5, num: 2 }],
      address: HOME,
      logistics: null,
      refund: null,
      review: null,
      review_until: null,
      created_at: p.now(),
      paid_at: null,
      shipped_at: null,
      completed_at: null,
      closed_at: null,
      expires_at: p.now() + ORDER_LIMITS.unpaidMs,
      ship_by: null,
      return_until: null,
      compensation: 0,
      compensated_at: null,
      settled_at: null,
      claim: null,
      claimable: { damage: false, counterfeit: false },
      damage_until: null,
      counterfeit_until: null,
    });
    // The stock is held: one is left.
    expect(((await call('shop/view', { id: product })).ret as { stock: number }).stock).toBe(1);

    await refused(
      'shop/pay_payment',
      { code, type: 'alipay' },
      'payment_unavailable',
      'this payment method is not available; pay by balance',
    );
    await refused('shop/pay_payment', { code: 'nope', type: 'balance' }, 'order_missing', 'the order does not exist');
    await refused(
      'shop/pay_payment',
      { code, type: 'balance' },
      'order_missing',
      'the order does not exist',
      seller.token,
    );
    // 25 yuan of 100: paid; then a second checkout of 12.5 with 75 left is paid too; the balance is 62.5.
    expect(await call('shop/pay_payment', { code, type: 'balance' })).toMatchObject({
      ret: { code, type: 'balance', paid: 25 },
      orders: [{ id: order?.id, status: 'paid', pay_method: 'balance', paid_at: p.now() }],
    });
    await refused(
      'shop/pay_payment',
      { code, type: 'balance' },
      'order_state',
      'the order status has changed, refresh and try again',
    );
    expect(((await call('member/money', {})).ret as { balance: number }).balance).toBe(75);
    expect(((await call('member/money_list', {})).ret as unknown[])[0]).toMatchObject({
      amount: -25,
      kind: 'order',
      ref: code,
    });
    expect(await notices(p, seller.token)).toEqual(
      [{ kind: 'order', data: { order: order?.id, status: 'paid', total: 25, title: 'Green tea' } }].map(
        (n) => expect.objectContaining(n) as unknown,
      ),
    );

    // Only the buyer and the seller see it.
    const stranger = await signIn(p, '13600136000');
    await refused('shop/order_view', { id: order?.id }, 'order_missing', 'the order does not exist', stranger.token);
    expect(await call('shop/order_view', { id: order?.id }, seller.token)).toMatchObject({ ret: { status: 'paid' } });
    await refused(
      'shop/order_cancel',
      { id: order?.id },
      'order_state',
      'the order status has changed, refresh and try again',
    );

    // The seller ships it, with a shipment that makes sense.
    const logistics = 'please enter the logistics company and shipment number';
    for (const bad of [
      { company: '', number: 'SF1234' },
      { company: 'x'.repeat(21), number: 'SF1234' },
      { company: 'SF', number: 'SF1' },
      { company: 'SF', number: 'SF 1234' },
      { company: 'SF', number: 12345 },
    ]) {
      await refused('shop/business_send', { id: order?.id, ...bad }, 'logistics_invalid', logistics, seller.token);
    }
    await refused(
      'shop/business_send',
      { id: order?.id, company: 'SF', number: 'SF1234' },
      'order_missing',
      'the order does not exist',
    );
    p.advance(1_000);
    expect(
      await call('shop/business_send', { id: order?.id, company: ' SF Express ', number: 'SF-1234' }, seller.token),
    ).toMatchObject({
      ret: { status: 'shipped', logistics: { company: 'SF Express', number: 'SF-1234' }, shipped_at: p.now() },
    });
    expect(await notices(p, buyer.token)).toEqual([
      expect.objectContaining({ data: { order: order?.id, status: 'shipped', total: 25, title: 'Green tea' } }),
    ]);

    // The buyer confirms receipt; the seller is paid once its return window passed, once.
    await refused('shop/order_confirm', { id: order?.id }, 'order_missing', 'the order does not exist', seller.token);
    p.advance(1_000);
    const completedAt = p.now();
    expect(await call('shop/order_confirm', { id: order?.id })).toMatchObject({
      ret: {
        status: 'completed',
        completed_at: completedAt,
        return_until: completedAt + SERVICE_GUARANTEES.returnWindowMs,
        settled_at: null,
      },
    });
    await refused(
      'shop/order_confirm',
      { id: order?.id },
      'order_state',
      'the order status has changed, refresh and try again',
    );
    // An order call settles what time settled, then the wallet shows it.
    const sellerBalance = async () => {
      await call('shop/business_order', {}, seller.token);
      return ((await call('member/money', {}, seller.token)).ret as { balance: number }).balance;
    };
    expect(await sellerBalance()).toBe(0);
    expect((await notices(p, seller.token)).map((n) => (n.data as { status: string }).status)).toEqual([
      'completed',
      'paid',
    ]);

    // Lists: the buyer's by status, the seller's; a page ends at an id of theirs.
    const again = await call('shop/code', { items: [{ id: product, num: 1 }], address });
    const second = (again['orders'] as Order[])[0];
    const ids = async (path: string, body: Record<string, unknown>, token = buyer.token) =>
      ((await call(path, body, token)).ret as Order[]).map((o) => o.id);
    expect(await ids('shop/order_list', {})).toEqual([second?.id, order?.id]);
    expect(await ids('shop/order_list', { status: 'unpaid' })).toEqual([second?.id]);
    expect(await ids('shop/order_list', { before: second?.id })).toEqual([order?.id]);
    expect(await ids('shop/business_order', { status: 'completed' }, seller.token)).toEqual([order?.id]);
    expect(await ids('shop/order_list', {}, seller.token)).toEqual([]);
    await refused('shop/order_list', { status: 'lost' }, 'bad_params', 'parameter error');
    await refused('shop/business_order', { before: order?.id }, 'bad_params', 'parameter error');

    // An unpaid order is cancelled by its buyer; its stock returns.
    expect(await call('shop/order_cancel', { id: second?.id })).toMatchObject({
      ret: { status: 'cancelled', closed_at: p.now() },
    });
    expect(((await call('shop/view', { id: product })).ret as { stock: number }).stock).toBe(1);

    p.advance(completedAt + SERVICE_GUARANTEES.returnWindowMs + 1 - p.now());
    expect(await sellerBalance()).toBe(25);
    expect(await call('shop/order_view', { id: order?.id })).toMatchObject({
      ret: { return_until: null, settled_at: p.now() },
    });
    p.advance(SERVICE_GUARANTEES.returnWindowMs);
    expect(await sellerBalance()).toBe(25);
  });

  it('cancels unpaid orders after 30 minutes and completes shipped ones after 10 days, by themselves', async () => {
    const p = await productServer();
    const { seller, buyer, product, address } = await market(p, { stock: 2, balance: 10 });
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
    const first = await call('shop/code', { items: [{ id: product, num: 1 }], address });
    const stale = await call('shop/code', { items: [{ id: product, num: 1 }], address });
    expect(await call('shop/code', { items: [{ id: product, num: 1 }], address })).toMatchObject({
      code: 'stock_insufficient',
    });
    // The first is paid within the time; 12.5 yuan is more than 10.
    expect(await call('shop/pay_payment', { code: first.ret, type: 'balance' })).toMatchObject({
      code: 'balance_insufficient',
      err: 'insufficient balance',
    });
    const asked = await p.call('member/recharge', { token: buyer.token, money: 10, type: 'wechat', agree: true });
    await operator(p, 'recharges', 'POST', `/${(asked.ret as { id: string }).id}/review`, { paid: true });
    expect(await call('shop/pay_payment', { code: first.ret, type: 'balance' })).toMatchObject({ ret: { paid: 12.5 } });

    p.advance(ORDER_LIMITS.unpaidMs + 1);
    expect(await call('shop/pay_payment', { code: stale.ret, type: 'balance' })).toMatchObject({ code: 'order_state' });
    const staleId = (stale['orders'] as Order[])[0]?.id;
    expect(await call('shop/order_view', { id: staleId })).toMatchObject({ ret: { status: 'cancelled' } });
    expect(((await call('shop/view', { id: product })).ret as { stock: number }).stock).toBe(1);

    const id = (first['orders'] as Order[])[0]?.id;
    await call('shop/business_send', { id, company: 'SF', number: 'SF1234' }, seller.token);
    p.advance(ORDER_LIMITS.receiptMs - 1);
    expect(await call('shop/order_list', { status: 'shipped' })).toMatchObject({ ret: [{ id }] });
    p.advance(2);
    expect(await call('shop/business_order', { status: 'completed' }, seller.token)).toMatchObject({ ret: [{ id }] });
    // An order call settles what time settled, then the wallet shows it.
    const sellerBalance = async () => {
      await call('shop/business_order', {}, seller.token);
      return ((await call('member/money', {}, seller.token)).ret as { balance: number }).balance;
    };
    // Completed by time as by the buyer: the seller is paid once its return window passed.
    expect(await sellerBalance()).toBe(0);
    p.advance(SERVICE_GUARANTEES.returnWindowMs);
    expect(await sellerBalance()).toBe(0);
    p.advance(1);
    expect(await sellerBalance()).toBe(12.5);
  });

  it('refunds: checked in spec §5 order; the seller agrees with return, the goods go back, the money too', async () => {
    const p = await productServer();
    const { seller, buyer, product, address } = await market(p);
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
    const refused = async (path: string, body: Record<string, unknown>, code: string, token = buyer.token) =>
      expect(await call(path, body, token)).toMatchObject({ code });
    p.advance(1_000);
    const placed = await call('shop/code', { items: [{ id: product, num: 2 }], address });
    const id = (placed['orders'] as Order[])[0]?.id;
    const proof = [await uploadImage(p, buyer.token)];
    const good = { id, amount: 25, reason: 'Damaged', description: 'The box was crushed', imgs: proof };
    await refused('shop/drawback', good, 'order_state');
    await call('shop/pay_payment', { code: placed.ret, type: 'balance' });

    for (const [body, code, err] of [
      [{ amount: 25.01 }, 'refund_amount_invalid', 'the refund amount is required and cannot exceed the amount paid'],
      [{ amount: 0 }, 'refund_amount_invalid', 'the refund amount is required and cannot exceed the amount paid'],
      [{ amount: 1.234 }, 'refund_amount_invalid', 'the refund amount is required and cannot exceed the amount paid'],
      [{ amount: '25' }, 'refund_amount_invalid', 'the refund amount is required and cannot exceed the amount paid'],
      [{ reason: ' ' }, 'refund_reason_invalid', 'please choose the refund reason'],
      [{ reason: 'x'.repeat(31) }, 'refund_reason_invalid', 'please choose the refund reason'],
      [{ description: '' }, 'refund_description_invalid', 'please describe the problem: 1 to 100 characters'],
      [
        { description: 'x'.repeat(101) },
        'refund_description_invalid',
        'please describe the problem: 1 to 100 characters',
      ],
      [{ imgs: [] }, 'refund_images_invalid', 'please upload 1 to 3 proof images'],
      [{ imgs: ['https://elsewhere/x.png'] }, 'refund_images_invalid', 'please upload 1 to 3 proof images'],
      [{ imgs: [...proof, ...proof] }, 'refund_images_invalid', 'please upload 1 to 3 proof images'],
    ] as const) {
      expect(await call('shop/drawback', { ...good, ...body })).toEqual({ status: 200, err, code });
    }
    await refused('shop/drawback', good, 'order_missing', seller.token);
    const asked = await call('shop/drawback', good);
    expect(asked).toMatchObject({
      ret: {
        status: 'paid',
        refund: {
          amount: 25,
          reason: 'Damaged',
          description: 'The box was crushed',
          images: proof,
          status: 'pending',
          refuse_reason: '',
          return_logistics: null,
          created_at: p.now(),
        },
      },
    });
    await refused('shop/drawback', good, 'refund_open');
    await refused('shop/business_send', { id, company: 'SF', number: 'SF1234' }, 'refund_open', seller.token);
    expect(await call('shop/business_order', { status: 'refunding' }, seller.token)).toMatchObject({ ret: [{ id }] });
    expect(await notices(p, seller.token)).toHaveLength(1);
    const told = async (token: string) =>
      ((await p.call('member/notify_list', { token })).ret as Array<{ kind: string; data: { status: string } }>)
        .filter((n) => n.kind === 'refund')
        .map((n) => n.data.status);
    expect(await told(seller.token)).toEqual(['pending']);

    // The seller: a refusal needs its reason; agreed with return, the buyer sends the goods back.
    await refused('shop/business_drawback', { id, agree: false }, 'refund_refuse_reason_invalid', seller.token);
    await refused('shop/business_drawback', { id, agree: 'yes' }, 'bad_params', seller.token);
    await refused('shop/business_drawback', { id, agree: true }, 'order_missing');
    p.advance(1_000);
    expect(await call('shop/business_drawback', { id, agree: true, return: true }, seller.token)).toMatchObject({
      ret: { refund: { status: 'returning', updated_at: p.now() } },
    });
    await refused('shop/business_drawback', { id, agree: true }, 'refund_state', seller.token);
    await refused('shop/business_drawback_receive', { id }, 'refund_state', seller.token);
    await refused('shop/drawback_send', { id, company: 'YTO', number: 'Y1' }, 'logistics_invalid');
    p.advance(1_000);
    expect(await call('shop/drawback_send', { id, company: 'YTO', number: 'YT123456' })).toMatchObject({
      ret: { refund: { status: 'returned', return_logistics: { company: 'YTO', number: 'YT123456' } } },
    });
    await refused('shop/drawback_cancel', { id }, 'refund_state');
    p.advance(1_000);
    expect(await call('shop/business_drawback_receive', { id }, seller.token)).toMatchObject({
      ret: { status: 'refunded', closed_at: p.now(), refund: { status: 'refunded' } },
    });
    expect(((await call('member/money', {})).ret as { balance: number }).balance).toBe(100);
    expect(((await call('member/money_list', {})).ret as unknown[])[0]).toMatchObject({ amount: 25, kind: 'refund' });
    await refused('shop/drawback', good, 'refund_ended');
    expect(await told(seller.token)).toEqual(['returned', 'pending']);
    expect(await told(buyer.token)).toEqual(['refunded', 'returning']);
    expect(await call('shop/order_list', { status: 'refunded' })).toMatchObject({ ret: [{ id }] });
  });

  it('refunds left alone move on by time: agreed after 2 days, cancelled or received after 7 and 10', async () => {
    const p = await productServer();
    const { seller, buyer, product, address } = await market(p, { stock: 3, balance: 100 });
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
    const imgs = [await uploadImage(p, buyer.token)];
    p.advance(1_000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const placed = await call('shop/code', { items: [{ id: product, num: 1 }], address });
      await call('shop/pay_payment', { code: placed.ret, type: 'balance' });
      const id = (placed['orders'] as Order[])[0]?.id ?? '';
      await call('shop/drawback', { id, amount: 12.5, reason: 'Damaged', description: 'Crushed', imgs });
      ids.push(id);
    }
    const [ignored, notSent, notReceived] = ids;
    await call('shop/business_drawback', { id: notSent, agree: true, return: true }, seller.token);
    await call('shop/business_drawback', { id: notReceived, agree: true, return: true }, seller.token);
    await call('shop/drawback_send', { id: notReceived, company: 'YTO', number: 'YT123456' });
    const state = async (id: string | undefined) =>
      ((await call('shop/order_view', { id })).ret as { refund: { status: string } }).refund.status;

    p.advance(ORDER_LIMITS.refundReplyMs - 1);
    expect(await state(ignored)).toBe('pending');
    p.advance(2);
    expect(await call('shop/order_view', { id: ignored })).toMatchObject({
      ret: { status: 'refunded', refund: { status: 'refunded' } },
    });
    p.advance(ORDER_LIMITS.returnSendMs - ORDER_LIMITS.refundReplyMs);
    expect(await call('shop/order_view', { id: notSent })).toMatchObject({
      ret: { status: 'paid', refund: { status: 'cancelled' } },
    });
    expect(await state(notReceived)).toBe('returned');
    p.advance(ORDER_LIMITS.returnReceiveMs - ORDER_LIMITS.returnSendMs);
    expect(await call('shop/order_view', { id: notReceived })).toMatchObject({
      ret: { status: 'refunded', refund: { status: 'refunded' } },
    });
    // 100 - 3 x 12.5 + 2 x 12.5 back, and 3 for the one that went on unshipped past its 48 hours.
    expect(await call('shop/order_view', { id: notSent })).toMatchObject({ ret: { compensation: 3 } });
    expect(((await call('member/money', {})).ret as { balance: number }).balance).toBe(90.5);
  });

  it('refunds: a refused one lets the order go on; the buyer may cancel one and ask again', async () => {
    const p = await productServer();
    const { seller, buyer, product, address } = await market(p);
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
    p.advance(1_000);
    const placed = await call('shop/code', { items: [{ id: product, num: 1 }], address });
    const id = (placed['orders'] as Order[])[0]?.id;
    await call('shop/pay_payment', { code: placed.ret, type: 'balance' });
    const imgs = [await uploadImage(p, buyer.token)];
    const ask = { id, amount: 12.5, reason: 'No longer needed', description: 'Ordered twice', imgs };
    expect(await call('shop/drawback', ask)).toMatchObject({ ret: { refund: { status: 'pending' } } });
    expect(await call('shop/drawback_cancel', { id })).toMatchObject({ ret: { refund: { status: 'cancelled' } } });
    expect(await call('shop/drawback', ask)).toMatchObject({ ret: { refund: { status: 'pending' } } });
    expect(
      await call('shop/business_drawback', { id, agree: false, reason: ' Already packed ' }, seller.token),
    ).toMatchObject({ ret: { status: 'paid', refund: { status: 'refused', refuse_reason: 'Already packed' } } });
    expect(await call('shop/business_send', { id, company: 'SF', number: 'SF1234' }, seller.token)).toMatchObject({
      ret: { status: 'shipped' },
    });
    expect(await call('shop/order_confirm', { id })).toMatchObject({ ret: { status: 'completed' } });
    // Past the 7 days of its no-reason return, a completed order has ended.
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await call('shop/drawback', ask)).toMatchObject({
      code: 'refund_ended',
      err: 'the order has ended and refund cannot be applied for',
    });
  });

  it('refuses to cancel an account while an order of it is under way', async () => {
    const p = await productServer();
    const { seller, buyer, product, address } = await market(p);
    const placed = await p.call('shop/code', { token: buyer.token, items: [{ id: product, num: 1 }], address });
    await p.call('shop/pay_payment', { token: buyer.token, code: placed.ret, type: 'balance' });
    const open = 'you have orders in progress: finish them before cancelling the account';
    for (const member of [buyer, seller]) {
      expect(await p.call('member/out', { token: member.token, reason: 'moving', agree: true })).toEqual({
        status: 200,
        err: open,
        code: 'cancel_orders_open',
      });
    }
  });
});
