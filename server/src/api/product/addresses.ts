import type { AddressRecord } from '../../store/index.js';
import type { MemberResult } from '../../members/service.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductBody, type ProductPost } from './reply.js';

/** An address as the app shows it. */
function addressObject(address: AddressRecord) {
  const { id, name, phone, region, detail, isDefault } = address;
  return { id, name, phone, region, detail, is_default: isDefault };
}

const answer = (result: MemberResult<AddressRecord[]>) =>
  result.ok ? { ret: result.value.map(addressObject) } : refuse(result.failure);

/** The fields of an address in a call's body. */
const inputOf = (body: ProductBody) => ({
  name: body['name'],
  phone: body['phone'],
  quhao: body['quhao'],
  region: body['region'],
  detail: body['detail'],
  isDefault: body['is_default'],
});

/**
 * Shipping addresses (spec §2 member/address, address-add): `member/address_list`; `member/address_add` and
 * `member/address_edit` (`id`) with `name`, `phone`, `quhao?`, `region`, `detail`, `is_default?`;
 * `member/address_default` and `member/address_del` (`id`). Each answers the member's list,
 * `{ret: [{id, name, phone, region, detail, is_default}]}`, the default first.
 */
export function addressRoutes(post: ProductPost, deps: ProductApiDeps): void {
  const { members, addresses } = deps;
  post('member/address_list', async (body) => {
    const me = await members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    return { ret: (await addresses.list(me.value.id)).map(addressObject) };
  });
  post('member/address_add', async (body) => {
    const me = await members.byToken(body['token']);
    return me.ok ? answer(await addresses.add(me.value.id, inputOf(body))) : refuse(me.failure);
  });
  post('member/address_edit', async (body) => {
    const me = await members.byToken(body['token']);
    return me.ok ? answer(await addresses.update(me.value.id, body['id'], inputOf(body))) : refuse(me.failure);
  });
  post('member/address_default', async (body) => {
    const me = await members.byToken(body['token']);
    return me.ok ? answer(await addresses.makeDefault(me.value.id, body['id'])) : refuse(me.failure);
  });
  post('member/address_del', async (body) => {
    const me = await members.byToken(body['token']);
    return me.ok ? answer(await addresses.remove(me.value.id, body['id'])) : refuse(me.failure);
  });
}
