import { describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_LIMITS } from '../src/shop/announcements.js';
import { openShop, operator, type ProductServer, productServer, signIn } from './product-support.js';

type Listed = { id: string; title: string; summary: string; pinned: boolean; read: boolean; created_at: number };

const AREA = 'shop-announcements';

/** Publishes an announcement as the operator; answers it. */
async function publish(p: ProductServer, fields: Record<string, unknown>) {
  const answer = await operator(p, AREA, 'POST', '', fields);
  expect(answer.status).toBe(200);
  return answer.content as { id: string; title: string; content: string; pinned: boolean; createdAt: number };
}

describe('seller announcements: operator shop-announcements, shop/gonggao_list, shop/gonggao_view', () => {
  it('the operator publishes, changes and removes announcements with the secret key, each field checked', async () => {
    const p = await productServer();
    const refused = async (
      method: 'POST' | 'GET' | 'DELETE',
      path: string,
      body: unknown,
      status: number,
      content: string,
    ) => expect(await operator(p, AREA, method, path, body)).toEqual({ status, code: status, content });

    expect(await operator(p, AREA, 'GET', '', undefined, 'wrong')).toEqual({
      status: 401,
      code: 401,
      content: 'No permission',
    });
    expect((await operator(p, AREA, 'POST', '', { title: 'T', content: 'C' }, 'wrong')).status).toBe(401);
    const titleRule = `title must be 1 to ${ANNOUNCEMENT_LIMITS.titleMax} characters.`;
    const contentRule = `content must be 1 to ${ANNOUNCEMENT_LIMITS.contentMax} characters of plain text.`;
    await refused('POST', '', { content: 'Rules' }, 400, titleRule);
    await refused('POST', '', { title: '   ', content: 'Rules' }, 400, titleRule);
    await refused('POST', '', { title: 'a'.repeat(ANNOUNCEMENT_LIMITS.titleMax + 1), content: 'C' }, 400, titleRule);
    await refused('POST', '', { title: 'Two\nlines', content: 'C' }, 400, titleRule);
    await refused('POST', '', { title: 'Fees' }, 400, contentRule);
    await refused(
      'POST',
      '',
      { title: 'Fees', content: 'x'.repeat(ANNOUNCEMENT_LIMITS.contentMax + 1) },
      400,
      contentRule,
    );
    await refused('POST', '', { title: 'Fees', content: 'bell \u0007' }, 400, contentRule);
    await refused('POST', '', { title: 'Fees', content: 'C', pinned: 'yes' }, 400, 'pinned must be true or false.');
    await refused('POST', '', [1], 400, 'body must be an object.');

    const title = '費'.repeat(ANNOUNCEMENT_LIMITS.titleMax);
    const content = ` ${'y'.repeat(ANNOUNCEMENT_LIMITS.contentMax)}\r\n`;
    const made = await publish(p, { title, content });
    expect(made).toEqual({
      id: made.id,
      title,
      content: 'y'.repeat(ANNOUNCEMENT_LIMITS.contentMax),
      pinned: false,
      createdAt: p.now(),
      updatedAt: p.now(),
    });

    p.advance(1_000);
    const changed = await operator(p, AREA, 'POST', `/${made.id}`, { title: 'Holiday shipping', pinned: true });
    expect(changed).toMatchObject({
      status: 200,
      content: { id: made.id, title: 'Holiday shipping', pinned: true, updatedAt: p.now(), createdAt: p.now() - 1_000 },
    });
    await refused('POST', `/${made.id}`, { content: '' }, 400, contentRule);
    await refused('POST', '/nope', { title: 'x' }, 404, 'announcement does not exist.');
    expect((await operator(p, AREA, 'GET', '')).content).toMatchObject([{ id: made.id, title: 'Holiday shipping' }]);

    expect(await operator(p, AREA, 'DELETE', `/${made.id}`)).toMatchObject({ status: 200, content: { id: made.id } });
    await refused('DELETE', `/${made.id}`, undefined, 404, 'announcement does not exist.');
    expect((await operator(p, AREA, 'GET', '')).content).toEqual([]);
    await refused('GET', '?after=nope', undefined, 400, 'after must be an announcement id listed.');
  });

  it('every seller with an open shop hears of a new announcement, once; others do not', async () => {
    const p = await productServer();
    const seller = await openShop(p, '13700137000');
    const other = await openShop(p, '13700137001');
    const buyer = await signIn(p, '13700137002');
    const announcementsOf = async (token: string) =>
      (
        (await p.call('member/notify_list', { token })).ret as Array<{ kind: string; data: unknown; read: boolean }>
      ).filter((notice) => notice.kind === 'announcement');
    const made = await publish(p, { title: 'Fees from May', content: 'Lower fees for tea.' });
    const heard = [{ kind: 'announcement', data: { announcement: made.id, title: 'Fees from May' }, read: false }];
    expect(await announcementsOf(seller.token)).toMatchObject(heard);
    expect(await announcementsOf(other.token)).toMatchObject(heard);
    expect(await announcementsOf(buyer.token)).toEqual([]);
    // A change, or pinning it, tells nobody again.
    await operator(p, AREA, 'POST', `/${made.id}`, { pinned: true, title: 'Fees from June' });
    expect(await announcementsOf(seller.token)).toHaveLength(1);
    // A shop opened later hears of the next one only.
    const late = await openShop(p, '13700137003');
    expect(await announcementsOf(late.token)).toEqual([]);
    const next = await publish(p, { title: 'Holiday shipping', content: 'Ship by the 28th.' });
    expect((await announcementsOf(late.token)).map((notice) => notice.data)).toEqual([
      { announcement: next.id, title: 'Holiday shipping' },
    ]);
    expect(await announcementsOf(seller.token)).toHaveLength(2);
  });

  it('sellers list them pinned first, then the newest, a page at a time, with what each has read', async () => {
    const p = await productServer();
    const seller = await openShop(p, '13700137000');
    const other = await openShop(p, '13700137001');
    const ids: string[] = [];
    for (let i = 0; i < ANNOUNCEMENT_LIMITS.pageSize + 3; i += 1) {
      p.advance(1_000);
      ids.push((await publish(p, { title: `Notice ${i}`, content: `Line one of ${i}.\n\nLine two.` })).id);
    }
    p.advance(1_000);
    const pinned = await publish(p, { title: 'Fees from May', content: 'F'.repeat(200), pinned: true });
    const older = ids[0] ?? '';
    // Pinned later, an old one goes up to the pinned ones, newest first among them.
    await operator(p, AREA, 'POST', `/${older}`, { pinned: true });

    const list = (body: Record<string, unknown>, token = seller.token) =>
      p.call('shop/gonggao_list', { token, ...body });
    const first = await list({});
    const page = first.ret as Listed[];
    const newestFirst = [...ids.slice(1)].reverse();
    expect(page.map((a) => a.id)).toEqual([pinned.id, older, ...newestFirst].slice(0, ANNOUNCEMENT_LIMITS.pageSize));
    expect(first.unread).toBe(ids.length + 1);
    expect(page[0]).toEqual({
      id: pinned.id,
      title: 'Fees from May',
      summary: 'F'.repeat(ANNOUNCEMENT_LIMITS.summaryLength),
      pinned: true,
      created_at: pinned.createdAt,
      updated_at: pinned.createdAt,
      read: false,
    });
    expect(page[2]?.summary).toBe(`Line one of ${ids.length - 1}. Line two.`);
    const next = (await list({ before: page.at(-1)?.id })).ret as Listed[];
    expect(next.map((a) => a.id)).toEqual([pinned.id, older, ...newestFirst].slice(ANNOUNCEMENT_LIMITS.pageSize));
    expect(await list({ before: 'nope' })).toMatchObject({ code: 'bad_params' });

    // Reading marks it read for that seller only.
    p.advance(1_000);
    const viewed = await p.call('shop/gonggao_view', { token: seller.token, id: older });
    expect(viewed).toEqual({
      status: 200,
      ret: {
        id: older,
        title: 'Notice 0',
        content: 'Line one of 0.\n\nLine two.',
        pinned: true,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
        read: true,
      },
    });
    await p.call('shop/gonggao_view', { token: seller.token, id: older });
    const after = await list({});
    expect(after.unread).toBe(ids.length);
    expect((after.ret as Listed[]).map((a) => a.read).slice(0, 3)).toEqual([false, true, false]);
    expect((await list({}, other.token)).unread).toBe(ids.length + 1);
    expect((await p.call('shop/apply_info', { token: seller.token })).ret).toMatchObject({
      unread_announcements: ids.length,
    });

    // Removed, it is gone from the list, the count and its page.
    await operator(p, AREA, 'DELETE', `/${pinned.id}`);
    const gone = await list({});
    expect(gone.unread).toBe(ids.length - 1);
    expect((gone.ret as Listed[])[0]?.id).toBe(older);
    expect(await p.call('shop/gonggao_view', { token: seller.token, id: pinned.id })).toEqual({
      status: 200,
      err: 'the announcement does not exist or has been removed',
      code: 'announcement_missing',
    });
    expect(await p.call('shop/gonggao_view', { token: seller.token, id: 7 })).toMatchObject({
      code: 'announcement_missing',
    });
  });

  it('only a member whose shop is open reads them', async () => {
    const p = await productServer();
    const { id } = await publish(p, { title: 'Rules', content: 'Be kind.' });
    const member = await signIn(p, '13900139000');
    for (const [path, body] of [
      ['shop/gonggao_list', {}],
      ['shop/gonggao_view', { id }],
    ] as const) {
      expect(await p.call(path, { token: member.token, ...body })).toEqual({
        status: 200,
        err: 'please open a shop first',
        code: 'shop_not_open',
      });
      expect(await p.call(path, body)).toMatchObject({ code: 'token_invalid' });
    }
    expect((await p.call('shop/apply_info', { token: member.token })).ret).toMatchObject({
      shop: null,
      unread_announcements: 0,
    });
  });
});
