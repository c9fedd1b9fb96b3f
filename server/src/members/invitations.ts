import { createHash } from 'node:crypto';
import type { InvitationRecord, InvitationRules, InvitationStore, MemberRecord, MemberStore } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** What inviting pays (docs/limits.md). */
export const INVITATION_RULES: InvitationRules = { coins: 100, dailyMax: 10 };

/** A page of the member's invitations. */
export const INVITATION_LIMITS = { pageSize: 20 } as const;

/** A member's invitation code: their ID, which their profile shows anyway; 8 digits. */
const CODE = /^\d{1,32}$/;

/** An invitation as its inviter lists it: with the member invited, as they show now (undefined when gone). */
export interface ShownInvitation {
  invitation: InvitationRecord;
  invitee: MemberRecord | undefined;
}

/** The invitation page as a member sees it. */
export interface InvitationOverview {
  /** The member's invitation code. */
  code: string;
  invited: number;
  /** Coins the member's invitations paid. */
  coins: number;
  rules: InvitationRules;
}

/**
 * Invitations (spec §1 "invitations", §2 renwu/yaoqing): a member's code is their ID; a new member who signs up with it
 * pays the inviter gold coins, at most {@link INVITATION_RULES.dailyMax} times in 24 hours, and a phone is invited
 * once. No HTTP here.
 */
export interface InvitationService {
  overview(memberId: string): Promise<InvitationOverview>;
  /**
   * Records that `member`, who has just signed up, was invited with `code`, and pays the inviter; anything that is
   * not an open member's code (or is their own) is ignored, as is a phone invited before. Answers the invitation, or
   * undefined.
   */
  accept(member: MemberRecord, code: unknown): Promise<InvitationRecord | undefined>;
  /** A page of the member's invitations, newest first; `before` is the invitee id of the last one shown. */
  list(memberId: string, before: unknown): Promise<MemberResult<ShownInvitation[]>>;
}

/** Creates the invitation service over the store. */
export function createInvitationService(deps: {
  invitations: InvitationStore;
  members: MemberStore;
  now: () => number;
  /** Told of each invitation recorded. */
  onInvited?: (record: InvitationRecord) => Promise<void>;
}): InvitationService {
  const { invitations } = deps;
  return {
    async overview(memberId) {
      const { invited, coins } = await invitations.summary(memberId);
      return { code: memberId, invited, coins, rules: INVITATION_RULES };
    },
    async accept(member, code) {
      const inviterId = typeof code === 'number' ? String(code) : typeof code === 'string' ? code.trim() : '';
      if (!CODE.test(inviterId)) return undefined;
      const record = await invitations.record({
        inviterId,
        inviteeId: member.id,
        phoneHash: createHash('sha256').update(member.phone).digest('hex'),
        now: deps.now(),
        rules: INVITATION_RULES,
      });
      if (record) await deps.onInvited?.(record);
      return record;
    },
    async list(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await invitations.list(memberId, { before, limit: INVITATION_LIMITS.pageSize });
      if (!page) return fail('bad_params');
      const shown = await Promise.all(
        page.map(async (invitation) => ({ invitation, invitee: await deps.members.byId(invitation.inviteeId) })),
      );
      return { ok: true, value: shown };
    },
  };
}
