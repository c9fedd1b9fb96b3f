/** Fixtures for the product API tests: a server with a recording SMS provider and a clock the test moves. */
import { createDevSmsProvider } from '../src/members/sms.js';
import { silentLogger } from '../src/logger.js';
import type { ServerConfig } from '../src/config.js';
import { createParleyServer } from '../src/server.js';
import { randomName } from '../src/uploads/keys.js';
import { SECURE_APP, defer, tempDir, testConfig } from './helpers.js';

/**
 * A started server whose product API issues otps for SECURE_APP, with its SMS outbox and clock; `overrides` change
 * its config.
 */
export async function startProductServer(start = 1_700_000_000_000, overrides: Partial<ServerConfig> = {}) {
  let time = start;
  const sms = createDevSmsProvider(silentLogger());
  const server = createParleyServer(testConfig({ productAppkey: SECURE_APP.appkey, ...overrides }), {
    logger: silentLogger(),
    now: () => time,
    sms,
  });
  defer(() => server.close());
  const { url } = await server.listen();
  return {
    url,
    server,
    sms,
    /** Moves the server's clock forward. */
    advance(ms: number) {
      time += ms;
    },
    now: () => time,
    /** POSTs a product API call and returns the JSON answer. */
    // Answers are loosely typed on purpose: each test checks the fields it cares about.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async call(path: string, body: unknown): Promise<Record<string, any>> {
      const res = await fetch(`${url}/index.php/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, ...((await res.json()) as Record<string, unknown>) };
    },
  };
}

/** A mainland number for tests. */
export const PHONE = '13800138000';

export type ProductServer = Awaited<ReturnType<typeof startProductServer>>;

/** A product server whose own storage lives in a fresh temp dir. */
export async function productServer(overrides: Partial<ServerConfig> = {}) {
  const dir = tempDir();
  const p = await startProductServer(undefined, { uploads: { dir, s3: undefined }, ...overrides });
  return { ...p, dir };
}

/** Logs a phone in; resolves with its token and member id. */
export async function signIn(p: ProductServer, phone = PHONE): Promise<{ token: string; id: string }> {
  await p.call('member/send_code', { phone });
  const answer = await p.call('member/login', { phone, code: p.sms.lastCode(phone), agree: true });
  return { token: answer.ret.token as string, id: answer.ret.id as string };
}

/** What `member/qiniu_token` answers a logged-in member. */
export interface TokenAnswer {
  ret: string;
  upload_url: string;
  fields: Record<string, string>;
  key_prefix: string;
  url_prefix: string;
  expires_at: number;
}

export async function uploadToken(p: ProductServer, token: string): Promise<TokenAnswer> {
  const answer = await p.call('member/qiniu_token', { token });
  if (typeof answer.ret !== 'string') throw new Error(`no upload token: ${JSON.stringify(answer)}`);
  return answer as unknown as TokenAnswer;
}

export const pngBytes = () =>
  Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from('avatar')]);
export const png = () => new Blob([pngBytes()], { type: 'image/png' });

/** Posts the product app's form: the token's fields, then `key`, then the file. */
export function postFile(
  answer: Pick<TokenAnswer, 'upload_url' | 'fields'>,
  key: string,
  file: Blob = png(),
  name = 'a.png',
): Promise<Response> {
  const form = new FormData();
  for (const [field, value] of Object.entries(answer.fields)) form.append(field, value);
  form.append('key', key);
  form.append('file', file, name);
  return fetch(answer.upload_url, { method: 'POST', body: form });
}

/** Uploads a png as the member and returns its URL. */
export async function uploadImage(p: ProductServer, token: string): Promise<string> {
  const answer = await uploadToken(p, token);
  const key = `${answer.key_prefix}${randomName()}.png`;
  const posted = await postFile(answer, key);
  if (posted.status !== 200) throw new Error(`upload failed: ${posted.status}`);
  return `${answer.url_prefix}${key}`;
}

/** Uploads a small mp4 as member `token`; resolves with its URL. */
export async function uploadVideo(p: ProductServer, token: string): Promise<string> {
  const answer = await uploadToken(p, token);
  const key = `${answer.key_prefix}${randomName()}.mp4`;
  const posted = await postFile(answer, key, new Blob(['mp4 body'], { type: 'video/mp4' }), 'clip.mp4');
  if (posted.status !== 200) throw new Error(`upload failed: ${posted.status}`);
  return `${answer.url_prefix}${key}`;
}

/**
 * Calls the operator's API of `area` (a review queue such as `certifications`, or `channels`), with the product
 * app's secret unless told otherwise.
 */
export async function operator(
  p: ProductServer,
  area: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  secret = SECURE_APP.secretKey,
) {
  const res = await fetch(`${p.url}/api/v1/apps/${SECURE_APP.appkey}/${area}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, ...((await res.json()) as { code: number; content: unknown }) };
}

/** Stores post `id` of `memberId` as one written before posts had titles: no title, only its text. */
export async function untitledPost(p: ProductServer, memberId: string, id: string, content: string): Promise<void> {
  const post = { id, memberId, title: '', content, images: [], vote: null, video: null, topicId: null };
  await p.server.store.circle.add({ ...post, createdAt: p.now() }, { since: 0, max: 20 });
}

/** A member with an open shop: certified, applied, approved. */
export async function openShop(p: ProductServer, phone?: string) {
  const member = await signIn(p, phone);
  const imgs = [await uploadImage(p, member.token), await uploadImage(p, member.token)];
  const cert = await p.call('member/renzheng_add', {
    token: member.token,
    type: 'personal',
    name: '王小明',
    number: '11010519491231002X',
    imgs,
  });
  const submittedAt = (cert.ret as { submitted_at: number }).submitted_at;
  await operator(p, 'certifications', 'POST', `/${member.id}/review`, { pass: true, submittedAt });
  const icon = await uploadImage(p, member.token);
  const shop = (await p.call('shop/apply', { token: member.token, name: `Shop ${member.id}`, icon, intro: 'Tea' }))
    .ret as {
    id: string;
    submitted_at: number;
  };
  await operator(p, 'shops', 'POST', `/${shop.id}/review`, { pass: true, submittedAt: shop.submitted_at });
  return { ...member, shopId: shop.id };
}

/** The buyer's shipping address in the shop's tests. */
export const HOME = { name: 'Li Lei', phone: '13800138000', region: 'Zhejiang Hangzhou', detail: 'West Lake Road 1' };

/** An order as the product API answers it. */
export type Order = Record<string, unknown> & { id: string; code: string; status: string };

/** A shop with one product on sale (`price` yuan, `stock`), and a buyer with an address and `balance` yuan. */
export async function market(p: ProductServer, { price = 12.5, stock = 3, balance = 100 } = {}) {
  const typeid = ((await operator(p, 'product-categories', 'POST', '', { name: 'Tea' })).content as { id: string }).id;
  const seller = await openShop(p, '13700137000');
  const imgs = [await uploadImage(p, seller.token)];
  const added = await p.call('shop/business_add', {
    token: seller.token,
    imgs,
    title: 'Green tea',
    price,
    typeid,
    stock,
    content: 'Picked in April.',
  });
  const product = (added.ret as { id: string }).id;
  await operator(p, 'products', 'POST', `/${product}/review`, { decision: 'pass' });
  const buyer = await signIn(p, '13900139000');
  const listed = await p.call('member/address_add', { token: buyer.token, ...HOME });
  const address = (listed.ret as Array<{ id: string }>)[0]?.id ?? '';
  if (balance > 0) {
    const asked = await p.call('member/recharge', { token: buyer.token, money: balance, type: 'alipay', agree: true });
    await operator(p, 'recharges', 'POST', `/${(asked.ret as { id: string }).id}/review`, { paid: true });
  }
  return { seller, buyer, product, address, imgs };
}
