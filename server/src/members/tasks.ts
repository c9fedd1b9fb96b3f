import type { CoinRecord, SignInRecord, SignInRules, TaskStore } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** What signing in pays (docs/limits.md; spec §9: "Sign-in bonus on a 7-day streak"). */
export const SIGN_IN_RULES: SignInRules = { daily: 10, streakDays: 7, streakBonus: 50 };

/** A page of the coin ledger. */
export const TASK_LIMITS = { pageSize: 20 } as const;

/** The day (`YYYY-MM-DD`) that `time` falls on, where days begin `offsetMinutes` east of UTC. */
export function dayOf(time: number, offsetMinutes: number): string {
  return new Date(time + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** The task centre as a member sees it. */
export interface TaskOverview {
  signedToday: boolean;
  /** Consecutive days signed in up to today, or up to yesterday while today is still open; 0 once broken. */
  streak: number;
  /** Gold coins. */
  coins: number;
  rules: SignInRules;
}

/** The task centre (spec §2 renwu: index, jinbi): daily sign-in and gold coins. No HTTP here. */
export interface TaskService {
  overview(memberId: string): Promise<TaskOverview>;
  /** Signs the member in for today: `signed_already` when they have. Answers the day's sign-in and the new balance. */
  signIn(memberId: string): Promise<MemberResult<{ signIn: SignInRecord; coins: number }>>;
  /** A page of the member's coin ledger, newest first; `before` is the id of the last line shown. */
  coins(memberId: string, before: unknown): Promise<MemberResult<CoinRecord[]>>;
}

/** Creates the task service over the store; days begin `dayOffsetMinutes` east of UTC. */
export function createTaskService(deps: {
  tasks: TaskStore;
  now: () => number;
  dayOffsetMinutes: number;
}): TaskService {
  const { tasks } = deps;
  const days = () => {
    const now = deps.now();
    return {
      now,
      today: dayOf(now, deps.dayOffsetMinutes),
      yesterday: dayOf(now - 86_400_000, deps.dayOffsetMinutes),
    };
  };
  return {
    async overview(memberId) {
      const { today, yesterday } = days();
      const [last, coins] = await Promise.all([tasks.lastSignIn(memberId), tasks.balance(memberId)]);
      const current = last && (last.day === today || last.day === yesterday) ? last.streak : 0;
      return { signedToday: last?.day === today, streak: current, coins, rules: SIGN_IN_RULES };
    },
    async signIn(memberId) {
      const { now, today, yesterday } = days();
      const signIn = await tasks.signIn(memberId, { day: today, yesterday, now, rules: SIGN_IN_RULES });
      if (!signIn) return fail('signed_already');
      return { ok: true, value: { signIn, coins: await tasks.balance(memberId) } };
    },
    async coins(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await tasks.coins(memberId, { before, limit: TASK_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
  };
}
