import { describe, expect, it } from 'vitest';
import { MEMBER_LIMITS } from '../src/members/service.js';
import { PHONE, type ProductServer, productServer, signIn, uploadImage } from './product-support.js';

/** Whether the server still serves the file at `url`. */
const served = async (url: string) => {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.status === 200;
};

/** Waits, up to 5 s, until `check` holds. */
const until = async (check: () => Promise<boolean>, what: string) => {
  for (const deadline = Date.now() + 5_000; !(await check());) {
    if (Date.now() > deadline) throw new Error(`${what} not met within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** Uploads `count` images as the member; their URLs. */
const images = async (p: ProductServer, token: string, count: number) => {
  const urls: string[] = [];
  for (let i = 0; i < count; i++) urls.push(await uploadImage(p, token));
  return urls;
};

describe('product account cancellation: member/out', () => {
  it('needs a reason and agreement to the cancellation agreement; a refused call changes nothing', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    for (const reason of [undefined, '', '   ', 7, 'x'.repeat(MEMBER_LIMITS.cancelReasonMaxLength + 1)]) {
      expect(await p.call('member/out', { token: alice.token, reason, agree: true }), String(reason)).toEqual({
        status: 200,
        err: 'please give a reason for cancelling the account',
        code: 'cancel_reason_invalid',
      });
    }
    for (const agree of [undefined, false, 'true', 1]) {
      expect(await p.call('member/out', { token: alice.token, reason: 'moving', agree }), String(agree)).toEqual({
        status: 200,
        err: 'please agree to the account cancellation agreement',
        code: 'cancel_agreement_required',
      });
    }
    expect(await p.call('member/out', { reason: 'moving', agree: true })).toMatchObject({ code: 'token_invalid' });
    expect((await p.call('member/info', { token: alice.token })).ret.id).toBe(alice.id);
  });

  it('MEM-7: signs the member out everywhere, hides them, drops their feedback and frees the phone', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    p.advance(61_000);
    const otherDevice = await signIn(p);
    expect(otherDevice.id).toBe(alice.id);
    const sent = await p.call('member/feedback_add', { token: alice.token, phone: PHONE, content: 'bye' });
    expect(sent.ret).toBeDefined();

    expect(
      await p.call('member/out', { token: alice.token, reason: '  I have another account  ', agree: true }),
    ).toEqual({ status: 200, ret: true });
    for (const token of [alice.token, otherDevice.token]) {
      expect(await p.call('member/info', { token })).toMatchObject({ err: 'account expired', code: 'token_invalid' });
    }
    // Others see no such user any more.
    expect(await p.call('member/profile', { token: bob.token, id: alice.id })).toMatchObject({
      err: 'user does not exist or is blocked',
      code: 'user_missing',
    });
    // The phone signs up again as a new member, with nothing of the old one.
    p.advance(61_000);
    const again = await signIn(p);
    expect(again.id).not.toBe(alice.id);
    const info = await p.call('member/info', { token: again.token });
    expect(info.ret).toMatchObject({ username: `user${PHONE.slice(-4)}`, img: '' });
    expect((await p.call('member/feedback_list', { token: again.token })).ret).toEqual([]);
    expect(await p.call('member/out', { token: alice.token, reason: 'again', agree: true })).toMatchObject({
      code: 'token_invalid',
    });
  });

  it('MEM-7: the files the deleted data named are deleted from the storage; others’ and unnamed ones stay', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const [avatar, background, shot, post, ...ids] = await images(p, alice.token, 6);
    const unnamed = await uploadImage(p, alice.token);
    const bobs = await uploadImage(p, bob.token);
    const set = async (path: string, body: Record<string, unknown>) =>
      expect((await p.call(path, { token: alice.token, ...body })).ret, path).toBeTruthy();
    await set('member/profile_update', { img: avatar, background });
    await set('member/feedback_add', { phone: PHONE, content: 'bye', imgs: [shot] });
    await set('member/quanzi_add', { title: 'By the lake', content: 'Lake', imgs: [post] });
    await set('member/renzheng_add', { type: 'personal', name: '王小明', number: '11010519491231002X', imgs: ids });
    await set('member/profile_update', { img: avatar });
    const named = [avatar, background, shot, post, ...ids] as string[];
    for (const url of [...named, unnamed, bobs]) expect(await served(url), url).toBe(true);

    expect(await p.call('member/out', { token: alice.token, reason: 'privacy', agree: true })).toEqual({
      status: 200,
      ret: true,
    });
    await until(async () => (await p.server.store.uploadDeletions.pending(10)).length === 0, 'the files deleted');
    for (const url of named) expect(await served(url), url).toBe(false);
    // Bob's file, and one of hers that nothing named (uploaded, never used), stay.
    expect(await served(bobs)).toBe(true);
    expect(await served(unnamed)).toBe(true);
  });
});
