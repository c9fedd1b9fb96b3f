import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { CLOSED_REASONS } from '../src/payments/service.js';
import { wechatTime } from '../src/payments/wechat.js';
import { defer } from './helpers.js';
import { productServer, signIn } from './product-support.js';

const MCH_ID = '1900000001';
const APP_ID = 'wxd678efh567hg6787';
const SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
const API_V3_KEY = 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6';
const H5_URL =
  'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016121516420242444321ca0631331346&package=1405458241';

/** The merchant's key pair and the platform's, in PEM. */
function keys() {
  const pem = { format: 'pem', type: 'pkcs8' } as const;
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    merchantPrivate: merchant.privateKey.export(pem) as string,
    merchantPublic: merchant.publicKey,
    platformPrivate: platform.privateKey,
    platformPublic: platform.publicKey.export({ format: 'pem', type: 'spki' }) as string,
  };
}

/** Signs `body` as WeChat Pay's platform does: its headers. */
function platformHeaders(k: ReturnType<typeof keys>, body: string, timestampS: number) {
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestampS}\n${nonce}\n${body}\n`, 'utf8')
    .sign(k.platformPrivate, 'base64');
  return {
    'wechatpay-timestamp': String(timestampS),
    'wechatpay-nonce': nonce,
    'wechatpay-signature': signature,
    'wechatpay-serial': 'PUB_KEY_ID_0000000001',
  };
}

/**
 * A stand-in for WeChat Pay's API on loopback: the orders it was asked to place and the queries it was asked, the
 * transactions it knows by our order number (PAY-7), and how it answers them.
 */
async function fakeWechatPay(k: ReturnType<typeof keys>, now: () => number) {
  const orders: Array<{ authorization: string; body: string }> = [];
  const queries: Array<{ authorization: string; url: string }> = [];
  const trades = new Map<string, Record<string, unknown>>();
  const state = { signed: true };
  const answer = (res: ServerResponse, status: number, body: string) => {
    const headers = platformHeaders(k, state.signed ? body : `${body} `, Math.floor(now() / 1000));
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const url = req.url ?? '';
      const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/?]+)\?mchid=(\w+)$/.exec(url);
      if (req.method === 'GET' && query) {
        queries.push({ authorization: req.headers.authorization ?? '', url });
        const trade = trades.get(decodeURIComponent(query[1] ?? ''));
        if (trade) answer(res, 200, JSON.stringify({ appid: APP_ID, mchid: MCH_ID, ...trade }));
        else answer(res, 404, JSON.stringify({ code: 'ORDER_NOT_EXIST', message: '订单不存在' }));
        return;
      }
      orders.push({ authorization: req.headers.authorization ?? '', body });
      answer(res, url === '/v3/pay/transactions/h5' ? 200 : 404, JSON.stringify({ h5_url: H5_URL }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { orders, queries, trades, state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function wechatServer() {
  const k = keys();
  let clock = () => 0;
  const fake = await fakeWechatPay(k, () => clock());
  const p = await productServer({
    wechat: {
      mchId: MCH_ID,
      appId: APP_ID,
      serialNo: SERIAL,
      privateKey: k.merchantPrivate,
      platformKey: k.platformPublic,
      apiV3Key: API_V3_KEY,
      apiBase: fake.url,
    },
  });
  clock = p.now;
  const { token } = await signIn(p);
  const recharge = async (money: number) =>
    (await p.call('member/recharge', { token, money, type: 'wechat', agree: true })).ret as Record<string, unknown>;
  const balance = async () => (await p.call('member/money', { token })).ret.balance as number;
  const status = async (id: unknown) =>
    ((await p.call('member/recharge_list', { token })).ret as Array<Record<string, unknown>>).find((r) => r.id === id);
  /** Posts a notification as WeChat Pay does: the transaction encrypted with the API v3 key, the body signed. */
  const notify = async (
    transaction: Record<string, unknown>,
    options: { at?: number; tamper?: boolean; key?: string } = {},
  ) => {
    const nonce = randomBytes(6).toString('hex');
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(options.key ?? API_V3_KEY, 'utf8'), Buffer.from(nonce));
    cipher.setAAD(Buffer.from('transaction', 'utf8'));
    const plain = JSON.stringify({ appid: APP_ID, mchid: MCH_ID, ...transaction });
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const body = JSON.stringify({
      id: 'EV-2018022511223320873',
      create_time: '2026-11-29T22:10:00+08:00',
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: {
        original_type: 'transaction',
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: ciphertext.toString('base64'),
        associated_data: 'transaction',
        nonce,
      },
    });
    const headers = platformHeaders(k, body, Math.floor((options.at ?? p.now()) / 1000));
    const res = await fetch(`${p.url}/index.php/api/pay/wechat/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: options.tamper ? body.replace('支付成功', '支付失败') : body,
    });
    return res.status;
  };
  return { p, k, fake, token, recharge, balance, status, notify };
}

