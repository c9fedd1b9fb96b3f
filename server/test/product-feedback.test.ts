import { describe, expect, it } from 'vitest';
import { FEEDBACK_LIMITS } from '../src/members/feedback.js';
import { type ProductServer, productServer, signIn, uploadImage } from './product-support.js';

const screenshot = uploadImage;

const list = async (p: ProductServer, token: string, before?: string) =>
  (await p.call('member/feedback_list', { token, ...(before !== undefined && { before }) })) as {
    ret?: { id: string; phone: string; content: string; imgs: string[]; created_at: number }[];
    err?: string;
    code?: string;
  };

describe('product feedback: member/feedback_add and member/feedback_list', () => {
  it('stores a description, a phone and the member’s own screenshots; the member lists only their own', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const shots = [await screenshot(p, alice.token), await screenshot(p, alice.token)];

    const added = await p.call('member/feedback_add', {
      token: alice.token,
      phone: '13700137000',
      content: '  The chat list does not refresh.  ',
      imgs: shots,
    });
    expect(added.ret).toEqual({
      id: expect.any(String),
      phone: '13700137000',
      content: 'The chat list does not refresh.',
      imgs: shots,
      created_at: p.now(),
    });
    p.advance(1_000);
    // A number of another country, with its code, and no screenshot.
    const abroad = await p.call('member/feedback_add', {
      token: alice.token,
      phone: '2025550143',
      quhao: '+1',
      content: 'Videos stall.',
    });
    expect(abroad.ret).toMatchObject({ phone: '+1 2025550143', imgs: [] });

    expect((await list(p, alice.token)).ret?.map((f) => f.content)).toEqual([
      'Videos stall.',
      'The chat list does not refresh.',
    ]);
    expect((await list(p, bob.token)).ret).toEqual([]);
    expect(await p.call('member/feedback_list', {})).toMatchObject({ err: 'account expired', code: 'token_invalid' });
  });

  it('refuses a missing description, a wrong phone and screenshots that are not the member’s images; stores nothing', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const own = await screenshot(p, alice.token);
    const bobs = await screenshot(p, bob.token);
    const good = { token: alice.token, phone: '13700137000', content: 'It crashes.' };

    expect(await p.call('member/feedback_add', { ...good, token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    for (const content of [undefined, '', '   ', 42, 'x'.repeat(FEEDBACK_LIMITS.contentMaxLength + 1)]) {
      expect(await p.call('member/feedback_add', { ...good, content }), String(content)).toEqual({
        status: 200,
        err: 'feedback needs a problem description',
        code: 'feedback_content_invalid',
      });
    }
    for (const phone of [undefined, '', '1370013700', '11700137000', '137001370001', '1370013700a', 13700137000]) {
      expect(await p.call('member/feedback_add', { ...good, phone }), String(phone)).toEqual({
        status: 200,
        err: 'feedback needs a correct phone number',
        code: 'feedback_phone_invalid',
      });
    }
    const tooMany = Array.from({ length: FEEDBACK_LIMITS.imagesMax + 1 }, () => own);
    for (const imgs of ['one.png', { a: own }, tooMany, [bobs], [own, 'https://elsewhere.test/a.png'], [42]]) {
      expect(await p.call('member/feedback_add', { ...good, imgs }), JSON.stringify(imgs)).toMatchObject({
        err: 'parameter error',
        code: 'feedback_images_invalid',
      });
    }
    expect((await list(p, alice.token)).ret).toEqual([]);
    // At the limits: the longest description (counted in characters, not UTF-16 units) and four screenshots.
    const longest = '😀'.repeat(FEEDBACK_LIMITS.contentMaxLength);
    const imgs = Array.from({ length: FEEDBACK_LIMITS.imagesMax }, () => own);
    expect((await p.call('member/feedback_add', { ...good, content: longest, imgs })).ret).toMatchObject({
      content: longest,
      imgs,
    });
  });

  it('MEM-6: a member sends at most ten a day, even at once; the day after, they may again', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const send = (token: string, n: number) =>
      p.call('member/feedback_add', { token, phone: '13700137000', content: `report ${n}` });
    const answers = await Promise.all(Array.from({ length: 14 }, (_, n) => send(alice.token, n)));
    expect(answers.filter((a) => a.ret)).toHaveLength(FEEDBACK_LIMITS.maxPerWindow);
    expect(answers.filter((a) => a.code === 'too_frequent' && a.err === 'do not operate frequently')).toHaveLength(4);
    // Another member's quota is their own.
    expect((await send(bob.token, 0)).ret).toBeDefined();

    p.advance(FEEDBACK_LIMITS.windowMs - 1);
    expect((await send(alice.token, 99)).code).toBe('too_frequent');
    p.advance(1);
    expect((await send(alice.token, 100)).ret).toBeDefined();
  });

  it('lists twenty at a time, newest first, and pages on from the last one shown', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const bobs = await p.call('member/feedback_add', { token: bob.token, phone: '13700137000', content: 'bob' });
    for (let n = 0; n < 25; n++) {
      p.advance(n > 0 && n % FEEDBACK_LIMITS.maxPerWindow === 0 ? FEEDBACK_LIMITS.windowMs : 1);
      const answer = await p.call('member/feedback_add', {
        token: alice.token,
        phone: '13700137000',
        content: `#${n}`,
      });
      expect(answer.ret).toBeDefined();
    }
    const first = (await list(p, alice.token)).ret ?? [];
    expect(first.map((f) => f.content)).toEqual(Array.from({ length: 20 }, (_, i) => `#${24 - i}`));
    const rest = (await list(p, alice.token, first.at(-1)?.id)).ret ?? [];
    expect(rest.map((f) => f.content)).toEqual(['#4', '#3', '#2', '#1', '#0']);
    expect((await list(p, alice.token, rest.at(-1)?.id)).ret).toEqual([]);
    // A cursor that is not one of the member's own is a parameter error, not someone else's list.
    for (const before of [bobs.ret.id as string, 'unknown', '', 'x'.repeat(33), 7]) {
      expect(await p.call('member/feedback_list', { token: alice.token, before }), String(before)).toMatchObject({
        err: 'parameter error',
        code: 'bad_params',
      });
    }
  });
});
