import {
  createDecipheriv,
  createSign,
  createVerify,
  randomBytes,
  type KeyObject,
  createPrivateKey,
  createPublicKey,
} from 'node:crypto';
import { keyText } from './keys.js';

/**
 * PAY-4..PAY-7: WeChat Pay's H5 payment (API v3) for the wallet's recharges: an order placed with WeChat Pay's API,
 * signed with the merchant's key, whose `h5_url` the payer opens; and WeChat Pay's notification of the result,
 * checked with the platform's public key and decrypted with the API v3 key; and the query of a payment's state, for
 * a notification that did not come. The HTTP calls to WeChat Pay are made by the caller's `fetch`.
 */

/** The merchant's WeChat Pay account (see docs/product-app.md, "Payments"). */
export interface WechatPayConfig {
  /** The merchant id (`mchid`). Env `PARLEY_WECHAT_MCH_ID`. */
  mchId: string;
  /** The app id the merchant pays for (`appid`: an official account's or a mobile app's). Env `PARLEY_WECHAT_APP_ID`. */
  appId: string;
  /** The serial number of the merchant's API certificate (`serial_no`). Env `PARLEY_WECHAT_SERIAL_NO`. */
  serialNo: string;
  /** The merchant's API private key, PEM (`apiclient_key.pem`). Env `PARLEY_WECHAT_PRIVATE_KEY`. */
  privateKey: string;
  /** The WeChat Pay platform's public key, PEM, which signs its answers and notifications. Env `PARLEY_WECHAT_PLATFORM_KEY`. */
  platformKey: string;
  /** The API v3 key: 32 characters, which encrypts notifications. Env `PARLEY_WECHAT_API_V3_KEY`. */
  apiV3Key: string;
  /** @default 'https://api.mch.weixin.qq.com' */
  apiBase: string;
}

/** WeChat Pay's API. */
export const WECHAT_API_BASE = 'https://api.mch.weixin.qq.com';

/** A notification older or newer than this is refused: a copy of an old one is not taken again. */
export const WECHAT_NOTIFY_SKEW_MS = 5 * 60_000;

/** Reads the merchant's API private key (PEM). @throws when it cannot be read */
export function wechatPrivateKey(text: string): KeyObject {
  return createPrivateKey(keyText(text));
}

/** Reads the platform's public key (PEM). @throws when it cannot be read */
export function wechatPublicKey(text: string): KeyObject {
  return createPublicKey(keyText(text));
}

/** The merchant's and the platform's keys, read once. @throws when either cannot be read */
export function wechatKeys(config: WechatPayConfig): { merchant: KeyObject; platform: KeyObject } {
  return { merchant: wechatPrivateKey(config.privateKey), platform: wechatPublicKey(config.platformKey) };
}

/**
 * The `Authorization` header of a request to WeChat Pay's API: the merchant's signature (SHA-256 with RSA) over the
 * method, the path with its query, the time in seconds, a nonce and the body, each followed by a newline.
 */
export function wechatAuthorization(params: {
  config: WechatPayConfig;
  key: KeyObject;
  method: string;
  pathAndQuery: string;
  body: string;
  nowMs: number;
  nonce?: string;
}): string {
  const { config, key, method, pathAndQuery, body, nowMs } = params;
  const nonce = params.nonce ?? randomBytes(16).toString('hex');
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = createSign('RSA-SHA256')
    .update(`${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`, 'utf8')
    .sign(key, 'base64');
  return (
    `WECHATPAY2-SHA256-RSA2048 mchid="${config.mchId}",nonce_str="${nonce}",signature="${signature}",` +
    `timestamp="${timestamp}",serial_no="${config.serialNo}"`
  );
}

/** WeChat Pay's time: RFC 3339 in China Standard Time (`2026-11-29T22:40:00+08:00`). */
export function wechatTime(ms: number): string {
  return `${new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`;
}

/** What an H5 order is made of. */
export interface WechatH5Order {
  outTradeNo: string;
  amountFen: number;
  description: string;
  notifyUrl: string;
  /** The payer's address, which WeChat Pay asks for an H5 payment. */
  payerIp: string;
  /** When the order closes, paid or not, in milliseconds. */
  expiresAt: number;
}

