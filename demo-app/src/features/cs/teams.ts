import type { TFunction } from 'i18next';
import type { StoredUser } from '../member/api';

/** A customer-service team as the app shows it. */
export interface CsTeamInfo {
  id: string;
  /** Empty when the server names none. */
  name: string;
}

/** The teams the user works in as an agent; none for customers, and for a user stored before teams were known. */
export function agentTeamsOf(user: StoredUser | null): CsTeamInfo[] {
  const teams: unknown = user?.cs_teams;
  if (!Array.isArray(teams)) return [];
  return teams.flatMap((team: unknown) => {
    const { id, name } = (team ?? {}) as { id?: unknown; name?: unknown };
    return typeof id === 'string' && id !== '' ? [{ id, name: typeof name === 'string' ? name : '' }] : [];
  });
}

/** A team's name to show: its own, else the app's words for customer service. */
export function teamTitle(name: string | undefined, t: TFunction): string {
  return name || t('cs.team');
}