const paidOf = (id: unknown, total: number) => ({
  out_trade_no: String(id),
  transaction_id: '4200000000201611290000000001',
  trade_state: 'SUCCESS',
  trade_type: 'MWEB',
  amount: { total, payer_total: total, currency: 'CNY', payer_currency: 'CNY' },
});

describe('payments: WeChat Pay', () => {
  it('PAY-4: a recharge by WeChat Pay places a signed H5 order and carries its page, coming back to the records', async () => {
    const { p, k, fake, recharge } = await wechatServer();
    const ret = await recharge(50);
    expect(ret).toMatchObject({ amount: 50, type: 'wechat', status: 'unpaid', payable: true });
    expect(ret.pay_url).toBe(`${H5_URL}&redirect_url=${encodeURIComponent(`${p.url}/h5/#/member/recharge-records`)}`);
    expect(fake.orders).toHaveLength(1);
    const order = fake.orders[0]!;
    expect(JSON.parse(order.body)).toEqual({
      appid: APP_ID,
      mchid: MCH_ID,
      description: '钱包充值',
      out_trade_no: ret.id,
      time_expire: wechatTime(p.now() + 30 * 60_000),
      notify_url: `${p.url}/index.php/api/pay/wechat/notify`,
      amount: { total: 5000, currency: 'CNY' },
      scene_info: { payer_client_ip: '127.0.0.1', h5_info: { type: 'Wap' } },
    });
    // The merchant's signature over the method, path, time, nonce and body.
    const auth = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(order.authorization)?.[1] ?? '';
    const fields: Record<string, string> = Object.fromEntries(
      [...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    expect(fields).toMatchObject({ mchid: MCH_ID, serial_no: SERIAL, timestamp: String(Math.floor(p.now() / 1000)) });
    const message = `POST\n/v3/pay/transactions/h5\n${fields['timestamp']}\n${fields['nonce_str']}\n${order.body}\n`;
    expect(
      createVerify('RSA-SHA256')
        .update(message)
        .verify(k.merchantPublic, fields['signature'] ?? '', 'base64'),
    ).toBe(true);
  });

  it('PAY-4: an answer the platform did not sign gives no page; the recharge waits, and Pay says so', async () => {
    const { p, fake, token, recharge } = await wechatServer();
    fake.state.signed = false;
    const ret = await recharge(20);
    expect(ret).toMatchObject({ status: 'unpaid', pay_url: null });
    expect(await p.call('member/recharge_pay', { token, id: ret.id })).toMatchObject({ code: 'pay_page_unavailable' });
    fake.state.signed = true;
    expect((await p.call('member/recharge_pay', { token, id: ret.id })).ret.pay_url).toContain(H5_URL);
  });

  it('PAY-5: WeChat Pay’s notification, signed and encrypted, credits the wallet once', async () => {
    const { notify, recharge, balance, status } = await wechatServer();
    const { id } = await recharge(50);
    expect(await notify(paidOf(id, 5000))).toBe(204);
    expect(await balance()).toBe(50);
    expect(await status(id)).toMatchObject({ status: 'success', payable: false });
    expect(await notify(paidOf(id, 5000))).toBe(204);
    expect(await balance()).toBe(50);
  });

  it('PAY-5: a notification changed, old, of another merchant or key, or order credits nothing', async () => {
    const { p, notify, recharge, balance, status } = await wechatServer();
    const { id } = await recharge(50);
    expect(await notify(paidOf(id, 5000), { tamper: true })).toBe(400);
    expect(await notify(paidOf(id, 5000), { at: p.now() - 6 * 60_000 })).toBe(400);
    expect(await notify(paidOf(id, 5000), { key: 'z'.repeat(32) })).toBe(400);
    expect(await notify({ ...paidOf(id, 5000), mchid: '1900000002' })).toBe(400);
    expect(await notify(paidOf('ffffffffffffffff', 5000))).toBe(400);
    expect(await balance()).toBe(0);
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
  });

  it('PAY-8: another amount paid makes the recharge abnormal and credits nothing; WeChat Pay hears it was taken', async () => {
    const { notify, recharge, balance, status } = await wechatServer();
    const { id } = await recharge(50);
    expect(await notify(paidOf(id, 1))).toBe(204);
    expect(await notify(paidOf(id, 1))).toBe(204);
    expect(await balance()).toBe(0);
    expect(await status(id)).toMatchObject({ status: 'abnormal', reason: 'paid 0.01 yuan for a recharge of 50.00' });
  });

  it('PAY-6: a payment WeChat Pay closed unpaid fails the recharge; one still waiting changes nothing', async () => {
    const { notify, recharge, status } = await wechatServer();
    const { id } = await recharge(30);
    expect(await notify({ out_trade_no: String(id), trade_state: 'NOTPAY' })).toBe(204);
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(await notify({ out_trade_no: String(id), trade_state: 'CLOSED' })).toBe(204);
    expect(await status(id)).toMatchObject({ status: 'failed', reason: CLOSED_REASONS.wechat });
  });

  it('PAY-7: a payment whose notification never came is found by asking WeChat Pay, with a signed query', async () => {
    const { p, k, fake, notify, recharge, balance, status } = await wechatServer();
    const { id } = await recharge(50);
    // Not paid yet: WeChat Pay knows no such transaction, and the recharge waits.
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(fake.queries).toHaveLength(1);
    const query = fake.queries[0]!;
    expect(query.url).toBe(`/v3/pay/transactions/out-trade-no/${String(id)}?mchid=${MCH_ID}`);
    const auth = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(query.authorization)?.[1] ?? '';
    const fields: Record<string, string> = Object.fromEntries(
      [...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    const message = `GET\n${query.url}\n${fields['timestamp']}\n${fields['nonce_str']}\n\n`;
    expect(
      createVerify('RSA-SHA256')
        .update(message)
        .verify(k.merchantPublic, fields['signature'] ?? '', 'base64'),
    ).toBe(true);
    // Paid, and its notification lost: asked again only after ten seconds, then credited once.
    fake.trades.set(String(id), paidOf(id, 5000));
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(fake.queries).toHaveLength(1);
    p.advance(10_000);
    expect(await status(id)).toMatchObject({ status: 'success', payable: false });
    expect(await balance()).toBe(50);
    p.advance(10_000);
    await status(id);
    expect(fake.queries).toHaveLength(2);
    // Its notification, late, credits nothing more.
    expect(await notify(paidOf(id, 5000))).toBe(204);
    expect(await balance()).toBe(50);
  });

  it('PAY-7: a payment WeChat Pay closed fails the recharge; an unsigned answer or another order’s changes nothing', async () => {
    const { p, fake, token, recharge, balance, status } = await wechatServer();
    const { id } = await recharge(30);
    fake.trades.set(String(id), paidOf(id, 3000));
    fake.state.signed = false;
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    fake.state.signed = true;
    fake.trades.set(String(id), paidOf('ffffffffffffffff', 3000));
    p.advance(10_000);
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    fake.trades.set(String(id), { ...paidOf(id, 3000), mchid: '1900000002' });
    p.advance(10_000);
    expect(await status(id)).toMatchObject({ status: 'unpaid' });
    expect(await balance()).toBe(0);
    // Cancelling asks at once: a payment WeChat Pay closed fails the recharge instead.
    fake.trades.set(String(id), { out_trade_no: String(id), trade_state: 'CLOSED' });
    expect((await p.call('member/recharge_cancel', { token, id })).ret).toMatchObject({
      status: 'failed',
      reason: CLOSED_REASONS.wechat,
    });
  });

  it('reads PARLEY_WECHAT_*: all or none, with keys that can be read', () => {
    const k = keys();
    const env = {
      PARLEY_WECHAT_MCH_ID: MCH_ID,
      PARLEY_WECHAT_APP_ID: APP_ID,
      PARLEY_WECHAT_SERIAL_NO: SERIAL,
      // As an environment variable often holds PEM: on one line, with \n written out.
      PARLEY_WECHAT_PRIVATE_KEY: k.merchantPrivate.replace(/\n/g, '\\n'),
      PARLEY_WECHAT_PLATFORM_KEY: k.platformPublic,
      PARLEY_WECHAT_API_V3_KEY: API_V3_KEY,
    };
    expect(loadConfig(env).wechat).toMatchObject({ mchId: MCH_ID, apiBase: 'https://api.mch.weixin.qq.com' });
    expect(loadConfig({}).wechat).toBeUndefined();
    expect(() => loadConfig({ PARLEY_WECHAT_MCH_ID: MCH_ID })).toThrow(/wechat\.appId/);
    expect(() => loadConfig({ ...env, PARLEY_WECHAT_PRIVATE_KEY: 'not a key' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, PARLEY_WECHAT_API_V3_KEY: 'short' })).toThrow(
      /wechat\.apiV3Key \(from PARLEY_WECHAT_API_V3_KEY\)/,
    );
  });
});
