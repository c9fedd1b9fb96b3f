import { createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { alipayAmount, alipayTime, signedAnswer, signedContent } from '../src/payments/alipay.js';
import { CLOSED_REASONS } from '../src/payments/service.js';
import { alipayServer, APP_ID, keys } from './alipay-support.js';
import { operator, productServer, signIn, type ProductServer } from './product-support.js';

describe('payments: Alipay', () => {
  it('PAY-1: a recharge by Alipay carries the signed URL of its payment page, checked with the merchant’s key', async () => {
    const { p, k, gateway, recharge } = await alipayServer();
    const ret = await recharge(50);
    expect(ret).toMatchObject({ amount: 50, type: 'alipay', status: 'unpaid' });
    const url = new URL(ret.pay_url as string);
    expect(`${url.origin}${url.pathname}`).toBe(gateway.url);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      app_id: APP_ID,
      method: 'alipay.trade.wap.pay',
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      version: '1.0',
      notify_url: `${p.url}/index.php/api/pay/alipay/notify`,
      return_url: `${p.url}/h5/#/member/recharge-records`,
      timestamp: alipayTime(p.now()),
    });
    expect(JSON.parse(params['biz_content'] as string)).toEqual({
      out_trade_no: ret.id,
      total_amount: '50.00',
      subject: '钱包充值',
      product_code: 'QUICK_WAP_WAY',
      time_expire: alipayTime(p.now() + 30 * 60_000),
    });
    const verified = createVerify('RSA-SHA256')
      .update(signedContent(params, ['sign']), 'utf8')
      .verify(k.merchantPublic, params['sign'] as string, 'base64');
    expect(verified).toBe(true);
    expect(ret.payable).toBe(true);
    // WeChat Pay is not set up on this server: its recharges wait for the operator's report, with no page.
    expect(await recharge(10, 'wechat')).toMatchObject({ pay_url: null, payable: false });
  });

  it('PAY-1: member/recharge_pay opens the page again for the member’s own recharge still waiting', async () => {
    const { p, token, recharge, notify } = await alipayServer();
    const { id } = await recharge(50);
    const again = await p.call('member/recharge_pay', { token, id });
    expect(new URL(again.ret.pay_url as string).searchParams.get('method')).toBe('alipay.trade.wap.pay');
    const other = await signIn(p, '13900139000');
    expect(await p.call('member/recharge_pay', { token: other.token, id })).toMatchObject({ code: 'recharge_missing' });
    expect(await p.call('member/recharge_pay', { token, id: 'ffffffffffffffff' })).toMatchObject({
      code: 'recharge_missing',
    });
    const wechat = await recharge(10, 'wechat');
    expect(await p.call('member/recharge_pay', { token, id: wechat.id })).toMatchObject({
      code: 'pay_page_unavailable',
    });
    await notify({ out_trade_no: String(id), total_amount: '50.00', trade_status: 'TRADE_SUCCESS' });
    expect(await p.call('member/recharge_pay', { token, id })).toMatchObject({ code: 'recharge_missing' });
  });

  it('PAY-2: Alipay’s notification of the payment credits the wallet once, however often it is posted', async () => {
    const { notify, recharge, balance, status } = await alipayServer();
    const { id } = await recharge(50);
    const paid = { out_trade_no: String(id), total_amount: '50.00', trade_status: 'TRADE_SUCCESS' };
    expect(await notify(paid)).toBe('success');
    expect(await balance()).toBe(50);
    expect(await status(id)).toMatchObject({ status: 'success', payable: false });
    // Posted again (Alipay does until it reads success), and as TRADE_FINISHED later: nothing more.
    expect(await notify(paid)).toBe('success');
    expect(await notify({ ...paid, trade_status: 'TRADE_FINISHED' })).toBe('success');
    expect(await balance()).toBe(50);
  });

  it('PAY-2: a notification not Alipay’s, of another app or order credits nothing', async () => {
    const { notify, recharge, balance, status } = await alipayServer();
    const { id } = await recharge(50);
    const paid = { out_trade_no: String(id), total_amount: '50.00', trade_status: 'TRADE_SUCCESS' };
    // Changed after Alipay signed it.
    expect(await notify(paid, { total_amount: '5000.00' })).toBe('failure');
    expect(await notify(paid, { sign: 'bm90IGEgc2lnbmF0dXJl' })).toBe('failure');
    expect(await notify(paid, { sign_type: 'RSA' })).toBe('failure');
    // Signed, but for another application, or no recharge of ours.
    expect(await notify({ ...paid, app_id: '2021000000000002' })).toBe('failure');
    expect(await notify({ ...paid, out_trade_no: 'ffffffffffffffff' })).toBe('failure');
    const wechat = await recharge(20, 'wechat');
    expect(await notify({ ...paid, out_trade_no: String(wechat.id), total_amount: '20.00' })).toBe('failure');
    expect(await balance()).toBe(0);
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
  });

  it('PAY-8: another amount paid makes the recharge abnormal, credits nothing, and the operator settles it', async () => {
    const { p, notify, recharge, balance, status } = await alipayServer();
    const { id } = await recharge(50);
    const paid = { out_trade_no: String(id), trade_no: '2026120122001404000000000008', trade_status: 'TRADE_SUCCESS' };
    // Recorded for the operator, so Alipay hears success and stops posting it; posted again, nothing more.
    expect(await notify({ ...paid, total_amount: '0.01' })).toBe('success');
    expect(await notify({ ...paid, total_amount: '0.01' })).toBe('success');
    expect(await balance()).toBe(0);
    expect(await status(id)).toMatchObject({
      status: 'abnormal',
      reason: 'paid 0.01 yuan for a recharge of 50.00',
      payable: false,
    });
    // Even the right amount posted later credits nothing by itself: the operator looks first.
    expect(await notify({ ...paid, total_amount: '50.00' })).toBe('success');
    expect(await balance()).toBe(0);
    const queue = await operator(p, 'recharges', 'GET', '?status=abnormal');
    expect((queue.content as Array<{ id: string }>).map((r) => r.id)).toEqual([String(id)]);
    expect((queue.content as unknown[])[0]).toMatchObject({ status: 'abnormal', reference: paid.trade_no });
    expect((await operator(p, 'recharges', 'POST', `/${String(id)}/review`, { paid: true })).content).toMatchObject({
      status: 'success',
    });
    expect(await balance()).toBe(50);
  });

  it('PAY-8: a payment for a recharge that had failed makes it abnormal; the operator may fail it again', async () => {
    const { p, notify, recharge, balance, status } = await alipayServer();
    const { id } = await recharge(30);
    await notify({ out_trade_no: String(id), total_amount: '30.00', trade_status: 'TRADE_CLOSED' });
    expect(await status(id)).toMatchObject({ status: 'failed' });
    expect(await notify({ out_trade_no: String(id), total_amount: '30.00', trade_status: 'TRADE_SUCCESS' })).toBe(
      'success',
    );
    expect(await status(id)).toMatchObject({ status: 'abnormal', reason: 'paid after the recharge had failed' });
    expect(await balance()).toBe(0);
    const review = await operator(p, 'recharges', 'POST', `/${String(id)}/review`, { paid: false, reason: 'refunded' });
    expect(review.content).toMatchObject({ status: 'failed', reason: 'refunded' });
    expect(await balance()).toBe(0);
  });

  it('PAY-3: a payment Alipay closed unpaid fails the recharge; one still waiting changes nothing', async () => {
    const { notify, recharge, status } = await alipayServer();
    const { id } = await recharge(30);
    expect(await notify({ out_trade_no: String(id), total_amount: '30.00', trade_status: 'WAIT_BUYER_PAY' })).toBe(
      'success',
    );
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(await notify({ out_trade_no: String(id), total_amount: '30.00', trade_status: 'TRADE_CLOSED' })).toBe(
      'success',
    );
    expect(await status(id)).toMatchObject({ status: 'failed', reason: CLOSED_REASONS.alipay, payable: false });
  });

  it('PAY-2: money that arrives for a recharge the member cancelled is still theirs', async () => {
    const { p, token, notify, recharge, balance } = await alipayServer();
    const { id } = await recharge(40);
    await p.call('member/recharge_cancel', { token, id });
    expect(await notify({ out_trade_no: String(id), total_amount: '40.00', trade_status: 'TRADE_SUCCESS' })).toBe(
      'success',
    );
    expect(await balance()).toBe(40);
  });

  it('without Alipay set up, a recharge has no payment URL and notifications are refused', async () => {
    const p: ProductServer = await productServer();
    const { token } = await signIn(p);
    const { ret } = await p.call('member/recharge', { token, money: 5, type: 'alipay', agree: true });
    expect(ret.pay_url).toBeNull();
    const res = await fetch(`${p.url}/index.php/api/pay/alipay/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ out_trade_no: String(ret.id), trade_status: 'TRADE_SUCCESS' }).toString(),
    });
    expect(await res.text()).toBe('failure');
  });

  it('PAY-7: a payment whose notification never came is found by asking Alipay, with a signed query', async () => {
    const { p, k, gateway, recharge, balance, status, notify } = await alipayServer();
    const { id } = await recharge(50);
    // Not paid yet: Alipay knows no such trade, and the recharge waits.
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(gateway.queries).toHaveLength(1);
    const query = gateway.queries[0]!;
    expect(query).toMatchObject({ app_id: APP_ID, method: 'alipay.trade.query', sign_type: 'RSA2', charset: 'utf-8' });
    expect(JSON.parse(query['biz_content'] ?? '')).toEqual({ out_trade_no: id });
    expect(
      createVerify('RSA-SHA256')
        .update(signedContent(query, ['sign']), 'utf8')
        .verify(k.merchantPublic, query['sign'] ?? '', 'base64'),
    ).toBe(true);
    // Paid, and its notification lost: asked again only after ten seconds, then credited once.
    const trade = { out_trade_no: String(id), trade_no: '2026113022001404000000000002', total_amount: '50.00' };
    gateway.trades.set(String(id), { ...trade, trade_status: 'TRADE_SUCCESS' });
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(gateway.queries).toHaveLength(1);
    p.advance(10_000);
    expect(await status(id)).toMatchObject({ status: 'success', payable: false });
    expect(await balance()).toBe(50);
    p.advance(10_000);
    await status(id);
    expect(gateway.queries).toHaveLength(2);
    // Its notification, late, credits nothing more.
    expect(await notify({ ...trade, trade_status: 'TRADE_SUCCESS' })).toBe('success');
    expect(await balance()).toBe(50);
  });

  it('PAY-7: cancelling a recharge Alipay was paid for answers it paid; Alipay’s close fails it', async () => {
    const { p, token, gateway, recharge, balance } = await alipayServer();
    const first = await recharge(40);
    gateway.trades.set(String(first.id), {
      out_trade_no: String(first.id),
      trade_no: '2026113022001404000000000003',
      total_amount: '40.00',
      trade_status: 'TRADE_SUCCESS',
    });
    expect((await p.call('member/recharge_cancel', { token, id: first.id })).ret).toMatchObject({ status: 'success' });
    expect(await balance()).toBe(40);
    const second = await recharge(30);
    gateway.trades.set(String(second.id), {
      out_trade_no: String(second.id),
      total_amount: '30.00',
      trade_status: 'TRADE_CLOSED',
    });
    expect((await p.call('member/recharge_cancel', { token, id: second.id })).ret).toMatchObject({
      status: 'failed',
      reason: CLOSED_REASONS.alipay,
    });
    // Still waiting: cancelled as asked.
    const third = await recharge(20);
    gateway.trades.set(String(third.id), {
      out_trade_no: String(third.id),
      total_amount: '20.00',
      trade_status: 'WAIT_BUYER_PAY',
    });
    expect((await p.call('member/recharge_cancel', { token, id: third.id })).ret).toMatchObject({
      status: 'cancelled',
    });
    expect(await balance()).toBe(40);
  });

  it('PAY-7: a list asks about recharges of providers set up, however many of others come first', async () => {
    const { p, token, gateway, recharge, status } = await alipayServer();
    const { id } = await recharge(50);
    // Newer, by WeChat Pay, which this server has not set up: nobody to ask.
    for (const money of [1, 2, 3]) {
      p.advance(1_000);
      const other = await recharge(money, 'wechat');
      await p.call('member/recharge_cancel', { token, id: other.id });
    }
    gateway.trades.set(String(id), {
      out_trade_no: String(id),
      trade_no: '2026113022001404000000000005',
      total_amount: '50.00',
      trade_status: 'TRADE_SUCCESS',
    });
    expect(await status(id)).toMatchObject({ status: 'success' });
  });

  it('PAY-7, PAY-8: an answer of another amount makes the recharge abnormal, as a notification would', async () => {
    const { gateway, recharge, balance, status } = await alipayServer();
    const { id } = await recharge(50);
    const paid = { out_trade_no: String(id), trade_no: '2026120122001404000000000009', trade_status: 'TRADE_SUCCESS' };
    gateway.trades.set(String(id), { ...paid, total_amount: '0.50' });
    expect(await status(id)).toMatchObject({ status: 'abnormal', reason: 'paid 0.50 yuan for a recharge of 50.00' });
    expect(await balance()).toBe(0);
  });

  it('PAY-7: an answer Alipay did not sign, or of another order, changes nothing', async () => {
    const { p, gateway, recharge, balance, status } = await alipayServer();
    const { id } = await recharge(50);
    const paid = { out_trade_no: String(id), trade_no: '2026113022001404000000000004', trade_status: 'TRADE_SUCCESS' };
    gateway.trades.set(String(id), { ...paid, total_amount: '50.00' });
    gateway.state.signed = false;
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    gateway.state.signed = true;
    gateway.trades.set(String(id), { ...paid, out_trade_no: 'ffffffffffffffff', total_amount: '50.00' });
    p.advance(10_000);
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(await balance()).toBe(0);
    // A day after it was made, nobody asks any more.
    gateway.trades.set(String(id), { ...paid, total_amount: '50.00' });
    p.advance(24 * 3_600_000);
    const asked = gateway.queries.length;
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(gateway.queries).toHaveLength(asked);
  });

  it('reads the text Alipay signed in its answer: the response object exactly as written', () => {
    const inner = '{"code":"10000","body":"a \\"}\\" {b}","n":{"x":1}}';
    expect(signedAnswer(`{"alipay_trade_query_response":${inner},"sign":"abc"}`, 'alipay_trade_query_response')).toBe(
      inner,
    );
    expect(signedAnswer(`{"sign":"abc","alipay_trade_query_response" : ${inner}}`, 'alipay_trade_query_response')).toBe(
      inner,
    );
    expect(signedAnswer('{"error_response":{"code":"40002"}}', 'alipay_trade_query_response')).toBeUndefined();
    expect(signedAnswer('{"alipay_trade_query_response":{"code":"1', 'alipay_trade_query_response')).toBeUndefined();
  });

  it('signs as Alipay does: sorted names, empty values left out, times in China, amounts in yuan', () => {
    expect(signedContent({ b: '2', a: '1', sign: 'x', c: '', d: 'a=b&c' }, ['sign'])).toBe('a=1&b=2&d=a=b&c');
    expect(alipayTime(Date.UTC(2026, 10, 29, 17, 5, 9))).toBe('2026-11-30 01:05:09');
    expect([alipayAmount(5000), alipayAmount(1), alipayAmount(12345)]).toEqual(['50.00', '0.01', '123.45']);
  });

  it('reads PARLEY_ALIPAY_*: all or none, with keys that can be read', () => {
    const k = keys();
    const env = {
      PARLEY_ALIPAY_APP_ID: APP_ID,
      PARLEY_ALIPAY_PRIVATE_KEY: k.merchantPrivate,
      PARLEY_ALIPAY_PUBLIC_KEY: k.alipayPublic,
    };
    expect(loadConfig(env).alipay).toEqual({
      appId: APP_ID,
      privateKey: k.merchantPrivate,
      alipayPublicKey: k.alipayPublic,
      gateway: 'https://openapi.alipay.com/gateway.do',
    });
    expect(loadConfig({}).alipay).toBeUndefined();
    expect(() => loadConfig({ PARLEY_ALIPAY_APP_ID: APP_ID })).toThrow(/alipay\.privateKey/);
    expect(() => loadConfig({ ...env, PARLEY_ALIPAY_PRIVATE_KEY: 'bm90IGEga2V5' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, PARLEY_ALIPAY_PUBLIC_KEY: 'bm90IGEga2V5' })).toThrow(
      /alipay\.alipayPublicKey \(from PARLEY_ALIPAY_PUBLIC_KEY\)/,
    );
    expect(() => loadConfig({ ...env, PARLEY_ALIPAY_APP_ID: 'abc' })).toThrow(/Alipay app id/);
  });
});
