import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { StoredUser } from '../features/member/api';

/** localStorage keys of the session (spec §3): the user, and a copy kept after logout. */
export const USER_KEY = 'user';
export const USER_OUT_KEY = 'user_out';

/** The session: the signed-in user (or none) and the messaging otp, which is never stored. */
export interface Session {
  user: StoredUser | null;
  /** Proves the user id to the messaging server; from login, or from member/info at app start. */
  otp: string | null;
  /** Commits a login: stores the user; the messaging connection starts with the otp. */
  signIn: (user: StoredUser, otp: string | null) => void;
  /** Merges fresh user info and otp from member/info. */
  refresh: (user: Partial<StoredUser>, otp: string | null) => void;
  /**
   * Logs out: keeps a copy as `user_out` and clears the session. With `forget` (a cancelled account) no copy is kept,
   * and an earlier one is removed.
   */
  signOut: (options?: { forget?: boolean }) => void;
}

const SessionContext = createContext<Session | null>(null);

function readUser(): StoredUser | null {
  try {
    const value = JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as Partial<StoredUser> | null;
    return value && typeof value.token === 'string' && value.id !== undefined ? (value as StoredUser) : null;
  } catch {
    return null;
  }
}

/** Holds the session and mirrors the user into localStorage. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<StoredUser | null>(readUser);
  const [otp, setOtp] = useState<string | null>(null);

  const signIn = useCallback((next: StoredUser, nextOtp: string | null) => {
    const stored = { ...next, id: String(next.id) };
    localStorage.setItem(USER_KEY, JSON.stringify(stored));
    setUser(stored);
    setOtp(nextOtp);
  }, []);

  const refresh = useCallback((changes: Partial<StoredUser>, nextOtp: string | null) => {
    setUser((current) => {
      if (!current) return current;
      const merged = { ...current, ...changes, token: current.token, id: current.id };
      localStorage.setItem(USER_KEY, JSON.stringify(merged));
      return merged;
    });
    if (nextOtp) setOtp(nextOtp);
  }, []);

  const signOut = useCallback((options?: { forget?: boolean }) => {
    const current = localStorage.getItem(USER_KEY);
    if (options?.forget === true) localStorage.removeItem(USER_OUT_KEY);
    else if (current) localStorage.setItem(USER_OUT_KEY, current);
    localStorage.removeItem(USER_KEY);
    setUser(null);
    setOtp(null);
  }, []);

  const value = useMemo(() => ({ user, otp, signIn, refresh, signOut }), [user, otp, signIn, refresh, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session of the nearest {@link SessionProvider}. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession: no SessionProvider above this component');
  return session;
}
