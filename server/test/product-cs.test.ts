import { describe, expect, it } from 'vitest';
import { ConfigError, DEMO_CS_AGENTS, loadConfig } from '../src/config.js';
import { agentTeams, kefuLink } from '../src/api/product/cs.js';
import { NO_DETAILS, type MemberRecord } from '../src/store/index.js';
import { MESSAGES } from '../src/protocol.js';
import { SECURE_APP, request } from './helpers.js';
import { csPublishParams } from './cs-support.js';
import { content, login as connectAs } from './im-support.js';
import { PHONE, startProductServer } from './product-support.js';

const AGENT_PHONE = '13700137001';

/** Signs a phone in through the product API and returns the login answer. */
async function login(p: Awaited<ReturnType<typeof startProductServer>>, phone: string) {
  await p.call('member/send_code', { phone });
  return p.call('member/login', { phone, code: p.sms.lastCode(phone), agree: true });
}

describe('product API: customer service', () => {
  it('index/config points kefu_h5 at the app chat with the configured team, and names the team', async () => {
    const p = await startProductServer(undefined, { cs: { teamId: 'help-desk', teamName: 'Help desk', agents: [] } });
    const answer = await p.call('index/config', {});
    expect(answer.ret.kefu_h5).toBe('#/im/view?team=help-desk');
    expect(answer.ret.kefu_team).toEqual({ id: 'help-desk', name: 'Help desk' });
  });

  it('index/config has a working team by default', async () => {
    const p = await startProductServer();
    const answer = await p.call('index/config', {});
    expect(answer.ret.kefu_h5).toBe('#/im/view?team=service');
    expect(answer.ret.kefu_team).toEqual({ id: 'service', name: '' });
  });

  it('member/login and member/info list the teams of an agent, and none for anyone else', async () => {
    const cs = { teamId: 'service', teamName: 'Support', agents: [` +86 ${AGENT_PHONE} `] };
    const p = await startProductServer(undefined, { cs });
    const agent = await login(p, AGENT_PHONE);
    expect(agent.ret.cs_teams).toEqual([{ id: 'service', name: 'Support' }]);
    const info = await p.call('member/info', { token: agent.ret.token });
    expect(info.ret.cs_teams).toEqual([{ id: 'service', name: 'Support' }]);

    const customer = await login(p, PHONE);
    expect(customer.ret.cs_teams).toEqual([]);
    expect((await p.call('member/info', { token: customer.ret.token })).ret.cs_teams).toEqual([]);
    // A public profile says nothing about teams.
    const profile = await p.call('member/profile', { token: customer.ret.token, id: agent.ret.id });
    expect(profile.ret).toEqual({
      id: agent.ret.id,
      username: agent.ret.username,
      img: '',
      gender: 'hidden',
      region: '',
      qianming: '',
      background: '',
      follows: 0,
      fans: 0,
      likes: 0,
      shiming: 0,
      blocked: false,
      followed: false,
    });
  });

  it('CS-15: only the configured agents go online in the app team; other teams stay open', async () => {
    const cs = { teamId: 'service', teamName: 'Support', agents: [AGENT_PHONE] };
    const p = await startProductServer(undefined, { cs });
    const messaging = async (phone: string) => {
      const answer = await login(p, phone);
      return connectAs(p.url, answer.ret.id as string, { appkey: SECURE_APP.appkey, otp: answer.otp });
    };
    const online = (socket: Awaited<ReturnType<typeof messaging>>, teamId: string) =>
      request(socket, 'CS_ONLINE', { teamId, teamData: '{}', agentData: '{"name":"x"}' });
    const customer = await messaging(PHONE);
    expect(await online(customer, 'service')).toEqual({
      code: 401,
      resultCode: 401,
      content: MESSAGES.noPermission,
    });
    // Not online, so not an agent: the team's customers stay out of reach.
    expect(await request(customer, 'CS_AGENTS', { teamId: 'service' })).toMatchObject({ code: 200, content: [] });
    expect(await request(customer, 'CS_CUSTOMER_STATUS', { teamId: 'service', customerId: 'x' })).toMatchObject({
      code: 401,
    });
    expect(await online(customer, 'another-team')).toMatchObject({ code: 200 });
    const agent = await messaging(AGENT_PHONE);
    expect(await online(agent, 'service')).toMatchObject({ code: 200 });
  });

  it('CS-15: an online row from before the rule, or from before leaving the list, makes no agent', async () => {
    const cs = { teamId: 'service', teamName: 'Support', agents: [AGENT_PHONE] };
    const p = await startProductServer(undefined, { cs });
    const messaging = async (phone: string) => {
      const answer = await login(p, phone);
      const socket = await connectAs(p.url, answer.ret.id as string, { appkey: SECURE_APP.appkey, otp: answer.otp });
      return { socket, id: answer.ret.id as string };
    };
    const rogue = await messaging(PHONE);
    await p.server.store.cs.setOnline({
      appkey: SECURE_APP.appkey,
      teamId: 'service',
      agentId: rogue.id,
      agentData: '{"name":"rogue"}',
      teamData: '{}',
      now: p.now(),
    });
    const agent = await messaging(AGENT_PHONE);
    await content(agent.socket, 'CS_ONLINE', { teamId: 'service', teamData: '{}', agentData: '{"name":"agent"}' });
    const customer = await messaging('13900139000');
    await content(customer.socket, 'publishIM', csPublishParams('service'));

    expect(await content(rogue.socket, 'CS_MY_TEAMS', {})).toEqual([]);
    expect(await content(rogue.socket, 'CS_PENDING_CONVERSATION', {})).toEqual([]);
    const denied = { code: 401, content: MESSAGES.noPermission };
    const ref = { teamId: 'service', customerId: customer.id };
    expect(await request(rogue.socket, 'CS_CUSTOMER_STATUS', ref)).toMatchObject(denied);
    expect(await request(rogue.socket, 'CS_LIVE_SESSION', ref)).toMatchObject(denied);
    const history = { id: customer.id, scene: 'cs', teamId: 'service', limit: 10 };
    expect(await request(rogue.socket, 'IM_HISTORY', history)).toMatchObject(denied);
    // The agent sees the customer waiting and only itself online; the customer hears of no other agent.
    expect(await content(agent.socket, 'CS_PENDING_CONVERSATION', {})).toHaveLength(1);
    expect(await content(agent.socket, 'CS_AGENTS', { teamId: 'service' })).toEqual([
      { id: agent.id, data: '{"name":"agent"}' },
    ]);
    expect(await request(agent.socket, 'IM_HISTORY', history)).toMatchObject({ code: 200 });
  });
});

