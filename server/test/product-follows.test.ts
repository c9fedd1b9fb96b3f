import { describe, expect, it } from 'vitest';
import { type ProductServer, productServer, signIn } from './product-support.js';

const follow = (p: ProductServer, token: string, id: string, extra: Record<string, unknown> = {}) =>
  p.call(`member/guanzhu/uid_s/${encodeURIComponent(id)}`, { token, ...extra });
const list = async (p: ProductServer, token: string, body: Record<string, unknown> = {}) =>
  (await p.call('member/guanzhu_list', { token, ...body })).ret as Array<Record<string, unknown>>;

describe('product follows: member/guanzhu', () => {
  it('follows and unfollows by toggling or by `follow`; profiles, member/info and both lists show it', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');

    expect(await follow(p, alice.token, bob.id)).toEqual({ status: 200, ret: { followed: true, fans: 1 } });
    p.advance(1_000);
    expect(await follow(p, carol.token, bob.id, { follow: true })).toMatchObject({ ret: { followed: true, fans: 2 } });
    p.advance(1_000);
    expect(await follow(p, alice.token, carol.id, { follow: true })).toMatchObject({ ret: { followed: true } });
    // Following again keeps the follow and its time.
    expect(await follow(p, alice.token, bob.id, { follow: true })).toMatchObject({ ret: { followed: true, fans: 2 } });

    expect((await p.call('member/profile', { token: carol.token, id: bob.id })).ret).toMatchObject({
      follows: 0,
      fans: 2,
      followed: true,
      blocked: false,
    });
    expect((await p.call('member/profile', { token: bob.token, id: alice.id })).ret).toMatchObject({
      follows: 2,
      fans: 0,
      followed: false,
    });
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject({ follows: 2, fans: 0 });

    // Alice's follows, newest first; Bob's fans, each telling whether the reader follows them.
    expect(await list(p, alice.token)).toEqual([
      { id: carol.id, username: 'user7000', img: '', qianming: '', created_at: p.now(), followed: true },
      { id: bob.id, username: 'user9000', img: '', qianming: '', created_at: p.now() - 2_000, followed: true },
    ]);
    expect(await list(p, bob.token, { type: 'fans' })).toEqual([
      { id: carol.id, username: 'user7000', img: '', qianming: '', created_at: p.now() - 1_000, followed: false },
      { id: alice.id, username: 'user8000', img: '', qianming: '', created_at: p.now() - 2_000, followed: false },
    ]);
    // Another member's lists, as the reader sees them.
    expect((await list(p, carol.token, { id: bob.id, type: 'fans' })).map((f) => [f['id'], f['followed']])).toEqual([
      [carol.id, false],
      [alice.id, false],
    ]);
    expect(await list(p, bob.token, { type: 'fans', before: carol.id })).toHaveLength(1);

    expect(await follow(p, alice.token, bob.id)).toMatchObject({ ret: { followed: false, fans: 1 } });
    expect(await follow(p, alice.token, bob.id, { follow: false })).toMatchObject({ ret: { followed: false } });
    expect((await list(p, alice.token)).map((f) => f['id'])).toEqual([carol.id]);
  });

  it('refuses oneself, members who do not exist, a `follow` that is not boolean and a missing token', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    expect(await follow(p, alice.token, alice.id)).toEqual({
      status: 200,
      err: 'you cannot follow yourself',
      code: 'follow_self',
    });
    expect(await follow(p, alice.token, '12345678')).toMatchObject({
      err: 'user does not exist or is blocked',
      code: 'user_missing',
    });
    expect(await follow(p, alice.token, 'x'.repeat(33))).toMatchObject({ code: 'user_missing' });
    const bob = await signIn(p, '13900139000');
    expect(await follow(p, alice.token, bob.id, { follow: 'yes' })).toMatchObject({ code: 'bad_params' });
    expect(await follow(p, 'nope', bob.id)).toMatchObject({ code: 'token_invalid' });
    expect(await p.call('member/guanzhu_list', { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    for (const body of [{ type: 'friends' }, { before: 'unknown' }, { before: '' }, { before: 7 }]) {
      expect(await p.call('member/guanzhu_list', { token: alice.token, ...body }), JSON.stringify(body)).toMatchObject({
        code: 'bad_params',
      });
    }
    for (const id of ['12345678', '', { a: 1 }]) {
      expect(await p.call('member/guanzhu_list', { token: alice.token, id }), JSON.stringify(id)).toMatchObject({
        code: 'user_missing',
      });
    }
  });

  it('a block ends the follows between the two, and neither can follow or read the other until unblocked', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    await follow(p, alice.token, bob.id);
    await follow(p, bob.token, alice.id);

    await p.call(`member/lahei/uid_s/${bob.id}`, { token: alice.token, block: true });
    expect(await list(p, alice.token)).toEqual([]);
    expect(await list(p, alice.token, { type: 'fans' })).toEqual([]);
    const refused = { err: 'user does not exist or is blocked', code: 'user_missing' };
    expect(await follow(p, bob.token, alice.id)).toMatchObject(refused);
    expect(await follow(p, alice.token, bob.id)).toMatchObject(refused);
    expect(await p.call('member/guanzhu_list', { token: bob.token, id: alice.id })).toMatchObject(refused);
    // Unfollowing stays possible, and changes nothing.
    expect(await follow(p, bob.token, alice.id, { follow: false })).toMatchObject({ ret: { followed: false } });

    await p.call(`member/lahei/uid_s/${bob.id}`, { token: alice.token, block: false });
    expect(await follow(p, bob.token, alice.id)).toMatchObject({ ret: { followed: true, fans: 1 } });
  });

  it('a cancelled account leaves every list, both ways', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    await follow(p, alice.token, bob.id);
    await follow(p, bob.token, alice.id);
    expect(await p.call('member/out', { token: bob.token, reason: 'moving', agree: true })).toMatchObject({
      ret: true,
    });
    expect(await list(p, alice.token)).toEqual([]);
    expect(await list(p, alice.token, { type: 'fans' })).toEqual([]);
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject({ follows: 0, fans: 0 });
    expect(await follow(p, alice.token, bob.id)).toMatchObject({ code: 'user_missing' });
  });

  it('member/user_list finds members by nickname or id, newest first, saying whom the reader follows', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    p.advance(1_000);
    const bob = await signIn(p, '13900139000');
    p.advance(1_000);
    const carol = await signIn(p, '13700137000');
    await p.call('member/profile_update', { token: bob.token, username: 'Bob Chen' });
    await p.call('member/profile_update', { token: carol.token, username: 'bobby' });
    await follow(p, alice.token, carol.id);
    const find = async (body: Record<string, unknown>) =>
      ((await p.call('member/user_list', { token: alice.token, ...body })).ret as Array<Record<string, unknown>>).map(
        (m) => [m['id'], m['username'], m['followed']],
      );

    expect(await find({ keyword: ' BOB ' })).toEqual([
      [carol.id, 'bobby', true],
      [bob.id, 'Bob Chen', false],
    ]);
    expect(await find({ keyword: 'bob', before: carol.id })).toEqual([[bob.id, 'Bob Chen', false]]);
    expect(await find({ keyword: bob.id })).toEqual([[bob.id, 'Bob Chen', false]]);
    expect(await find({ keyword: 'nobody like this' })).toEqual([]);
    // Without a keyword: the newest members, the reader too.
    expect((await find({})).map(([id]) => id)).toEqual([carol.id, bob.id, alice.id]);
    expect((await find({ keyword: '' })).map(([id]) => id)).toEqual([carol.id, bob.id, alice.id]);

    for (const body of [{ keyword: 'x'.repeat(21) }, { keyword: 7 }, { before: 'unknown' }, { before: '' }]) {
      expect(await p.call('member/user_list', { token: alice.token, ...body }), JSON.stringify(body)).toMatchObject({
        code: 'bad_params',
      });
    }
    expect(await p.call('member/user_list', { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
  });
});
