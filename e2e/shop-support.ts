import { expect } from 'vitest';
import { pngFile, productApi as api, uploadFile, type E2eServer } from './support.js';

// The shop's steps the browser tests take through the APIs: an open shop with a product, a buyer ready to pay.

const AUTH = { authorization: 'Bearer demo-secret-key' };

/** Calls the operator's API with the demo app's secret. */
export async function operator(server: E2eServer, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1/apps/demo-appkey/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...AUTH, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return ((await res.json()) as { content: Record<string, any> }).content;
}

/** Uploads a photo as the member, as the app does, and answers its URL. */
export function upload(server: E2eServer, token: string, name: string): Promise<string> {
  const photo = pngFile(64, 64, (x) => (x < 32 ? [40, 140, 90] : [250, 250, 250]));
  return uploadFile(server, token, { name: `${name}.png`, type: 'image/png', buffer: photo });
}

/**
 * Opens the signed-in member's shop `name`, selling green tea (68.5 yuan, 3 in stock) in a new category `category`,
 * through the APIs; answers the product's id.
 */
export async function openShop(
  server: E2eServer,
  { token, id }: { token: string; id: string },
  { name, category: categoryName }: { name: string; category: string },
): Promise<string> {
  const imgs = [await upload(server, token, 'front'), await upload(server, token, 'back')];
  const cert = await api(server, 'member/renzheng_add', {
    token,
    type: 'personal',
    name: '王小明',
    number: '11010519491231002X',
    imgs,
  });
  await operator(server, `certifications/${id}/review`, { pass: true, submittedAt: cert['ret'].submitted_at });
  const icon = await upload(server, token, 'icon');
  const shop = await api(server, 'shop/apply', { token, name, icon, intro: 'Tea from the hills.' });
  await operator(server, `shops/${shop['ret'].id}/review`, { pass: true, submittedAt: shop['ret'].submitted_at });
  const category = await operator(server, 'product-categories', { name: categoryName });
  const product = await api(server, 'shop/business_add', {
    token,
    imgs: [await upload(server, token, 'tea')],
    title: 'Spring green tea, 250 g',
    price: 68.5,
    typeid: category.id,
    stock: 3,
    content: 'Picked in April on the hills.',
  });
  await operator(server, `products/${product['ret'].id}/review`, { decision: 'pass' });
  return product['ret'].id as string;
}

/** Gives the signed-in member a shipping address and 100 yuan in the wallet, through the APIs; answers the address. */
export async function readyToBuy(server: E2eServer, token: string): Promise<string> {
  const home = { name: 'Li Lei', phone: '13800138000', region: 'Zhejiang Hangzhou', detail: 'West Lake Road 1' };
  const addresses = await api(server, 'member/address_add', { token, ...home });
  const recharge = await api(server, 'member/recharge', { token, money: 100, type: 'alipay', agree: true });
  await operator(server, `recharges/${recharge['ret'].id}/review`, { paid: true, reference: `R-${token.slice(-6)}` });
  return addresses['ret'][0].id as string;
}
