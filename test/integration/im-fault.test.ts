/**
 * The delivery promise under faults: 2 000 messages between two users while the server is killed and restarted
 * twice and one user's link is cut for a while. Every message must reach the other side exactly once, in order.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message, ParleyClient } from '../../src/index.js';
import { OPEN_APP, startServer, tempDir } from '../../server/test/helpers.js';
import { collectIm, eventually, imUser, switchableTransport } from './support.js';

const TOTAL = 2000;
// The test is about delivery, not the per-connection rate limit.
const UNLIMITED = { perSecond: 1_000_000, burst: 1_000_000 };

async function sendAll(
  from: ParleyClient,
  to: string,
  count: number,
  onSent: (n: number) => Promise<void>,
): Promise<Message[]> {
  const sent: Message[] = [];
  for (let i = 1; i <= count; i++) {
    const message = from.im.createTextMessage({ text: `${from.user?.id} ${i}`, to: { type: 'private', id: to } });
    sent.push(await from.im.sendMessage({ message }));
    await onSent(i);
  }
  return sent;
}

describe('IM fault tolerance', () => {
  it(
    'IMC-13: 2 000 messages survive two server restarts and a cut link, each delivered once, in order',
    { timeout: 120_000 },
    async () => {
      const sqlite = join(tempDir(), 'parley.db');
      let current = await startServer({ apps: [OPEN_APP], sqlite, rateLimit: UNLIMITED });
      const port = current.port;
      const restart = async () => {
        await current.server.close();
        await new Promise((resolve) => setTimeout(resolve, 150));
        current = await startServer({ apps: [OPEN_APP], sqlite, port, rateLimit: UNLIMITED });
      };
      const alice = await imUser(current.url, 'alice');
      const link = switchableTransport();
      const bob = await imUser(current.url, 'bob', { name: 'bob' }, link.transport);
      await alice.im.history({ type: 'private', id: 'bob' });
      await bob.im.history({ type: 'private', id: 'alice' });
      const bobGot = collectIm(bob, 'PRIVATE_MESSAGE_RECEIVED');
      const aliceGot = collectIm(alice, 'PRIVATE_MESSAGE_RECEIVED');

      const half = TOTAL / 2;
      const [fromAlice, fromBob] = await Promise.all([
        sendAll(alice, 'bob', half, async (n) => {
          if (n === 250 || n === 750) await restart();
        }),
        sendAll(bob, 'alice', half, (n) => {
          if (n === 500) {
            link.cut();
            setTimeout(() => link.restore(), 300);
          }
          return Promise.resolve();
        }),
      ]);

      expect(fromAlice.every((m) => m.status === 'success')).toBe(true);
      expect(fromBob.every((m) => m.status === 'success')).toBe(true);
      await eventually(() => bobGot.length >= half && aliceGot.length >= half, 'all deliveries');
      await alice.ping();
      await bob.ping();
      expect(bobGot.map((m) => m.messageId)).toEqual(fromAlice.map((m) => m.messageId));
      expect(aliceGot.map((m) => m.messageId)).toEqual(fromBob.map((m) => m.messageId));
      const times = fromAlice.map((m) => m.timestamp);
      expect(new Set(times).size).toBe(half);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    },
  );
});
