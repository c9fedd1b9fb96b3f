// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import type { StoredUser } from '../member/api';
import { agentTeamsOf, teamTitle } from './teams';

const user = (cs_teams: unknown): StoredUser =>
  ({ token: 't', id: '1', username: 'u', img: '', cs_teams }) as StoredUser;

describe('agent teams', () => {
  it('reads the teams the server lists for an agent', () => {
    expect(agentTeamsOf(user([{ id: 'service', name: 'Support' }, { id: 'vip' }]))).toEqual([
      { id: 'service', name: 'Support' },
      { id: 'vip', name: '' },
    ]);
  });

  it('finds none for a customer, a visitor, or a user stored before teams were known', () => {
    expect(agentTeamsOf(user([]))).toEqual([]);
    expect(agentTeamsOf(null)).toEqual([]);
    expect(agentTeamsOf(user(undefined))).toEqual([]);
    expect(agentTeamsOf(user('service'))).toEqual([]);
    expect(agentTeamsOf(user([null, { id: '' }, { id: 7 }, { name: 'x' }]))).toEqual([]);
  });

  it("names a team by its own name, else in the app's words", () => {
    const { t } = createI18n('zh-CN');
    expect(teamTitle('Support', t)).toBe('Support');
    expect(teamTitle('', t)).toBe('客服');
  });
});
