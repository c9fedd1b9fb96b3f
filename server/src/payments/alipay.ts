import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';
import { keyText } from './keys.js';

/**
 * PAY-1..PAY-3, PAY-7: Alipay's mobile web payment (`alipay.trade.wap.pay`) for the wallet's recharges, over Alipay's open
 * API: a payment URL signed with the merchant's key (RSA2), and the asynchronous notification of its result, checked
 * with Alipay's public key; and the query of a payment's state, for a notification that did not come. HTTP goes
 * through the caller's `fetch`.
 */

/** The merchant's Alipay application (see docs/product-app.md, "Payments"). */
export interface AlipayConfig {
  /** The application's id (`app_id`). Env `PARLEY_ALIPAY_APP_ID`. */
  appId: string;
  /** The application's private key: PEM, or the bare base64 Alipay's key tool writes (PKCS#8 or PKCS#1). */
  privateKey: string;
  /** Alipay's public key for the application: PEM, or bare base64 (SPKI). */
  alipayPublicKey: string;
  /** @default 'https://openapi.alipay.com/gateway.do' (the sandbox's is `https://openapi-sandbox.dl.alipaydev.com/gateway.do`) */
  gateway: string;
}

/** Alipay's production gateway. */
export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';

/** Reads a private key as Alipay's tools give it: PEM, or bare base64 of PKCS#8 or PKCS#1. @throws on neither */
export function alipayPrivateKey(text: string): KeyObject {
  const trimmed = keyText(text);
  if (trimmed.startsWith('-----BEGIN')) return createPrivateKey(trimmed);
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64');
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  }
}