/** How a call to WeChat Pay's API is made: the merchant, its keys, the clock, the time it may take, the `fetch`. */
interface WechatCall {
  config: WechatPayConfig;
  keys: { merchant: KeyObject; platform: KeyObject };
  nowMs: number;
  timeoutMs: number;
  fetch: typeof fetch;
}

/**
 * Calls WeChat Pay's API (`method` on `pathAndQuery`, with `body` as JSON when given), signed with the merchant's
 * key, and answers its status and JSON; undefined when it does not answer in time, or answers what its platform
 * did not sign (its answers are signed as its notifications are: one not signed by the platform is not WeChat Pay's).
 */
async function callWechatPay(
  call: WechatCall,
  request: { method: 'GET' | 'POST'; pathAndQuery: string; body?: string },
): Promise<{ status: number; ok: boolean; answer: Record<string, unknown> } | undefined> {
  const { config, keys } = call;
  const { method, pathAndQuery } = request;
  const body = request.body ?? '';
  try {
    const res = await call.fetch(`${config.apiBase.replace(/\/+$/, '')}${pathAndQuery}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: wechatAuthorization({
          config,
          key: keys.merchant,
          method,
          pathAndQuery,
          body,
          nowMs: call.nowMs,
        }),
      },
      ...(request.body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(call.timeoutMs),
    });
    const text = await res.text();
    const signed = verifyWechatSignature(keys.platform, {
      timestamp: res.headers.get('wechatpay-timestamp') ?? '',
      nonce: res.headers.get('wechatpay-nonce') ?? '',
      signature: res.headers.get('wechatpay-signature') ?? '',
      body: text,
    });
    if (!signed) return undefined;
    const answer: unknown = JSON.parse(text);
    if (typeof answer !== 'object' || answer === null) return undefined;
    return { status: res.status, ok: res.ok, answer: answer as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/**
 * PAY-4: places an H5 order with WeChat Pay and answers its `h5_url`; undefined when WeChat Pay does not answer in
 * `timeoutMs`, refuses, or answers what its platform did not sign.
 */
export async function placeH5Order(params: WechatCall & { order: WechatH5Order }): Promise<string | undefined> {
  const { config, order } = params;
  const body = JSON.stringify({
    appid: config.appId,
    mchid: config.mchId,
    description: order.description,
    out_trade_no: order.outTradeNo,
    time_expire: wechatTime(order.expiresAt),
    notify_url: order.notifyUrl,
    amount: { total: order.amountFen, currency: 'CNY' },
    scene_info: { payer_client_ip: order.payerIp, h5_info: { type: 'Wap' } },
  });
  const reply = await callWechatPay(params, { method: 'POST', pathAndQuery: '/v3/pay/transactions/h5', body });
  const url = reply?.ok ? reply.answer['h5_url'] : undefined;
  return typeof url === 'string' && url.startsWith('https://') ? url : undefined;
}

/** Whether `signature` is the platform's over `timestamp`, `nonce` and `body`, each followed by a newline. */
export function verifyWechatSignature(
  key: KeyObject,
  signed: { timestamp: string; nonce: string; signature: string; body: string },
): boolean {
  if (!signed.signature || !signed.timestamp || !signed.nonce) return false;
  try {
    return createVerify('RSA-SHA256')
      .update(`${signed.timestamp}\n${signed.nonce}\n${signed.body}\n`, 'utf8')
      .verify(key, signed.signature, 'base64');
  } catch {
    return false;
  }
}

/** Decrypts a notification's `resource` (AEAD_AES_256_GCM with the API v3 key); undefined when it does not. */
export function decryptResource(
  apiV3Key: string,
  resource: { ciphertext: string; nonce: string; associated_data?: string },
): string | undefined {
  try {
    const data = Buffer.from(resource.ciphertext, 'base64');
    if (data.length < 17) return undefined;
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(apiV3Key, 'utf8'),
      Buffer.from(resource.nonce, 'utf8'),
    );
    decipher.setAuthTag(data.subarray(data.length - 16));
    decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** What a checked notification says of our order. */
export type WechatOutcome =
  | { kind: 'paid'; outTradeNo: string; totalFen: number; transactionId: string }
  | { kind: 'closed'; outTradeNo: string }
  | { kind: 'waiting' };

/**
 * PAY-5: reads a notification WeChat Pay posted: undefined when it is not WeChat Pay's (a bad signature, a time more
 * than {@link WECHAT_NOTIFY_SKEW_MS} off, a resource that does not decrypt, another merchant's or app's), else
 * what it says: paid (`SUCCESS`), closed unpaid (`CLOSED`, `PAYERROR`, `REVOKED`), or still waiting.
 */
export function readWechatNotification(params: {
  config: WechatPayConfig;
  platformKey: KeyObject;
  headers: { timestamp: string; nonce: string; signature: string };
  body: string;
  nowMs: number;
}): WechatOutcome | undefined {
  const { config, headers, body } = params;
  if (!verifyWechatSignature(params.platformKey, { ...headers, body })) return undefined;
  const at = Number(headers.timestamp) * 1000;
  if (!Number.isFinite(at) || Math.abs(params.nowMs - at) > WECHAT_NOTIFY_SKEW_MS) return undefined;
  let transaction: Record<string, unknown>;
  try {
    const notice = JSON.parse(body) as {
      resource?: { ciphertext?: unknown; nonce?: unknown; associated_data?: unknown };
    };
    const resource = notice.resource;
    if (!resource || typeof resource.ciphertext !== 'string' || typeof resource.nonce !== 'string') return undefined;
    const plain = decryptResource(config.apiV3Key, {
      ciphertext: resource.ciphertext,
      nonce: resource.nonce,
      associated_data: typeof resource.associated_data === 'string' ? resource.associated_data : '',
    });
    if (plain === undefined) return undefined;
    transaction = JSON.parse(plain) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  return transactionOutcome(config, transaction);
}

/**
 * What a transaction (a notification's resource, or the answer to a query) says of our order: undefined when it is
 * another merchant's or app's, else paid (`SUCCESS`), closed unpaid (`CLOSED`, `PAYERROR`, `REVOKED`), or waiting.
 */
function transactionOutcome(config: WechatPayConfig, transaction: Record<string, unknown>): WechatOutcome | undefined {
  if (transaction['mchid'] !== config.mchId || transaction['appid'] !== config.appId) return undefined;
  const outTradeNo = typeof transaction['out_trade_no'] === 'string' ? transaction['out_trade_no'] : '';
  const state = transaction['trade_state'];
  if (state === 'SUCCESS') {
    const amount = transaction['amount'] as { total?: unknown; currency?: unknown } | undefined;
    const total = amount?.currency === undefined || amount.currency === 'CNY' ? Number(amount?.total) : NaN;
    const id = transaction['transaction_id'];
    return { kind: 'paid', outTradeNo, totalFen: total, transactionId: typeof id === 'string' ? id : '' };
  }
  if (state === 'CLOSED' || state === 'PAYERROR' || state === 'REVOKED') return { kind: 'closed', outTradeNo };
  return { kind: 'waiting' };
}

/**
 * PAY-7: asks WeChat Pay how the payment of our order `outTradeNo` stands (`GET
 * /v3/pay/transactions/out-trade-no/{out_trade_no}`, signed as PAY-4): what it says, as a notification would;
 * waiting when WeChat Pay knows no such order (404 `ORDER_NOT_EXIST`); undefined when it does not answer in
 * `timeoutMs`, refuses, or answers what its platform did not sign, or of another order, merchant or app.
 */
export async function queryWechatOrder(
  params: WechatCall & { outTradeNo: string },
): Promise<WechatOutcome | undefined> {
  const { config, outTradeNo } = params;
  const pathAndQuery =
    `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}` +
    `?mchid=${encodeURIComponent(config.mchId)}`;
  const reply = await callWechatPay(params, { method: 'GET', pathAndQuery });
  if (!reply) return undefined;
  if (reply.status === 404 && reply.answer['code'] === 'ORDER_NOT_EXIST') return { kind: 'waiting' };
  if (!reply.ok) return undefined;
  const outcome = transactionOutcome(config, reply.answer);
  return outcome && (outcome.kind === 'waiting' || outcome.outTradeNo === outTradeNo) ? outcome : undefined;
}
