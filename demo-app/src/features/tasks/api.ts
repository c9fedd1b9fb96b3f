import { apiPost, type CallContext } from '../api/request';

/** The query key of the task centre and the coin ledger, which signing in makes stale. */
export const TASKS_QUERY = 'renwu';

/** The task centre as `renwu/index` answers it. */
export interface TaskOverview {
  signed_today: boolean;
  /** Consecutive days signed in up to today (or yesterday, while today is open); 0 once broken. */
  streak: number;
  /** Gold coins. */
  coins: number;
  rules: { daily: number; streak_days: number; streak_bonus: number };
}

/** What a day's sign-in paid, as `renwu/sign` answers it. */
export interface SignInResult {
  day: string;
  streak: number;
  coins: number;
  bonus: number;
  balance: number;
}

/** One line of the coin ledger, newest first: a withdrawal's amount is negative. */
export interface CoinLine {
  id: string;
  amount: number;
  kind: 'signin' | 'streak' | 'withdraw' | 'withdraw_return';
  created_at: number;
}

export async function taskOverview(context: CallContext): Promise<TaskOverview> {
  return (await apiPost<{ ret: TaskOverview }>('renwu/index', {}, context)).ret;
}

/** Signs the member in for today; rejects with `signed_already` when they have. */
export async function signInToday(context: CallContext): Promise<SignInResult> {
  return (await apiPost<{ ret: SignInResult }>('renwu/sign', {}, context, { loading: true })).ret;
}

/** A page of the coin ledger; `before` is the id of the last line shown. */
export async function coinPage(before: string | undefined, context: CallContext): Promise<CoinLine[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: CoinLine[] }>('renwu/jinbi_list', body, context)).ret;
}
