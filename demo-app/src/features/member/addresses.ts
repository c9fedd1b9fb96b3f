import { apiPost, type CallContext } from '../api/request';
import { parseContactPhone } from './phone';

/** A shipping address as the server lists it, the default first. */
export interface Address {
  id: string;
  name: string;
  /** A mainland number, or `+<code> <number>`: as the form takes it back. */
  phone: string;
  region: string;
  detail: string;
  is_default: boolean;
}

/** What the address form holds. */
export interface AddressDraft {
  name: string;
  phone: string;
  region: string;
  detail: string;
  isDefault: boolean;
}

/** The form's bounds, the server's rules (characters after trimming). */
export const ADDRESS_BOUNDS = { name: 20, region: 60, detail: 120, max: 20 } as const;

/** The query key of the address list. */
export const ADDRESSES_QUERY = 'member-addresses';

/** Why a draft cannot be saved, or undefined. */
export function addressProblem(draft: AddressDraft): 'name' | 'phone' | 'region' | 'detail' | undefined {
  const fits = (value: string, max: number) => {
    const length = [...value.trim()].length;
    return length > 0 && length <= max;
  };
  if (!fits(draft.name, ADDRESS_BOUNDS.name)) return 'name';
  if (!parseContactPhone(draft.phone)) return 'phone';
  if (!fits(draft.region, ADDRESS_BOUNDS.region)) return 'region';
  if (!fits(draft.detail, ADDRESS_BOUNDS.detail)) return 'detail';
  return undefined;
}

/** The member's addresses, the default first. */
export async function addressList(context: CallContext): Promise<Address[]> {
  return (await apiPost<{ ret: Address[] }>('member/address_list', {}, context)).ret;
}

/** Adds (no `id`) or changes (`id`) an address checked with {@link addressProblem}; resolves with the new list. */
export async function saveAddress(
  draft: AddressDraft,
  id: string | undefined,
  context: CallContext,
): Promise<Address[]> {
  const contact = parseContactPhone(draft.phone) ?? { phone: draft.phone, quhao: '86' };
  const body = {
    ...(id === undefined ? {} : { id }),
    name: draft.name.trim(),
    phone: contact.phone,
    quhao: contact.quhao,
    region: draft.region.trim(),
    detail: draft.detail.trim(),
    is_default: draft.isDefault,
  };
  const path = id === undefined ? 'member/address_add' : 'member/address_edit';
  return (await apiPost<{ ret: Address[] }>(path, body, context, { loading: true })).ret;
}

/** Makes address `id` the default; resolves with the new list. */
export async function makeDefaultAddress(id: string, context: CallContext): Promise<Address[]> {
  return (await apiPost<{ ret: Address[] }>('member/address_default', { id }, context, { loading: true })).ret;
}

/** Removes address `id`; resolves with the new list. */
export async function removeAddress(id: string, context: CallContext): Promise<Address[]> {
  return (await apiPost<{ ret: Address[] }>('member/address_del', { id }, context, { loading: true })).ret;
}
