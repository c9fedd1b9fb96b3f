import { describe, expect, it } from 'vitest';
import { MEMBER_LIMITS } from '../src/members/service.js';
import { randomName } from '../src/uploads/keys.js';
import { type ProductServer, postFile, productServer, signIn, uploadToken } from './product-support.js';

/** Uploads a png as the member and returns its URL. */
async function image(p: ProductServer, token: string): Promise<string> {
  const answer = await uploadToken(p, token);
  const key = `${answer.key_prefix}${randomName()}.png`;
  expect((await postFile(answer, key)).status).toBe(200);
  return `${answer.url_prefix}${key}`;
}

/** The server's date `days` from now, `YYYY-MM-DD`. */
const day = (p: ProductServer, days: number) => new Date(p.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('product profile details: member/profile_update', () => {
  it('sets gender, birthday, region, signature and background; others see all but the birthday', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const background = await image(p, alice.token);
    const changes = { gender: 'female', birthday: '1995-02-28', region: ' Hangzhou ', qianming: ' 今天也要开心 ' };

    const saved = await p.call('member/profile_update', { token: alice.token, ...changes, background });
    expect(saved.ret).toEqual({
      id: alice.id,
      username: 'user8000',
      img: '',
      gender: 'female',
      birthday: '1995-02-28',
      region: 'Hangzhou',
      qianming: '今天也要开心',
      background,
    });
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject(saved.ret);
    const seen = (await p.call('member/profile', { token: bob.token, id: alice.id })).ret;
    expect(seen).toEqual({
      id: alice.id,
      username: 'user8000',
      img: '',
      gender: 'female',
      region: 'Hangzhou',
      qianming: '今天也要开心',
      background,
      follows: 0,
      fans: 0,
      likes: 0,
      shiming: 0,
      blocked: false,
      followed: false,
    });

    // Each may be cleared; a field left out keeps its value.
    const cleared = await p.call('member/profile_update', {
      token: alice.token,
      birthday: '',
      region: '',
      qianming: '',
      background: '',
      gender: 'hidden',
    });
    expect(cleared.ret).toMatchObject({ gender: 'hidden', birthday: '', region: '', qianming: '', background: '' });
    expect((await p.call('member/profile_update', { token: alice.token, region: 'Xi’an' })).ret).toMatchObject({
      region: 'Xi’an',
      gender: 'hidden',
    });
  });

  it('refuses what is not valid with "parameter error", and then changes nothing of the call', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const bobs = await image(p, bob.token);
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ gender: 'other' }, 'gender_invalid'],
      [{ gender: 1 }, 'gender_invalid'],
      [{ birthday: '2020-02-30' }, 'birthday_invalid'],
      [{ birthday: '2020-2-3' }, 'birthday_invalid'],
      [{ birthday: 20200203 }, 'birthday_invalid'],
      [{ birthday: '1899-12-31' }, 'birthday_invalid'],
      [{ birthday: day(p, 2) }, 'birthday_invalid'],
      [{ region: 'x'.repeat(MEMBER_LIMITS.regionMaxLength + 1) }, 'region_invalid'],
      [{ region: 'line\nbreak' }, 'region_invalid'],
      [{ qianming: '好'.repeat(MEMBER_LIMITS.qianmingMaxLength + 1) }, 'qianming_invalid'],
      [{ qianming: ['hi'] }, 'qianming_invalid'],
      [{ background: bobs }, 'background_invalid'],
      [{ background: 'https://elsewhere.test/b.png' }, 'background_invalid'],
      // One valid change beside one that is not: neither is made.
      [{ gender: 'male', birthday: 'yesterday' }, 'birthday_invalid'],
    ];
    for (const [changes, code] of refused) {
      expect(
        await p.call('member/profile_update', { token: alice.token, ...changes }),
        JSON.stringify(changes),
      ).toEqual({ status: 200, err: 'parameter error', code });
    }
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject({
      gender: 'hidden',
      birthday: '',
      region: '',
      qianming: '',
      background: '',
    });
    // At the limits: today, the first day taken, the longest signature in characters.
    for (const birthday of [day(p, 0), '1900-01-01']) {
      expect((await p.call('member/profile_update', { token: alice.token, birthday })).ret.birthday).toBe(birthday);
    }
    const longest = '😀'.repeat(MEMBER_LIMITS.qianmingMaxLength);
    expect((await p.call('member/profile_update', { token: alice.token, qianming: longest })).ret.qianming).toBe(
      longest,
    );
  });
});
