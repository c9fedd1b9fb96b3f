import { describe, expect, it } from 'vitest';
import { SECURE_APP } from './helpers.js';
import { collect, login as connectAs, settled } from './im-support.js';
import { type ProductServer, productServer, signIn, untitledPost, uploadImage } from './product-support.js';

const list = async (p: ProductServer, token: string, before?: string) =>
  (await p.call('member/notify_list', { token, ...(before !== undefined && { before }) })).ret as Array<
    Record<string, unknown>
  >;
const badge = async (p: ProductServer, token: string) =>
  (await p.call('member/info', { token })).ret.member_notify_badge as number;
const follow = (p: ProductServer, token: string, id: string, on = true) =>
  p.call(`member/guanzhu/uid_s/${id}`, { token, follow: on });

describe('product notifications: member/notify', () => {
  it('a new follower notifies once, read marks clear the badge, and following again raises the same one', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    expect(await list(p, alice.token)).toEqual([]);
    expect(await badge(p, alice.token)).toBe(0);

    await follow(p, bob.token, alice.id);
    p.advance(1_000);
    await follow(p, carol.token, alice.id);
    // Following again while following raises nothing.
    await follow(p, carol.token, alice.id);
    expect(await badge(p, alice.token)).toBe(2);
    const shown = await list(p, alice.token);
    expect(shown).toEqual([
      {
        id: expect.any(String) as unknown,
        kind: 'follow',
        actor: { id: carol.id, username: 'user7000', img: '' },
        data: {},
        created_at: p.now(),
        read: false,
      },
      expect.objectContaining({ kind: 'follow', actor: expect.objectContaining({ id: bob.id }) as unknown }),
    ]);

    // One read, then all.
    expect(await p.call('member/notify_read', { token: alice.token, id: shown[1]?.['id'] })).toEqual({
      status: 200,
      ret: { unread: 1 },
    });
    expect((await list(p, alice.token)).map((n) => n['read'])).toEqual([false, true]);
    expect((await p.call('member/notify_read', { token: alice.token })).ret).toEqual({ unread: 0 });
    expect(await badge(p, alice.token)).toBe(0);

    // Bob unfollows and follows again: his notification comes back to the top, unread, and is still one.
    p.advance(1_000);
    await follow(p, bob.token, alice.id, false);
    await follow(p, bob.token, alice.id);
    const again = await list(p, alice.token);
    expect(again.map((n) => [(n['actor'] as { id: string }).id, n['read']])).toEqual([
      [bob.id, false],
      [carol.id, true],
    ]);
    expect(again[0]?.['id']).toBe(shown[1]?.['id']);
    expect(await list(p, alice.token, String(again[0]?.['id']))).toHaveLength(1);
  });

  it('settings switch new followers off and on; a certification review always notifies', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    expect(await p.call('member/notify_settings', { token: alice.token })).toEqual({
      status: 200,
      ret: { follow: true, comment: true, like: true },
    });
    expect((await p.call('member/notify_settings', { token: alice.token, follow: false })).ret).toEqual({
      follow: false,
      comment: true,
      like: true,
    });
    await follow(p, bob.token, alice.id);
    expect(await list(p, alice.token)).toEqual([]);

    // The operator fails Alice's certification: she hears of it with the reason, settings or not.
    const imgs = [await uploadImage(p, alice.token), await uploadImage(p, alice.token)];
    await p.call('member/renzheng_add', {
      token: alice.token,
      type: 'personal',
      name: 'Wang',
      number: '11010519491231002X',
      imgs,
    });
    const res = await fetch(`${p.url}/api/v1/apps/${SECURE_APP.appkey}/certifications/${alice.id}/review`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECURE_APP.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pass: false, reason: 'The photo is blurred', submittedAt: p.now() }),
    });
    expect(res.status).toBe(200);
    expect(await list(p, alice.token)).toEqual([
      expect.objectContaining({
        kind: 'certification',
        actor: null,
        data: { status: 'failed', reason: 'The photo is blurred' },
        read: false,
      }),
    ]);

    expect((await p.call('member/notify_settings', { token: alice.token, follow: true })).ret).toEqual({
      follow: true,
      comment: true,
      like: true,
    });
    p.advance(1_000);
    await follow(p, bob.token, alice.id, false);
    await follow(p, bob.token, alice.id);
    expect((await list(p, alice.token)).map((n) => n['kind'])).toEqual(['follow', 'certification']);
  });

  it('a comment on a member’s article or post, and a new like of one, notify its author, never for their own', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const article = (
      await p.call('member/article_add', { token: alice.token, title: 'A day at the lake', content: 'x' })
    ).id as string;
    const post = (
      await p.call('member/quanzi_add', {
        token: alice.token,
        title: 'Ducks out early',
        content: 'Spring at the lake,\nwith the ducks out early today',
      })
    ).id as string;
    const said = (
      await p.call('article/ping_add', { token: bob.token, id: article, content: `  Lovely\n${'so '.repeat(30)}` })
    ).ret as { id: string };
    await p.call('article/ping_add', { token: alice.token, id: article, content: 'Thanks!' });
    p.advance(1_000);
    await p.call('quanzi/zan', { token: carol.token, id: post, zan: true });
    await p.call('quanzi/zan', { token: alice.token, id: post, zan: true });
    const bobShown = { id: bob.id, username: 'user9000', img: '' };
    expect(await list(p, alice.token)).toEqual([
      {
        id: expect.any(String) as unknown,
        kind: 'like',
        actor: { id: carol.id, username: 'user7000', img: '' },
        data: { subject: 'quanzi', id: post, title: 'Ducks out early' },
        created_at: p.now(),
        read: false,
      },
      {
        id: expect.any(String) as unknown,
        kind: 'comment',
        actor: bobShown,
        data: {
          subject: 'article',
          id: article,
          title: 'A day at the lake',
          comment: said.id,
          content: `Lovely ${'so '.repeat(14).trimEnd()}…`,
        },
        created_at: p.now() - 1_000,
        read: false,
      },
    ]);
    // A like while liking raises nothing; unliking takes the notification back, and liking again raises it anew.
    await p.call('member/notify_read', { token: alice.token });
    p.advance(1_000);
    await p.call('quanzi/zan', { token: carol.token, id: post, zan: true });
    expect(await badge(p, alice.token)).toBe(0);
    await p.call('quanzi/zan', { token: carol.token, id: post, zan: false });
    expect((await list(p, alice.token)).map((n) => n['kind'])).toEqual(['comment']);
    await p.call('quanzi/zan', { token: carol.token, id: post, zan: true });
    p.advance(1_000);
    await p.call('article/zan', { token: bob.token, id: article, zan: true });
    expect(
      (await list(p, alice.token)).map((n) => [n['kind'], (n['data'] as { subject: string }).subject, n['read']]),
    ).toEqual([
      ['like', 'article', false],
      ['like', 'quanzi', false],
      ['comment', 'article', true],
    ]);
    // A comment deleted, by its writer or by the author, takes its notification back.
    await p.call('member/ping_del', { token: bob.token, id: said.id });
    expect((await list(p, alice.token)).map((n) => n['kind'])).toEqual(['like', 'like']);

    // Switched off, comments and likes notify no more; follows still do.
    expect((await p.call('member/notify_settings', { token: alice.token, comment: false, like: false })).ret).toEqual({
      follow: true,
      comment: false,
      like: false,
    });
    await p.call('member/notify_read', { token: alice.token });
    await p.call('quanzi/ping_add', { token: bob.token, id: post, content: 'Ducks!' });
    await p.call('quanzi/zan', { token: bob.token, id: post, zan: true });
    await follow(p, bob.token, alice.id);
    expect(await badge(p, alice.token)).toBe(1);
    expect((await p.call('member/notify_settings', { token: alice.token, comment: true })).ret).toEqual({
      follow: true,
      comment: true,
      like: false,
    });
    await p.call('quanzi/ping_add', { token: carol.token, id: post, content: 'Lovely' });
    expect(await badge(p, alice.token)).toBe(2);
    for (const bad of [{ comment: 'no' }, { like: 1 }, { follow: true, like: null }]) {
      expect(await p.call('member/notify_settings', { token: alice.token, ...bad })).toMatchObject({
        code: 'bad_params',
      });
    }
  });

  it('names a post written before posts had titles by the start of its text', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    await untitledPost(p, alice.id, 'old1', 'Spring at the lake,\nwith the ducks out early today');
    await p.call('quanzi/zan', { token: bob.token, id: 'old1', zan: true });
    p.advance(1_000);
    const comment = (await p.call('quanzi/ping_add', { token: bob.token, id: 'old1', content: 'Ducks!' })).ret as {
      id: string;
    };
    expect((await list(p, alice.token)).map((n) => n['data'])).toEqual([
      { subject: 'quanzi', id: 'old1', title: 'Spring at the lake, with the…', comment: comment.id, content: 'Ducks!' },
      { subject: 'quanzi', id: 'old1', title: 'Spring at the lake, with the…' },
    ]);
  });

  it('tells each device of the member of a new notification at once, with the unread count', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    // Two devices of Alice's, each with the otp the app gets from member/info.
    const device = async () => {
      const { otp } = await p.call('member/info', { token: alice.token });
      return connectAs(p.url, alice.id, { appkey: SECURE_APP.appkey, otp });
    };
    const [phone, laptop] = [await device(), await device()];
    const [onPhone, onLaptop] = [collect(phone, 'USER_EVENT'), collect(laptop, 'USER_EVENT')];
    const article = (
      await p.call('member/article_add', { token: alice.token, title: 'A day at the lake', content: 'x' })
    ).id as string;
    await p.call('article/zan', { token: bob.token, id: article, zan: true });
    await p.call('article/ping_add', { token: bob.token, id: article, content: 'Lovely' });
    // Her own comment notifies no one, so tells no device; an unlike takes a notification back, and tells them.
    await p.call('article/ping_add', { token: alice.token, id: article, content: 'Thanks' });
    await p.call('article/zan', { token: bob.token, id: article, zan: false });
    await settled(phone, laptop);
    const told = [
      { name: 'notice', data: { kind: 'like', unread: 1 }, time: p.now() },
      { name: 'notice', data: { kind: 'comment', unread: 2 }, time: p.now() },
      { name: 'notice', data: { kind: 'like', unread: 1 }, time: p.now() },
    ];
    expect(onPhone).toEqual(told);
    expect(onLaptop).toEqual(told);
    phone.close();
    laptop.close();
  });

  it('hides what a blocked member caused, drops what a cancelled one caused, and refuses bad input', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    await follow(p, bob.token, alice.id);
    await follow(p, carol.token, alice.id);
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: alice.token, block: true });
    expect((await list(p, alice.token)).map((n) => (n['actor'] as { id: string }).id)).toEqual([carol.id]);
    await p.call('member/out', { token: carol.token, reason: 'moving', agree: true });
    expect(await list(p, alice.token)).toEqual([]);

    for (const body of [{ before: 'unknown' }, { before: 7 }, { before: '' }]) {
      expect(await p.call('member/notify_list', { token: alice.token, ...body })).toMatchObject({
        code: 'bad_params',
      });
    }
    expect(await p.call('member/notify_read', { token: alice.token, id: 5 })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('member/notify_settings', { token: alice.token, follow: 'no' })).toMatchObject({
      code: 'bad_params',
    });
    for (const path of ['member/notify_list', 'member/notify_read', 'member/notify_settings']) {
      expect(await p.call(path, { token: 'nope' }), path).toMatchObject({ code: 'token_invalid' });
    }
  });
});
