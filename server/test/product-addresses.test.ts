import { describe, expect, it } from 'vitest';
import { ADDRESS_LIMITS } from '../src/members/addresses.js';
import { productServer, signIn } from './product-support.js';

const HOME = { name: ' Li Lei ', phone: '13800138000', region: 'Zhejiang Hangzhou Xihu', detail: ' West Lake Road 1 ' };

describe('product shipping addresses: member/address_*', () => {
  it('adds, edits, makes default and removes, answering the list with the default first', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const first = await p.call('member/address_add', { token: alice.token, ...HOME });
    expect(first.ret).toEqual([
      {
        id: expect.any(String),
        name: 'Li Lei',
        phone: '13800138000',
        region: 'Zhejiang Hangzhou Xihu',
        detail: 'West Lake Road 1',
        is_default: true,
      },
    ]);
    p.advance(1);
    const office = { ...HOME, name: 'Han Meimei', phone: '2025550143', quhao: '1', detail: 'Office' };
    type Listed = Array<{ id: string; name: string; phone: string; is_default: boolean }>;
    const two = (await p.call('member/address_add', { token: alice.token, ...office })).ret as Listed;
    expect(two.map((a) => [a.name, a.is_default])).toEqual([
      ['Li Lei', true],
      ['Han Meimei', false],
    ]);
    expect(two[1]?.phone).toBe('+1 2025550143');
    const [home, work] = two;

    const switched = (await p.call('member/address_default', { token: alice.token, id: work?.id })).ret as Listed;
    expect(switched.map((a) => [a.id, a.is_default])).toEqual([
      [work?.id, true],
      [home?.id, false],
    ]);
    const edited = await p.call('member/address_edit', { token: alice.token, id: home?.id, ...HOME, detail: 'Gate 2' });
    expect(edited.ret[1]).toMatchObject({ id: home?.id, detail: 'Gate 2', is_default: false });

    // Another member neither sees nor changes them.
    expect((await p.call('member/address_list', { token: bob.token })).ret).toEqual([]);
    for (const path of ['member/address_default', 'member/address_del']) {
      expect(await p.call(path, { token: bob.token, id: home?.id })).toMatchObject({
        err: 'the address does not exist',
        code: 'address_missing',
      });
    }
    expect(await p.call('member/address_edit', { token: bob.token, id: home?.id, ...HOME })).toMatchObject({
      code: 'address_missing',
    });

    const left = (await p.call('member/address_del', { token: alice.token, id: work?.id })).ret;
    expect(left).toEqual([expect.objectContaining({ id: home?.id, is_default: true })]);
    expect((await p.call('member/address_list', { token: alice.token })).ret).toEqual(left);
    expect(await p.call('member/address_list', {})).toMatchObject({ code: 'token_invalid' });
  });

  it('refuses an address without a receiver, a correct phone, a region or a street; keeps at most twenty', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const refused: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '  ' }, 'address_name_invalid', 'please enter the receiver'],
      [{ name: 'x'.repeat(ADDRESS_LIMITS.nameMaxLength + 1) }, 'address_name_invalid', 'please enter the receiver'],
      [{ phone: '1380013800' }, 'address_phone_invalid', 'please enter a correct receiving phone number'],
      [{ phone: 13800138000 }, 'address_phone_invalid', 'please enter a correct receiving phone number'],
      [{ region: '' }, 'address_region_invalid', 'please choose the region'],
      [{ detail: undefined }, 'address_detail_invalid', 'please enter the shipping address'],
      [{ detail: 'line\nbreak' }, 'address_detail_invalid', 'please enter the shipping address'],
      [
        { detail: 'x'.repeat(ADDRESS_LIMITS.detailMaxLength + 1) },
        'address_detail_invalid',
        'please enter the shipping address',
      ],
    ];
    for (const [change, code, err] of refused) {
      expect(await p.call('member/address_add', { token: alice.token, ...HOME, ...change }), code).toEqual({
        status: 200,
        err,
        code,
      });
    }
    expect((await p.call('member/address_list', { token: alice.token })).ret).toEqual([]);

    const adds = await Promise.all(
      Array.from({ length: ADDRESS_LIMITS.max + 3 }, (_, n) =>
        p.call('member/address_add', { token: alice.token, ...HOME, detail: `Door ${n}` }),
      ),
    );
    expect(adds.filter((a) => a.ret)).toHaveLength(ADDRESS_LIMITS.max);
    expect(adds.filter((a) => a.code === 'address_limit' && a.err === 'at most 20 addresses')).toHaveLength(3);
    const list = (await p.call('member/address_list', { token: alice.token })).ret as Array<{ is_default: boolean }>;
    expect(list.filter((a) => a.is_default)).toHaveLength(1);
    for (const id of [undefined, '', 7, 'x'.repeat(33), 'unknown']) {
      expect(await p.call('member/address_del', { token: alice.token, id }), String(id)).toMatchObject({
        code: 'address_missing',
      });
    }
  });
});
