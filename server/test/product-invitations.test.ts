import { describe, expect, it } from 'vitest';
import { type ProductServer, productServer, signIn } from './product-support.js';

const info = async (p: ProductServer, token: string) => (await p.call('renwu/yaoqing_info', { token })).ret as unknown;
const list = async (p: ProductServer, token: string, before?: string) =>
  (await p.call('renwu/yaoqing_list', { token, ...(before !== undefined && { before }) })).ret as Array<
    Record<string, unknown>
  >;

/**
 * Signs a phone up (or in) with an invitation code, a minute after the last so that the limits on codes allow it;
 * resolves with its member id and token.
 */
async function join(p: ProductServer, phone: string, invite: unknown): Promise<{ id: string; token: string }> {
  p.advance(61_000);
  await p.call('member/send_code', { phone });
  const answer = await p.call('member/login', { phone, code: p.sms.lastCode(phone), agree: true, invite });
  expect(answer.status).toBe(200);
  return { id: answer.ret.id as string, token: answer.ret.token as string };
}

describe('product invitations: renwu/yaoqing', () => {
  it('pays the inviter 100 coins when someone signs up with their code, lists them and tells the inviter', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    expect(await info(p, alice.token)).toEqual({
      code: alice.id,
      invited: 0,
      coins: 0,
      rules: { coins: 100, daily_max: 10 },
    });
    const bob = await join(p, '13900139000', ` ${alice.id} `);
    expect(await info(p, alice.token)).toMatchObject({ invited: 1, coins: 100 });
    expect(await list(p, alice.token)).toEqual([
      { id: bob.id, username: 'user9000', img: '', coins: 100, created_at: p.now() },
    ]);
    const ledger = (await p.call('renwu/jinbi_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(ledger.map((line) => [line['kind'], line['amount']])).toEqual([['invite', 100]]);
    const notices = (await p.call('member/notify_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(notices).toMatchObject([{ kind: 'invitation', actor: { id: bob.id }, data: { coins: 100 } }]);
    // Bob was invited; he invited no one and earned nothing by it.
    expect(await info(p, bob.token)).toMatchObject({ invited: 0, coins: 0 });
  });

  it('counts only the login that signs a member up, with a code that names an open member', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    // Bob is a member already: logging in again with a code invites no one.
    await join(p, '13900139000', alice.id);
    for (const [i, code] of ['abc', '', {}, ['1'], '99999999', 12, null].entries()) {
      await join(p, `1370013700${i}`, code);
    }
    expect(await info(p, alice.token)).toMatchObject({ invited: 0, coins: 0 });
    // A cancelled member's code invites no one.
    expect(await p.call('member/out', { token: bob.token, reason: 'moving', agree: true })).toMatchObject({
      status: 200,
    });
    const carol = await join(p, '13600136000', bob.id);
    expect(await list(p, carol.token)).toEqual([]);
    // A number code works as well as a string.
    await join(p, '13600136001', Number(alice.id));
    expect(await info(p, alice.token)).toMatchObject({ invited: 1, coins: 100 });
  });

  it('pays for 10 sign-ups in 24 hours, and a phone once even after its account was cancelled', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    for (let i = 0; i < 11; i += 1) await join(p, `137001370${String(i).padStart(2, '0')}`, alice.id);
    expect(await info(p, alice.token)).toMatchObject({ invited: 11, coins: 1000 });
    expect((await list(p, alice.token))[0]).toMatchObject({ coins: 0 });
    p.advance(86_400_000);
    const again = await join(p, '13600136000', alice.id);
    const joinedAt = p.now();
    expect(await info(p, alice.token)).toMatchObject({ invited: 12, coins: 1100 });

    // Cancelled and signed up again with the same phone: invited once.
    expect(await p.call('member/out', { token: again.token, reason: 'moving', agree: true })).toMatchObject({
      status: 200,
    });
    const back = await join(p, '13600136000', alice.id);
    expect(back.id).not.toBe(again.id);
    expect(await info(p, alice.token)).toMatchObject({ invited: 12, coins: 1100 });
    // The cancelled one stays in the list, nameless.
    expect((await list(p, alice.token))[0]).toEqual({
      id: again.id,
      username: '',
      img: '',
      coins: 100,
      created_at: joinedAt,
    });
  });

  it('pages its list and refuses a bad page or a missing token', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    for (let i = 0; i < 21; i += 1) {
      await join(p, `137001370${String(i).padStart(2, '0')}`, alice.id);
    }
    const first = await list(p, alice.token);
    expect(first).toHaveLength(20);
    const rest = await list(p, alice.token, first[19]?.['id'] as string);
    expect(rest).toHaveLength(1);
    expect(await p.call('renwu/yaoqing_list', { token: alice.token, before: 'nope' })).toMatchObject({
      code: 'bad_params',
    });
    for (const path of ['renwu/yaoqing_info', 'renwu/yaoqing_list']) {
      expect(await p.call(path, { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    }
  });
});
