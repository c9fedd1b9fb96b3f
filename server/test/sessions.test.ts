import { describe, expect, it } from 'vitest';
import { createAppRegistry } from '../src/auth/apps.js';
import { createSessionService } from '../src/auth/sessions.js';
import { openStore } from '../src/store/index.js';
import { OPEN_APP, authorizeParams, defer } from './helpers.js';

async function setup() {
  const store = await openStore({
    databaseUrl: undefined,
    databaseSchema: undefined,
    dataDir: '/unused',
    sqlite: ':memory:',
  });
  defer(() => store.close());
  const clock = { now: 1_800_000_000_000 };
  const service = createSessionService({
    apps: createAppRegistry([OPEN_APP]),
    sessions: store.sessions,
    sessionTtlMs: 10_000,
    now: () => clock.now,
  });
  return { store, clock, service };
}

describe('session service', () => {
  it('keeps live sessions through sweeps and deletes the ones gone longer than the time to live', async () => {
    const { store, clock, service } = await setup();
    const live = await service.authorize({ ...authorizeParams(), appkey: OPEN_APP.appkey });
    const gone = await service.authorize({ ...authorizeParams({ userId: 'bob' }), appkey: OPEN_APP.appkey });
    await service.left(gone.sid);
    clock.now += 10_001;
    expect(await service.sweep([{ sid: live.sid }])).toBe(1);
    expect(await store.sessions.find(gone.sid)).toBeUndefined();
    expect((await store.sessions.find(live.sid))?.lastSeenAt).toBe(clock.now);
    clock.now += 10_001;
    expect(await service.sweep([{ sid: live.sid }])).toBe(0);
    const resumed = await service.authorize({ ...authorizeParams({ sid: live.sid }), appkey: OPEN_APP.appkey });
    expect(resumed).toMatchObject({ sid: live.sid, resumed: true, userId: 'alice', userData: { name: 'Alice' } });
  });

  it("IM-24: stores a live session's replay start at each sweep, so that a stopped node still leaves it", async () => {
    const { store, clock, service } = await setup();
    const live = await service.authorize({ ...authorizeParams(), appkey: OPEN_APP.appkey });
    const from = clock.now + 5;
    clock.now += 1_000;
    await service.sweep([{ sid: live.sid, replay: { from, except: ['mine'] } }]);
    expect(await store.sessions.find(live.sid)).toMatchObject({
      lastSeenAt: clock.now,
      replay: { from, except: ['mine'] },
    });
    // The node stops here, its connection's disconnect never handled: the client comes back elsewhere.
    clock.now += 1_000;
    const back = await service.authorize({ ...authorizeParams({ sid: live.sid }), appkey: OPEN_APP.appkey });
    expect(back).toMatchObject({ resumed: true, previousSeenAt: from, replayExcept: ['mine'] });
    // Once everything is acknowledged, the next sweep forgets it.
    await service.sweep([{ sid: live.sid, replay: { from: clock.now, except: [] } }]);
    clock.now += 1_000;
    await service.sweep([{ sid: live.sid }]);
    expect(await store.sessions.find(live.sid)).toMatchObject({ lastSeenAt: clock.now, replay: undefined });
  });

  it('treats a numeric user id as its string and anonymous connections as user null', async () => {
    const { service } = await setup();
    expect(await service.authorize({ appkey: OPEN_APP.appkey, userId: 42 })).toMatchObject({ userId: '42' });
    expect(await service.authorize({ appkey: OPEN_APP.appkey, userId: 'x', a: true })).toMatchObject({ userId: null });
    expect(await service.authorize({ appkey: OPEN_APP.appkey, userId: '' })).toMatchObject({ userId: null });
  });
});
