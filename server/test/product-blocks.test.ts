import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/protocol.js';
import { SECURE_APP, request } from './helpers.js';
import { collect, content, login as connectAs, publishParams, settled } from './im-support.js';
import { type ProductServer, productServer, signIn } from './product-support.js';

const block = (p: ProductServer, token: string, id: string, extra: Record<string, unknown> = {}) =>
  p.call(`member/lahei/uid_s/${encodeURIComponent(id)}`, { token, ...extra });

describe('product block list: member/lahei', () => {
  it('blocks and unblocks by toggling or by `block`; the profile and the list show it', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');

    expect(await block(p, alice.token, bob.id)).toEqual({ status: 200, ret: { blocked: true } });
    p.advance(1_000);
    expect(await block(p, alice.token, carol.id, { block: true })).toMatchObject({ ret: { blocked: true } });
    // Blocking again keeps the block and its time.
    expect(await block(p, alice.token, bob.id, { block: true })).toMatchObject({ ret: { blocked: true } });
    expect((await p.call('member/profile', { token: alice.token, id: bob.id })).ret).toMatchObject({ blocked: true });
    expect((await p.call('member/profile', { token: bob.token, id: alice.id })).ret).toMatchObject({ blocked: false });

    const list = (await p.call('member/lahei_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(list).toEqual([
      { id: carol.id, username: 'user7000', img: '', created_at: p.now() },
      { id: bob.id, username: 'user9000', img: '', created_at: p.now() - 1_000 },
    ]);
    expect((await p.call('member/lahei_list', { token: bob.token })).ret).toEqual([]);

    expect(await block(p, alice.token, bob.id)).toMatchObject({ ret: { blocked: false } });
    expect(await block(p, alice.token, bob.id, { block: false })).toMatchObject({ ret: { blocked: false } });
    expect(((await p.call('member/lahei_list', { token: alice.token })).ret as unknown[]).length).toBe(1);
  });

  it('refuses oneself, members who do not exist, a `block` that is not boolean and a missing token', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    expect(await block(p, alice.token, alice.id)).toEqual({
      status: 200,
      err: 'you cannot block yourself',
      code: 'block_self',
    });
    expect(await block(p, alice.token, '12345678')).toMatchObject({
      err: 'user does not exist or is blocked',
      code: 'user_missing',
    });
    expect(await block(p, alice.token, 'x'.repeat(33))).toMatchObject({ code: 'user_missing' });
    const bob = await signIn(p, '13900139000');
    expect(await block(p, alice.token, bob.id, { block: 'yes' })).toMatchObject({ code: 'bad_params' });
    expect(await block(p, 'nope', bob.id)).toMatchObject({ code: 'token_invalid' });
    expect((await p.call('member/lahei_list', { token: alice.token })).ret).toEqual([]);
    for (const before of ['unknown', 7, '', 'x'.repeat(33)]) {
      expect(await p.call('member/lahei_list', { token: alice.token, before }), String(before)).toMatchObject({
        code: 'bad_params',
      });
    }
  });

  it('IM-29: members who blocked each other exchange no private messages, either way, until unblocked', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const connect = async (phone: string, id: string) => {
      // A fresh otp for the socket, as the app gets one from member/info.
      await p.call('member/send_code', { phone });
      const answer = await p.call('member/login', { phone, code: p.sms.lastCode(phone), agree: true });
      return connectAs(p.url, id, { appkey: SECURE_APP.appkey, otp: answer.otp });
    };
    p.advance(61_000);
    const aliceSocket = await connect('13800138000', alice.id);
    const bobSocket = await connect('13900139000', bob.id);
    await content(bobSocket, 'publishIM', publishParams(alice.id));

    await block(p, alice.token, bob.id);
    const refused = { code: 401, content: MESSAGES.blocked };
    expect(await request(bobSocket, 'publishIM', publishParams(alice.id))).toMatchObject(refused);
    expect(await request(aliceSocket, 'publishIM', publishParams(bob.id))).toMatchObject(refused);
    // Nothing of the refused messages was stored.
    const history = await content<{ messages: unknown[] }>(aliceSocket, 'IM_HISTORY', {
      id: bob.id,
      scene: 'private',
      limit: 30,
    });
    expect(history.messages).toHaveLength(1);

    // Nor typing: told 200, heard by nobody, so that the blocked one learns nothing (TYPING-2).
    const typing = collect(aliceSocket, 'IM_TYPING');
    await content(bobSocket, 'IM_TYPING', { scene: 'private', targetId: alice.id, typing: true });
    await settled(aliceSocket);
    expect(typing).toEqual([]);

    await block(p, alice.token, bob.id);
    await content(bobSocket, 'publishIM', publishParams(alice.id));
    await content(bobSocket, 'IM_TYPING', { scene: 'private', targetId: alice.id, typing: true });
    await settled(aliceSocket);
    expect(typing).toMatchObject([{ userId: bob.id, typing: true }]);
    aliceSocket.close();
    bobSocket.close();
  });
});
