import type { ConnectionStatus, ParleyClient } from 'parley-im';
import { parseLiveEvent, type LiveEvent } from './events';

/** What joining a room's channel needs of the messaging client. */
export type ChannelClient = Pick<ParleyClient, 'pubsub' | 'getConnectionStatus' | 'on'>;

/** Options of {@link joinLiveChannel}. */
export interface JoinLiveChannelOptions {
  client: ChannelClient;
  /** The room's channel, `$live.<id>`. */
  channel: string;
  /** Read access to the channel from `live/view`, when the messaging app requires tokens. */
  accessToken: string | null;
  /** Called with each event of the room the server publishes. */
  onEvent: (event: LiveEvent) => void;
  /** Called with the channel's presence count: once joined, then at each join or leave. */
  onViewers: (count: number) => void;
}

const ONLINE: ReadonlySet<ConnectionStatus> = new Set(['connected', 'reconnected', 'expired_reconnected']);

/**
 * Work on one channel of one client, one piece after another: a leave and the join after it (React's development
 * remount, or leaving a room and coming straight back) reach the server in that order, so the join stands.
 */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

function inTurn(owner: object, channel: string, work: () => Promise<void>): void {
  const byChannel = queues.get(owner) ?? new Map<string, Promise<void>>();
  queues.set(owner, byChannel);
  const next = (byChannel.get(channel) ?? Promise.resolve()).then(work).catch(() => undefined);
  byChannel.set(channel, next);
  void next.then(() => {
    if (byChannel.get(channel) === next) byChannel.delete(channel);
  });
}

/**
 * Watches a live room through its channel: subscribes with presence (the member counts as a viewer), watches the
 * presence for the count, and hands over each event. Joins once the client is connected, and again after a new
 * connection (the SDK forgets subscriptions when it disconnects, e.g. while the page is hidden); a failed join leaves
 * the room to `live/view` alone until the next connection. Returns the leave, which unsubscribes.
 */
export function joinLiveChannel({ client, channel, accessToken, onEvent, onViewers }: JoinLiveChannelOptions) {
  const token = accessToken ?? undefined;
  let joined = false;
  let joining = false;
  let left = false;

  const join = () => {
    if (joined || joining || left) return;
    joining = true;
    inTurn(client.pubsub, channel, async () => {
      try {
        if (left || !ONLINE.has(client.getConnectionStatus())) return;
        await client.pubsub.subscribe({
          channel,
          presence: { enable: true },
          ...(token && { accessToken: token }),
          onMessage: (message) => {
            const event = parseLiveEvent(message.content);
            if (event && !left) onEvent(event);
          },
        });
        joined = true;
        await watchPresence();
      } finally {
        joining = false;
      }
    });
  };

  const watchPresence = async () => {
    let heard = false;
    try {
      await client.pubsub.subscribePresence({
        channel,
        ...(token && { accessToken: token }),
        onPresence: (event) => {
          heard = true;
          if (!left) onViewers(event.amount);
        },
      });
      const now = await client.pubsub.hereNow({ channel, ...(token && { accessToken: token }) });
      // An event heard meanwhile is newer than the count asked for before it.
      if (!heard && !left) onViewers(now.amount);
    } catch {
      // No count from presence: the room's own count stands.
    }
  };

  const stop = client.on('connectionStatus', ({ status }) => {
    // Disconnected, the SDK has dropped the subscription: the next connection joins again.
    if (status === 'disconnected') joined = false;
    if (ONLINE.has(status)) join();
  });
  join();

  return () => {
    left = true;
    stop();
    inTurn(client.pubsub, channel, async () => {
      if (!joined) return;
      joined = false;
      await Promise.allSettled([
        client.pubsub.unsubscribe({ channel }),
        client.pubsub.unsubscribePresence({ channel }),
      ]);
    });
  };
}
