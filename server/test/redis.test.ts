import { describe, expect, it } from 'vitest';
import { OPEN_APP, authorizeParams, connect, request, startServer } from './helpers.js';
import { redisPrefix, redisUrl } from './redis-support.js';

describe.runIf(Boolean(redisUrl))('scale-out over Redis', () => {
  it('pushes to a user connected to another node', async () => {
    const prefix = redisPrefix();
    const a = await startServer({ redisUrl, redisPrefix: prefix });
    const b = await startServer({ redisUrl, redisPrefix: prefix });
    const onB = await connect(b.url);
    await request(onB, 'authorize', authorizeParams());
    const got = new Promise((resolve) => onB.once('imMessage', resolve));
    a.server.gateway.pushToUser({ appkey: OPEN_APP.appkey, userId: 'alice', event: 'imMessage', payload: { i: 'x' } });
    expect(await got).toEqual({ i: 'x' });
  });
});
