import { describe, expect, it } from 'vitest';
import { AD_LIMITS } from '../src/content/ads.js';
import { type ProductServer, operator, productServer } from './product-support.js';

const ads = (
  p: ProductServer,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path = '',
  body?: unknown,
  secret?: string,
) => operator(p, 'ads', method, path, body, secret);

const AD = { title: ' Spring sale ', img: 'https://cdn.test/sale.png', url: 'shop/index', position: 'shop' };

/** The banner of a tab, as the app reads it. */
const banner = async (p: ProductServer, position: string) =>
  ((await p.call('ad/list', { position })).ret as { id: string; title: string }[]).map((ad) => ad.title);

describe('ads: the operator sets them up (spec §3 Ad), ad/list shows a tab’s banner, ad/click counts', () => {
  it('adds, changes and removes ads, each checked, with the product app’s secret only', async () => {
    const p = await productServer();
    const added = await ads(p, 'POST', '', AD);
    expect(added).toEqual({
      status: 200,
      code: 200,
      content: {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        title: 'Spring sale',
        img: AD.img,
        url: 'shop/index',
        position: 'shop',
        sort: 0,
        starts_at: null,
        ends_at: null,
        impressions: 0,
        clicks: 0,
        created_at: p.now(),
      },
    });
    const id = (added.content as { id: string }).id;
    expect(
      (await ads(p, 'PATCH', `/${id}`, { title: 'Summer sale', url: 'https://shop.test/summer', sort: 3 })).content,
    ).toMatchObject({ title: 'Summer sale', url: 'https://shop.test/summer', sort: 3, position: 'shop' });
    expect((await ads(p, 'GET')).content).toEqual([expect.objectContaining({ id, title: 'Summer sale' })]);

    const refusals: [Record<string, unknown>, string][] = [
      [{ ...AD, title: '' }, 'title must be 1 to 40 characters.'],
      [{ ...AD, title: 'x'.repeat(AD_LIMITS.titleMax + 1) }, 'title must be 1 to 40 characters.'],
      [{ ...AD, img: 'javascript:alert(1)' }, 'img must be an http(s) URL.'],
      [{ ...AD, url: 'javascript:alert(1)' }, 'url must be an http(s) URL or a path of the app.'],
      [{ ...AD, url: '//evil.test/x' }, 'url must be an http(s) URL or a path of the app.'],
      [{ ...AD, url: undefined }, 'url must be an http(s) URL or a path of the app.'],
      [{ ...AD, position: 'sidebar' }, 'position must be one of article, video, quanzi, shop.'],
      [{ ...AD, sort: -1 }, 'sort must be an integer from 0 to 9999.'],
      [{ ...AD, sort: 1.5 }, 'sort must be an integer from 0 to 9999.'],
      [{ ...AD, starts_at: 'tomorrow' }, 'starts_at must be a time in milliseconds or null.'],
      [{ ...AD, starts_at: 2_000, ends_at: 1_000 }, 'ends_at must be after starts_at.'],
    ];
    for (const [body, content] of refusals) {
      expect(await ads(p, 'POST', '', body), JSON.stringify(body)).toEqual({ status: 400, code: 400, content });
    }
    // A change is checked against what is kept: an end before the kept start.
    await ads(p, 'PATCH', `/${id}`, { starts_at: p.now() + 5_000 });
    expect(await ads(p, 'PATCH', `/${id}`, { ends_at: p.now() })).toMatchObject({
      status: 400,
      content: 'ends_at must be after starts_at.',
    });
    expect(await ads(p, 'PATCH', '/nope', { title: 'x' })).toMatchObject({
      status: 404,
      content: 'ad does not exist.',
    });
    // Nothing to change: the ad as it is, or 404 for none.
    expect(await ads(p, 'PATCH', `/${id}`, {})).toMatchObject({ status: 200, content: { id, title: 'Summer sale' } });
    expect(await ads(p, 'PATCH', '/nope', {})).toMatchObject({ status: 404 });
    expect(await ads(p, 'GET', '', undefined, 'wrong-secret')).toMatchObject({ status: 401 });
    expect(await ads(p, 'POST', '', AD, 'wrong-secret')).toMatchObject({ status: 401 });

    expect((await ads(p, 'DELETE', `/${id}`)).status).toBe(200);
    expect(await ads(p, 'DELETE', `/${id}`)).toMatchObject({ status: 404 });
    expect((await ads(p, 'GET')).content).toEqual([]);
  });

  it('a tab’s banner shows its ads in order, only while they run; anyone may read it', async () => {
    const p = await productServer();
    const start = p.now();
    await ads(p, 'POST', '', { ...AD, title: 'Second', sort: 2 });
    await ads(p, 'POST', '', { ...AD, title: 'First', sort: 1 });
    p.advance(1);
    await ads(p, 'POST', '', { ...AD, title: 'First, newer', sort: 1 });
    await ads(p, 'POST', '', { ...AD, title: 'Later', starts_at: start + 10_000 });
    await ads(p, 'POST', '', { ...AD, title: 'Over soon', ends_at: start + 10_000 });
    await ads(p, 'POST', '', { ...AD, title: 'On the front page', position: 'article' });

    expect(await banner(p, 'shop')).toEqual(['Over soon', 'First, newer', 'First', 'Second']);
    expect(await banner(p, 'article')).toEqual(['On the front page']);
    expect(await banner(p, 'video')).toEqual([]);
    p.advance(10_000);
    expect(await banner(p, 'shop')).toEqual(['Later', 'First, newer', 'First', 'Second']);
    expect((await p.call('ad/list', { position: 'article' })).ret).toEqual([
      { id: expect.any(String), title: 'On the front page', img: AD.img, url: 'shop/index' },
    ]);
    for (const position of [undefined, 'sidebar', 3]) {
      expect(await p.call('ad/list', { position }), String(position)).toMatchObject({ code: 'bad_params' });
    }
  });

  it('shows at most ten ads a banner, and the operator at most a hundred', async () => {
    const p = await productServer();
    for (let i = 0; i < AD_LIMITS.max; i++) {
      expect((await ads(p, 'POST', '', { ...AD, title: `Ad ${i}`, sort: i })).status).toBe(200);
    }
    expect(await ads(p, 'POST', '', AD)).toEqual({ status: 400, code: 400, content: 'at most 100 ads.' });
    expect(await banner(p, 'shop')).toEqual(Array.from({ length: AD_LIMITS.perBanner }, (_, i) => `Ad ${i}`));
  });

  it('counts showings (zhanshi: 1) and taps of running ads, which the operator sees', async () => {
    const p = await productServer();
    const { id } = (await ads(p, 'POST', '', AD)).content as { id: string };
    const { id: later } = (await ads(p, 'POST', '', { ...AD, starts_at: p.now() + 1_000 })).content as { id: string };
    for (const zhanshi of [1, '1', true]) {
      expect(await p.call('ad/click', { id, zhanshi })).toEqual({ status: 200, ret: true });
    }
    expect(await p.call('ad/click', { id })).toEqual({ status: 200, ret: true });
    expect(await p.call('ad/click', { id, zhanshi: 0 })).toEqual({ status: 200, ret: true });
    for (const other of [later, 'nope', '', 42, undefined]) {
      expect(await p.call('ad/click', { id: other }), String(other)).toMatchObject({ code: 'ad_missing' });
    }
    const listed = (await ads(p, 'GET')).content as { id: string; impressions: number; clicks: number }[];
    expect(listed.find((ad) => ad.id === id)).toMatchObject({ impressions: 3, clicks: 2 });
    expect(listed.find((ad) => ad.id === later)).toMatchObject({ impressions: 0, clicks: 0 });
    await ads(p, 'DELETE', `/${id}`);
    expect(await p.call('ad/click', { id })).toMatchObject({ code: 'ad_missing' });
  });

  it('MEM-3: one address counts at most 60 at once, then 120 a minute', async () => {
    const p = await productServer();
    const { id } = (await ads(p, 'POST', '', AD)).content as { id: string };
    const answers = await Promise.all(Array.from({ length: 61 }, () => p.call('ad/click', { id, zhanshi: 1 })));
    expect(answers.filter((a) => a.ret === true)).toHaveLength(60);
    expect(answers.filter((a) => a.code === 'too_frequent')).toHaveLength(1);
    expect(((await ads(p, 'GET')).content as { impressions: number }[])[0]?.impressions).toBe(60);
  });
});