describe('customer-service agents', () => {
  const member = (id: string, phone: string): MemberRecord => ({
    ...NO_DETAILS,
    id,
    phone,
    username: 'u',
    img: '',
    notifyBadge: 0,
    usernameChangedAt: null,
    createdAt: 0,
  });
  const cs = (agents: string[]) => ({ teamId: 't1', teamName: 'T', agents });

  it('matches a member by id or by phone, mainland numbers with or without +86', () => {
    expect(agentTeams(cs(['10000001']), member('10000001', PHONE))).toEqual([{ id: 't1', name: 'T' }]);
    expect(agentTeams(cs([PHONE]), member('1', PHONE))).toHaveLength(1);
    expect(agentTeams(cs([`+86${PHONE}`]), member('1', PHONE))).toHaveLength(1);
    expect(agentTeams(cs([`86 ${PHONE}`]), member('1', PHONE))).toHaveLength(1);
    expect(agentTeams(cs(['+44  7700900123']), member('1', '+44 7700900123'))).toHaveLength(1);
  });

  it('matches nobody else', () => {
    expect(agentTeams(cs([]), member('1', PHONE))).toEqual([]);
    expect(agentTeams(cs(['13800138001', '10000002']), member('10000001', PHONE))).toEqual([]);
    // Part of a number is not the number.
    expect(agentTeams(cs([PHONE.slice(1)]), member('1', PHONE))).toEqual([]);
  });

  it('builds the kefu link with the team id escaped', () => {
    expect(kefuLink('a&b c')).toBe('#/im/view?team=a%26b+c');
  });
});

describe('loadConfig: customer service', () => {
  it('defaults to the team "service" with the demo agents', () => {
    expect(loadConfig({}).cs).toEqual({ teamId: 'service', teamName: '', agents: [...DEMO_CS_AGENTS] });
  });

  it('reads PARLEY_CS_TEAM_ID, PARLEY_CS_TEAM_NAME and PARLEY_CS_AGENTS (a comma list)', () => {
    const config = loadConfig({
      PARLEY_CS_TEAM_ID: 'kefu',
      PARLEY_CS_TEAM_NAME: '客服中心',
      PARLEY_CS_AGENTS: ' 13700137001, 20000001 ,,',
    });
    expect(config.cs).toEqual({ teamId: 'kefu', teamName: '客服中心', agents: ['13700137001', '20000001'] });
    expect(loadConfig({ PARLEY_CS_AGENTS: ',' }).cs.agents).toEqual([]);
  });

  it('merges the file and the environment field by field', () => {
    const read = () => JSON.stringify({ cs: { teamId: 'from-file', agents: ['1'] } });
    const config = loadConfig({ PARLEY_CONFIG: '/c.json', PARLEY_CS_TEAM_NAME: 'Env name' }, read);
    expect(config.cs).toEqual({ teamId: 'from-file', teamName: 'Env name', agents: ['1'] });
  });

  it('refuses a team id with spaces or over 60 characters, naming the variable', () => {
    expect(() => loadConfig({ PARLEY_CS_TEAM_ID: 'a b' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_CS_TEAM_ID: 'x'.repeat(61) })).toThrow(/cs\.teamId \(from PARLEY_CS_TEAM_ID\)/);
  });
});
