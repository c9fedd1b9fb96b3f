/**
 * A small pub/sub server for the live pages' component tests, on the in-process fake server of the SDK's tests
 * (`test/support`): the app's real messaging client subscribes, watches presence and asks here-now through it, and a
 * test publishes what the product server would and moves the presence count. It answers `subscribe`, `unsubscribe`,
 * the presence watch and here-now; to extend it, `server.handle` another request, or push another event.
 */
import { FakeServer } from '../../../../test/support/fake-server';
import type { LiveEvent } from './events';

export interface FakeChannels {
  server: FakeServer;
  /** Channels subscribed now, each with the subscribe's parameters. */
  subscribed: Map<string, Record<string, unknown>>;
  /** Presence counts here-now answers, by channel. */
  amounts: Record<string, number>;
  /** Publishes `event` on `channel` to the sockets that subscribed it, as the product server does. */
  publish(channel: string, event: LiveEvent | Record<string, unknown>): void;
  /** A member comes to (`join`) or leaves the channel: its presence count is now `amount`. */
  presence(channel: string, action: 'join' | 'leave', member: string, amount: number): void;
}

/** A fake pub/sub on `server` (a new one unless given). */
export function fakeChannels(server = new FakeServer()): FakeChannels {
  const subscribed = new Map<string, Record<string, unknown>>();
  const amounts: Record<string, number> = {};
  let guid = 0;
  const ok = (content: unknown) => ({ code: 200, resultCode: 200, content });
  server.handle('subscribe', (params) => {
    for (const channel of params['channels'] as string[]) subscribed.set(channel, params);
    return ok(null);
  });
  server.handle('unsubscribe', (params) => {
    subscribed.delete(String(params['channel']));
    return ok(null);
  });
  server.handle('PUBSUB_PRESENCE_HERENOW', (params) =>
    ok({ members: [], amount: amounts[String(params['channel'])] ?? 0 }),
  );
  return {
    server,
    subscribed,
    amounts,
    publish(channel, event) {
      if (!subscribed.has(channel)) return;
      server.push('message', { n: channel, c: JSON.stringify(event), t: Date.now(), i: `m${++guid}` });
    },
    presence(channel, action, member, amount) {
      amounts[channel] = amount;
      server.push('PS_PRESENCE_EVENT', { channel, action, member: { id: member, data: {} }, time: Date.now(), amount });
    },
  };
}
