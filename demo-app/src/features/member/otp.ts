import type { OtpProvider } from 'parley-im';

/**
 * The messaging connection's otp (CONN-14): the session's own when it has one the connection was not given yet (from
 * login, or from `member/info` at each app show), else a fresh one from `fetchFresh` (`member/info` again), as
 * when the server refused the one given because it expired during a long visit. Throws when none comes.
 */
export function sessionOtpProvider(latest: () => string | null, fetchFresh: () => Promise<string | null>): OtpProvider {
  let given: string | null = null;
  return async () => {
    const current = latest();
    const otp = current !== null && current !== given ? current : await fetchFresh();
    if (!otp) throw new Error('no messaging otp for this user');
    given = otp;
    return otp;
  };
}
