import { randomBytes } from 'node:crypto';
import type { AddressFields, AddressRecord, AddressStore } from '../store/index.js';
import { phoneKey, type MemberFailure, type MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of a member's shipping addresses (docs/limits.md). */
export const ADDRESS_LIMITS = {
  /** A member keeps at most this many (MEM-9); more are `address_limit`. */
  max: 20,
  /** The receiver's name: 1 to this many characters after trimming. */
  nameMaxLength: 20,
  /** The region: 1 to this many. */
  regionMaxLength: 60,
  /** The street address: 1 to this many. */
  detailMaxLength: 120,
} as const;

/** The fields of an address as the app sends them. */
export interface AddressInput {
  name?: unknown;
  phone?: unknown;
  quhao?: unknown;
  region?: unknown;
  detail?: unknown;
  /** Make it the default address. */
  isDefault?: unknown;
}

/** The product app's shipping addresses (spec §2 member/address and address-add, §3 Address). No HTTP here. */
export interface AddressService {
  list(memberId: string): Promise<AddressRecord[]>;
  /** Adds an address: every field checked; the first, or one marked `isDefault`, is the default. */
  add(memberId: string, input: AddressInput): Promise<MemberResult<AddressRecord[]>>;
  /** Changes address `id` (every field again) and/or makes it the default. Answers the member's list. */
  update(memberId: string, id: unknown, input: AddressInput): Promise<MemberResult<AddressRecord[]>>;
  /** Makes address `id` the default. */
  makeDefault(memberId: string, id: unknown): Promise<MemberResult<AddressRecord[]>>;
  /** Removes address `id`; the most recently changed left becomes the default when it was. */
  remove(memberId: string, id: unknown): Promise<MemberResult<AddressRecord[]>>;
}

/** One line of the member's words: trimmed, 1 to `max` characters, no control characters. */
export function lineOf(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const length = [...trimmed].length;
  return length === 0 || length > max || /\p{Cc}/u.test(trimmed) ? undefined : trimmed;
}

/** Every field of an address, checked; the first that is not valid fails. */
function fieldsOf(input: AddressInput): AddressFields | MemberFailure {
  const name = lineOf(input.name, ADDRESS_LIMITS.nameMaxLength);
  if (name === undefined) return 'address_name_invalid';
  const phone = phoneKey(input.phone, input.quhao);
  if (phone === undefined) return 'address_phone_invalid';
  const region = lineOf(input.region, ADDRESS_LIMITS.regionMaxLength);
  if (region === undefined) return 'address_region_invalid';
  const detail = lineOf(input.detail, ADDRESS_LIMITS.detailMaxLength);
  if (detail === undefined) return 'address_detail_invalid';
  return { name, phone, region, detail };
}

const idOf = (value: unknown) => (typeof value === 'string' && value !== '' && value.length <= 32 ? value : undefined);

/** Creates the address service over the store. */
export function createAddressService(deps: { addresses: AddressStore; now: () => number }): AddressService {
  const { addresses } = deps;
  const listed = async (memberId: string): Promise<MemberResult<AddressRecord[]>> => ({
    ok: true,
    value: await addresses.list(memberId),
  });
  return {
    list: (memberId) => addresses.list(memberId),
    async add(memberId, input) {
      const fields = fieldsOf(input);
      if (typeof fields === 'string') return fail(fields);
      const record = { ...fields, id: randomBytes(8).toString('hex'), memberId, updatedAt: deps.now() };
      const added = await addresses.add(record, { makeDefault: input.isDefault === true, max: ADDRESS_LIMITS.max });
      return added ? listed(memberId) : fail('address_limit');
    },
    async update(memberId, id, input) {
      const address = idOf(id);
      if (address === undefined) return fail('address_missing');
      const fields = fieldsOf(input);
      if (typeof fields === 'string') return fail(fields);
      const params = { fields, makeDefault: input.isDefault === true, now: deps.now() };
      return (await addresses.update(memberId, address, params)) ? listed(memberId) : fail('address_missing');
    },
    async makeDefault(memberId, id) {
      const address = idOf(id);
      if (address === undefined) return fail('address_missing');
      const params = { makeDefault: true, now: deps.now() };
      return (await addresses.update(memberId, address, params)) ? listed(memberId) : fail('address_missing');
    },
    async remove(memberId, id) {
      const address = idOf(id);
      if (address === undefined) return fail('address_missing');
      return (await addresses.remove(memberId, address)) ? listed(memberId) : fail('address_missing');
    },
  };
}
