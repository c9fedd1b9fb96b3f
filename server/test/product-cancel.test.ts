import { describe, expect, it } from 'vitest';
import { MEMBER_LIMITS } from '../src/members/service.js';
import { PHONE, productServer, signIn } from './product-support.js';

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
});
