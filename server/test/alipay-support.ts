import { createSign, generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { ServerConfig } from '../src/config.js';
import { signedContent } from '../src/payments/alipay.js';
import { defer } from './helpers.js';
import { productServer, signIn } from './product-support.js';

/** A merchant's key pair and Alipay's, as Alipay's tools give them: bare base64, PKCS#1 and SPKI. */
export function keys() {
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const bare = (der: Buffer) => der.toString('base64');
  return {
    merchantPrivate: bare(merchant.privateKey.export({ format: 'der', type: 'pkcs1' })),
    merchantPublic: merchant.publicKey,
    alipayPrivate: alipay.privateKey,
    alipayPublic: bare(alipay.publicKey.export({ format: 'der', type: 'spki' })),
  };
}

export const APP_ID = '2021000000000001';

/**
 * A stand-in for Alipay's gateway on loopback (PAY-7): the queries it was asked (their form fields), the trades it
 * knows by our order number, and how it answers: signed with Alipay's key, as its gateway writes its JSON.
 */
export async function fakeGateway(k: ReturnType<typeof keys>) {
  const queries: Array<Record<string, string>> = [];
  const trades = new Map<string, Record<string, string>>();
  const state = { signed: true };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      queries.push(form);
      const { out_trade_no: outTradeNo } = JSON.parse(form['biz_content'] ?? '{}') as { out_trade_no?: string };
      const trade = trades.get(outTradeNo ?? '');
      // Written as Alipay writes it, a brace and a quote inside a string included: the signature covers these bytes.
      const inner = trade
        ? JSON.stringify({
            code: '10000',
            msg: 'Success',
            buyer_logon_id: '159****5620',
            body: '钱包 {"充值"}',
            ...trade,
          })
        : JSON.stringify({
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.TRADE_NOT_EXIST',
            sub_msg: '交易不存在',
          });
      const sign = createSign('RSA-SHA256')
        .update(state.signed ? inner : `${inner} `, 'utf8')
        .sign(k.alipayPrivate, 'base64');
      res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
      res.end(`{"alipay_trade_query_response":${inner},"sign":"${sign}"}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { queries, trades, state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do` };
}

/**
 * A product server with Alipay set up against {@link fakeGateway}, a member signed in, and what the tests ask of it:
 * `notify` posts a notification as Alipay would, `recharge`, `balance` and `status` call the wallet's API.
 */
export async function alipayServer(overrides: Partial<ServerConfig> = {}) {
  const k = keys();
  const gateway = await fakeGateway(k);
  const p = await productServer({
    ...overrides,
    alipay: { appId: APP_ID, privateKey: k.merchantPrivate, alipayPublicKey: k.alipayPublic, gateway: gateway.url },
  });
  const { token } = await signIn(p);
  /** Posts a notification as Alipay would: its fields, signed with Alipay's key unless `sign` is given. */
  const notify = async (fields: Record<string, string>, tamper: Record<string, string> = {}) => {
    const all: Record<string, string> = {
      notify_time: '2026-11-29 22:10:00',
      notify_type: 'trade_status_sync',
      notify_id: 'ac05099524730693a8b330c5ecf72da9786',
      app_id: APP_ID,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: '2026112922001404000000000001',
      seller_id: '2088000000000000',
      subject: '钱包充值',
      gmt_payment: '2026-11-29 22:09:58',
      ...fields,
    };
    all['sign'] = createSign('RSA-SHA256')
      .update(signedContent(all, ['sign', 'sign_type']), 'utf8')
      .sign(k.alipayPrivate, 'base64');
    const res = await fetch(`${p.url}/index.php/api/pay/alipay/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({ ...all, ...tamper }).toString(),
    });
    expect(res.status).toBe(200);
    return res.text();
  };
  const recharge = async (money: number, type = 'alipay') =>
    (await p.call('member/recharge', { token, money, type, agree: true })).ret as Record<string, unknown>;
  const balance = async () => (await p.call('member/money', { token })).ret.balance as number;
  const status = async (id: unknown) =>
    ((await p.call('member/recharge_list', { token })).ret as Array<Record<string, unknown>>).find((r) => r.id === id);
  return { p, k, gateway, token, notify, recharge, balance, status };
}