/** Reads Alipay's public key: PEM, or bare base64 (SPKI). @throws when it is neither */
export function alipayPublicKey(text: string): KeyObject {
  const trimmed = keyText(text);
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  return createPublicKey({ key: Buffer.from(trimmed.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
}

/**
 * The text Alipay signs: every parameter but those left out, with a value, sorted by name (code points), as
 * `name=value` joined by `&`; values as they are, not URL-encoded.
 */
export function signedContent(params: Readonly<Record<string, string>>, leaveOut: readonly string[]): string {
  return Object.keys(params)
    .filter((name) => !leaveOut.includes(name) && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** Signs a request's parameters (RSA2: SHA-256 with RSA), base64. */
export function signRequest(params: Readonly<Record<string, string>>, key: KeyObject): string {
  return createSign('RSA-SHA256')
    .update(signedContent(params, ['sign']), 'utf8')
    .sign(key, 'base64');
}

/** Whether a notification's `sign` is Alipay's over its other fields (`sign` and `sign_type` are left out). */
export function verifyNotification(fields: Readonly<Record<string, string>>, key: KeyObject): boolean {
  const sign = fields['sign'];
  if (!sign || fields['sign_type'] !== 'RSA2') return false;
  try {
    return createVerify('RSA-SHA256')
      .update(signedContent(fields, ['sign', 'sign_type']), 'utf8')
      .verify(key, sign, 'base64');
  } catch {
    return false;
  }
}

/** Alipay's time: `yyyy-MM-dd HH:mm:ss` in China Standard Time (UTC+8), which its gateway reads. */
export function alipayTime(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  );
}

/** Fen as Alipay's amounts: yuan with two decimals. */
export function alipayAmount(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** An Alipay amount in fen (`50.00` is 5 000); NaN when it is not yuan with two decimals. */
export function alipayFen(text: string): number {
  const match = /^(\d{1,12})\.(\d{2})$/.exec(text);
  return match ? Number(match[1]) * 100 + Number(match[2]) : Number.NaN;
}

/** What a payment URL is made of. */
export interface WapPayOrder {
  /** Our order's number (`out_trade_no`): the recharge's id. */
  outTradeNo: string;
  /** In fen. */
  amountFen: number;
  subject: string;
  /** Where Alipay posts the result (PAY-2). */
  notifyUrl: string;
  /** Where the payer's browser comes back to. */
  returnUrl: string;
  /** When the payment closes, paid or not, in milliseconds. */
  expiresAt: number;
  now: number;
}

/** PAY-1: the signed URL that opens Alipay's payment page for `order` (a GET of the gateway with every parameter). */
export function wapPayUrl(config: AlipayConfig, key: KeyObject, order: WapPayOrder): string {
  const params: Record<string, string> = {
    app_id: config.appId,
    method: 'alipay.trade.wap.pay',
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: alipayTime(order.now),
    version: '1.0',
    notify_url: order.notifyUrl,
    return_url: order.returnUrl,
    biz_content: JSON.stringify({
      out_trade_no: order.outTradeNo,
      total_amount: alipayAmount(order.amountFen),
      subject: order.subject,
      product_code: 'QUICK_WAP_WAY',
      time_expire: alipayTime(order.expiresAt),
    }),
  };
  params['sign'] = signRequest(params, key);
  const url = new URL(config.gateway);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * The text Alipay signed in one of its answers: the JSON of the answer's `responseKey` object exactly as it came,
 * from its opening brace to the matching closing one (strings and their escapes skipped). Undefined when the answer
 * has no such object.
 */
export function signedAnswer(text: string, responseKey: string): string | undefined {
  const key = text.indexOf(`"${responseKey}"`);
  if (key < 0) return undefined;
  const start = text.indexOf('{', key + responseKey.length + 2);
  if (start < 0 || text.slice(key + responseKey.length + 2, start).trim() !== ':') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/** What a trade's status says of our order, in a notification or an answer to a query. */
function outcomeOf(
  outTradeNo: string,
  status: string | undefined,
  amount: string | undefined,
  tradeNo: string | undefined,
): AlipayOutcome {
  if (status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED') {
    return { kind: 'paid', outTradeNo, amount: amount ?? '', tradeNo: tradeNo ?? '' };
  }
  if (status === 'TRADE_CLOSED') return { kind: 'closed', outTradeNo };
  return { kind: 'waiting' };
}

/**
 * PAY-7: asks Alipay how the payment of our order `outTradeNo` stands (`alipay.trade.query`, signed as PAY-1): what it
 * says, as a notification would; waiting when Alipay knows no such trade yet (the payer never opened the page);
 * undefined when Alipay does not answer in `timeoutMs`, refuses, or answers what its key did not sign or of another
 * order.
 */
export async function queryTrade(params: {
  config: AlipayConfig;
  keys: { merchant: KeyObject; alipay: KeyObject };
  outTradeNo: string;
  nowMs: number;
  timeoutMs: number;
  fetch: typeof fetch;
}): Promise<AlipayOutcome | undefined> {
  const { config, keys, outTradeNo } = params;
  const form: Record<string, string> = {
    app_id: config.appId,
    method: 'alipay.trade.query',
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: alipayTime(params.nowMs),
    version: '1.0',
    biz_content: JSON.stringify({ out_trade_no: outTradeNo }),
  };
  form['sign'] = signRequest(form, keys.merchant);
  try {
    const res = await params.fetch(config.gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(params.timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) return undefined;
    const signed = signedAnswer(text, 'alipay_trade_query_response');
    const sign = (JSON.parse(text) as { sign?: unknown }).sign;
    if (signed === undefined || typeof sign !== 'string') return undefined;
    if (!createVerify('RSA-SHA256').update(signed, 'utf8').verify(keys.alipay, sign, 'base64')) return undefined;
    const answer = JSON.parse(signed) as Record<string, unknown>;
    const field = (name: string) => (typeof answer[name] === 'string' ? answer[name] : undefined);
    if (field('code') !== '10000') {
      return field('sub_code') === 'ACQ.TRADE_NOT_EXIST' ? { kind: 'waiting' } : undefined;
    }
    if (field('out_trade_no') !== outTradeNo) return undefined;
    return outcomeOf(outTradeNo, field('trade_status'), field('total_amount'), field('trade_no'));
  } catch {
    return undefined;
  }
}

/** What a verified notification says of our order. */
export type AlipayOutcome =
  | { kind: 'paid'; outTradeNo: string; amount: string; tradeNo: string }
  | { kind: 'closed'; outTradeNo: string }
  | { kind: 'waiting' };

/**
 * PAY-2: reads a notification Alipay posted: undefined when it is not Alipay's (a bad or missing signature, another
 * application's), else what it says: paid (`TRADE_SUCCESS`, `TRADE_FINISHED`), closed unpaid (`TRADE_CLOSED`), or
 * still waiting (`WAIT_BUYER_PAY`, or a status not known).
 */
export function readNotification(
  config: AlipayConfig,
  key: KeyObject,
  fields: Readonly<Record<string, string>>,
): AlipayOutcome | undefined {
  if (!verifyNotification(fields, key) || fields['app_id'] !== config.appId) return undefined;
  return outcomeOf(fields['out_trade_no'] ?? '', fields['trade_status'], fields['total_amount'], fields['trade_no']);
}
