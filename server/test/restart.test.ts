import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authorizeParams, connect, freshPgSchema, request, startServer, tempDir } from './helpers.js';

const pgUrl = process.env['PARLEY_TEST_PG'];

describe('server restart', () => {
  it('closes client transports, frees the port, and keeps sessions in a file store', async () => {
    const sqlite = join(tempDir(), 'parley.db');
    const first = await startServer({ sqlite });
    const socket = await connect(first.url);
    const sid = (await request(socket, 'authorize', authorizeParams()))['sid'];
    const reason = new Promise((resolve) => socket.once('disconnect', resolve));

    await first.server.close();
    // A transport close, unlike a server disconnect, makes clients reconnect by themselves.
    expect(await reason).toBe('transport close');

    const second = await startServer({ sqlite, port: first.port });
    expect(second.port).toBe(first.port);
    const again = await request(await connect(second.url), 'authorize', authorizeParams({ sid }));
    expect(again['sid']).toBe(sid);
  });
});

describe.runIf(Boolean(pgUrl))('server restart on PostgreSQL', () => {
  it('keeps sessions across a restart', async () => {
    const databaseSchema = freshPgSchema(pgUrl as string);
    const first = await startServer({ databaseUrl: pgUrl, databaseSchema });
    const sid = (await request(await connect(first.url), 'authorize', authorizeParams()))['sid'];
    await first.server.close();
    const second = await startServer({ databaseUrl: pgUrl, databaseSchema, port: first.port });
    const again = await request(await connect(second.url), 'authorize', authorizeParams({ sid }));
    expect(again['sid']).toBe(sid);
  });
});
