/**
 * Model-based test of IM conversations: three users of the SDK against the real server run generated sequences of
 * sends, read marks, recalls, deletes, tops, removals, restarts, leaving and joining the group and sending to it from
 * outside, across three private chats and one group. After each step
 * every user's `latestConversations()` must match a plain model of the spec (IM-6, IM-7, IM-11..IM-18, IMC-6): which
 * conversations are listed, in which order, their last message, unread counts, top flags and the unread total. At
 * the end every history must match too (which messages each user still has, recalled or not, read by the other side
 * or not), and fresh clients that load everything from the server must see the same lists and histories. It runs
 * on one node on SQLite, on PostgreSQL (`PARLEY_TEST_PG`), and on two nodes sharing PostgreSQL and Redis
 * (`PARLEY_TEST_REDIS` too), where each user's pushes cross from one node to the other.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ConversationList, Message, ParleyClient } from '../../src/index.js';
import { FUZZ_RUNS } from '../../server/test/fuzz-support.js';
import type { ConnectionStatus, Transport } from '../../src/index.js';
import { imUser, modelSetups, switchableTransport } from './support.js';

const USERS = ['ann', 'ben', 'cat'] as const;
type User = (typeof USERS)[number];
/**
 * The clients: one per user, and a second device for ann (IM: both receive, and a read, a delete or a send on one
 * reaches the other). Pins and removals are per device until a reload, so ann's devices do neither.
 */
const DEVICES = [
  ['ann', 'ann'],
  ['ann2', 'ann'],
  ['ben', 'ben'],
  ['cat', 'cat'],
] as const;
type Device = (typeof DEVICES)[number][0];
type Clients = Record<Device, ParleyClient>;
const userOf = (device: Device): User => DEVICES.find(([d]) => d === device)?.[1] as User;
const GROUP = 'grp';
/** A conversation as one user sees it: the other user, or the group. */
type Peer = User | typeof GROUP;

interface ModelMessage {
  id: string;
  sender: User;
  /** The conversation: the group, or the two users sorted. */
  conv: string;
  ts: number;
  recalled: boolean;
  deletedFor: Set<User>;
}

/** The spec's view of everything, independent of the SDK. */
class Model {
  readonly messages: ModelMessage[] = [];
  readonly offsets = new Map<string, number>();
  readonly top = new Map<string, boolean>();
  readonly removed = new Set<string>();
  /** Who is in the group now (IM-20); a group is listed to its members only (IM-9). */
  readonly groupMembers = new Set<User>(USERS);
  /**
   * Who has a row for the group: every member when a message was sent, and who joined once it had messages (IM-6,
   * IM-20). A sender from outside gets none (IM-22).
   */
  readonly groupRows = new Set<User>();

  static conv(user: User, peer: Peer): string {
    return peer === GROUP ? GROUP : [user, peer].sort().join('|');
  }

  private key(user: User, peer: Peer): string {
    return `${user}>${peer}`;
  }

  private members(conv: string): User[] {
    return conv === GROUP ? [...this.groupMembers] : (conv.split('|') as User[]);
  }

  /** The messages of a conversation that `user` still has, oldest first. */
  visible(user: User, peer: Peer): ModelMessage[] {
    const conv = Model.conv(user, peer);
    return this.messages.filter((m) => m.conv === conv && !m.deletedFor.has(user));
  }

  send(sender: User, peer: Peer, id: string, ts: number): void {
    const conv = Model.conv(sender, peer);
    this.messages.push({ id, sender, conv, ts, recalled: false, deletedFor: new Set() });
    // IM-7: sending reads everything before it; IM-6: the conversation comes back for everyone in it.
    this.offsets.set(this.key(sender, peer), ts);
    for (const member of this.members(conv)) {
      this.removed.delete(this.key(member, peerOf(member, conv)));
      if (conv === GROUP) this.groupRows.add(member);
    }
  }

  leave(user: User): void {
    this.groupMembers.delete(user);
  }

  /** IM-20: a group with messages is listed to a new member at once; what came before is not unread to them. */
  join(user: User): void {
    this.groupMembers.add(user);
    const newest = this.messages.filter((m) => m.conv === GROUP).at(-1);
    if (!newest || this.groupRows.has(user)) return;
    this.groupRows.add(user);
    const key = this.key(user, GROUP);
    this.offsets.set(key, Math.max(newest.ts, this.offsets.get(key) ?? 0));
  }

  markRead(user: User, peer: Peer): void {
    const newest = this.visible(user, peer).at(-1);
    if (newest)
      this.offsets.set(this.key(user, peer), Math.max(newest.ts, this.offsets.get(this.key(user, peer)) ?? 0));
  }

  setTop(user: User, peer: Peer, top: boolean): void {
    this.top.set(this.key(user, peer), top);
  }

  remove(user: User, peer: Peer): void {
    // IM-18: hidden until its next message, and unpinned; what was unread stays unread.
    this.removed.add(this.key(user, peer));
    this.top.delete(this.key(user, peer));
  }

  /** What `user`'s conversation list must be: listed, ordered, last message, unread, top. */
  list(user: User): Row[] {
    const peers: Peer[] = [...USERS.filter((u) => u !== user), GROUP];
    const rows = peers.flatMap((peer) => {
      if (peer === GROUP && !(this.groupMembers.has(user) && this.groupRows.has(user))) return [];
      const visible = this.visible(user, peer);
      const last = visible.at(-1);
      if (!last || this.removed.has(this.key(user, peer))) return [];
      const offset = this.offsets.get(this.key(user, peer)) ?? 0;
      const unread = visible.filter((m) => m.sender !== user && !m.recalled && m.ts > offset).length;
      return [{ peer, last: last.id, lastTs: last.ts, unread, top: this.top.get(this.key(user, peer)) ?? false }];
    });
    return inListOrder(rows);
  }
}

/** One row of a conversation list, in the model's terms. */
interface Row {
  peer: Peer;
  last: string;
  lastTs: number;
  unread: number;
  top: boolean;
}

/**
 * Rows in list order: topped first, then the newest last message first (IM-16). Timestamps are strictly increasing
 * per conversation only, so two conversations can tie; ties are put in one order here (by peer), for comparing.
 */
function inListOrder(rows: Row[]): Row[] {
  return [...rows].sort((x, y) => Number(y.top) - Number(x.top) || y.lastTs - x.lastTs || x.peer.localeCompare(y.peer));
}

function peerOf(user: User, conv: string): Peer {
  if (conv === GROUP) return GROUP;
  return conv.split('|').find((u) => u !== user) as User;
}

/** Each round's users and group have ids of their own on the server: the model's names with the round's suffix. */
const naming = { suffix: '' };
const wireId = (peer: Peer) => `${peer}-${naming.suffix}`;
const modelId = (id: string | undefined) => (id ?? '').slice(0, -naming.suffix.length - 1) as Peer;
const target = (peer: Peer) =>
  peer === GROUP ? ({ type: 'group', id: wireId(GROUP) } as const) : ({ type: 'private', id: wireId(peer) } as const);
const conversationOf = (peer: Peer) =>
  peer === GROUP ? { type: 'group', groupId: wireId(GROUP) } : { type: 'private', userId: wireId(peer) };

/** What a client's list says, in the model's terms. */
function seen(list: ConversationList): Row[] {
  return list.conversations.map((c) => ({
    peer: modelId(c.type === 'group' ? c.groupId : c.userId),
    last: c.lastMessage.messageId,
    lastTs: c.lastMessage.timestamp,
    unread: c.unread,
    top: c.top,
  }));
}

/** One device's step; `user` is the device's user. */
type Step = { device: Device; user: User } & (
  | { kind: 'send'; peer: Peer }
  | { kind: 'read'; peer: Peer }
  | { kind: 'recall'; peer: Peer }
  | { kind: 'delete'; peer: Peer }
  | { kind: 'top'; peer: Peer; top: boolean }
  | { kind: 'remove'; peer: Peer }
  /** The device's app starts over: a new client, whose state comes from the server. */
  | { kind: 'restart' }
  /** The user leaves the group, or joins it again (IM-20). */
  | { kind: 'leave' }
  | { kind: 'join' }
  /**
   * The device loses its link for the next `steps` steps (others go on meanwhile; it does nothing), then gets it
   * back and must catch up by itself: IMC-8's re-sync.
   */
  | { kind: 'drop'; steps: number }
);

const stepArbitrary: fc.Arbitrary<Step> = fc.constantFrom(...DEVICES.map(([d]) => d)).chain((device) => {
  const u = userOf(device);
  const on = { device, user: u };
  const peer = fc.constantFrom<Peer>(...USERS.filter((other) => other !== u), GROUP);
  const perDevice = u === 'ann' ? 0 : 1;
  return fc.oneof(
    { weight: 5, arbitrary: peer.map((p): Step => ({ ...on, kind: 'send', peer: p })) },
    { weight: 2, arbitrary: peer.map((p): Step => ({ ...on, kind: 'read', peer: p })) },
    { weight: 1, arbitrary: peer.map((p): Step => ({ ...on, kind: 'recall', peer: p })) },
    { weight: 1, arbitrary: peer.map((p): Step => ({ ...on, kind: 'delete', peer: p })) },
    {
      weight: perDevice,
      arbitrary: fc.tuple(peer, fc.boolean()).map(([p, top]): Step => ({ ...on, kind: 'top', peer: p, top })),
    },
    { weight: perDevice, arbitrary: peer.map((p): Step => ({ ...on, kind: 'remove', peer: p })) },
    { weight: 1, arbitrary: fc.constant<Step>({ ...on, kind: 'restart' }) },
    { weight: perDevice, arbitrary: fc.constantFrom<Step>({ ...on, kind: 'leave' }, { ...on, kind: 'join' }) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 4 }).map((steps): Step => ({ ...on, kind: 'drop', steps })) },
  );
});

/** Each device's link, which a step can cut and give back, and which devices are cut off now. */
class Links {
  readonly #switches = new Map<Device, ReturnType<typeof switchableTransport>>();
  /** Every client of the round, disconnected when it ends. */
  readonly clients: ParleyClient[] = [];
  readonly down = new Set<Device>();
  /** When each cut-off device gets its link back: the number of the step before which it returns. */
  readonly #returns = new Map<Device, number>();

  /** A new link for a device's new client. */
  transport(device: Device): Transport {
    const link = switchableTransport();
    this.#switches.set(device, link);
    this.down.delete(device);
    return link.transport;
  }

  /** Cuts a device off until step `until`. */
  cut(device: Device, until: number): void {
    this.#switches.get(device)?.cut();
    this.down.add(device);
    this.#returns.set(device, until);
  }

  /** Gives back the links due before step `step` (all of them without one). */
  async due(clients: Clients, step = Infinity): Promise<void> {
    for (const [device, until] of [...this.#returns]) {
      if (until > step) continue;
      this.#returns.delete(device);
      await this.restore(device, clients[device]);
    }
  }

  /** Gives the link back and waits until the client is connected again (its re-sync then runs by itself). */
  async restore(device: Device, client: ParleyClient): Promise<void> {
    this.#switches.get(device)?.restore();
    this.down.delete(device);
    const back: ConnectionStatus[] = ['connected', 'reconnected', 'expired_reconnected'];
    await new Promise<void>((resolve) => {
      if (back.includes(client.getConnectionStatus())) return resolve();
      const off = client.on('connectionStatus', ({ status }) => {
        if (!back.includes(status)) return;
        off();
        resolve();
      });
    });
  }
}

/** The server each device connects to. */
type Nodes = (device: Device) => string;

const connect = async (nodes: Nodes, links: Links, device: Device) => {
  const transport = links.transport(device);
  const client = await imUser(nodes(device), wireId(userOf(device)), { name: wireId(userOf(device)) }, transport);
  links.clients.push(client);
  return client;
};

/** The message `client` holds with this id, from its history (the objects recall and delete take). */
async function held(client: ParleyClient, peer: Peer, id: string): Promise<Message | undefined> {
  const page = await client.im.history({ ...target(peer), limit: 30 });
  return page.find((m) => m.messageId === id);
}

/** Runs one step on the clients and the model; steps that do not apply (nothing to recall, no listed conversation) do nothing. */
async function run(
  step: Step,
  index: number,
  clients: Clients,
  model: Model,
  nodes: Nodes,
  links: Links,
): Promise<void> {
  const client = clients[step.device];
  if (step.kind === 'restart') {
    await client.disconnect();
    clients[step.device] = await connect(nodes, links, step.device);
    return;
  }
  if (step.kind === 'drop') {
    if (!links.down.has(step.device)) links.cut(step.device, index + 1 + step.steps);
    return;
  }
  // A device without its link does nothing until it is back.
  if (links.down.has(step.device)) return;
  if (step.kind === 'leave' || step.kind === 'join') {
    const member = model.groupMembers.has(step.user);
    if (step.kind === 'leave' && member) {
      await client.im.unsubscribeGroup({ groupId: wireId(GROUP) });
      model.leave(step.user);
    } else if (step.kind === 'join' && !member) {
      await client.im.subscribeGroup({ groupIds: [wireId(GROUP)] });
      model.join(step.user);
    }
    return;
  }
  // Anyone may send to a group (IM-22); the rest needs membership (a non-member cannot read the group: IM-9).
  if (step.peer === GROUP && !model.groupMembers.has(step.user) && step.kind !== 'send') return;
  const listed = model.list(step.user).some((row) => row.peer === step.peer);
  switch (step.kind) {
    case 'send': {
      const message = client.im.createTextMessage({ text: `${step.user} to ${step.peer}`, to: target(step.peer) });
      const sent = await client.im.sendMessage({ message });
      model.send(step.user, step.peer, sent.messageId, sent.timestamp);
      return;
    }
    case 'read':
      if (!listed) return;
      await client.im.markMessageAsRead(target(step.peer));
      model.markRead(step.user, step.peer);
      return;
    case 'recall': {
      const own = model
        .visible(step.user, step.peer)
        .filter((m) => m.sender === step.user && !m.recalled)
        .at(-1);
      const message = own && (await held(client, step.peer, own.id));
      if (!own || !message) return;
      await client.im.recallMessage({ messages: [message] });
      own.recalled = true;
      return;
    }
    case 'delete': {
      const newest = model.visible(step.user, step.peer).at(-1);
      const message = newest && (await held(client, step.peer, newest.id));
      if (!newest || !message) return;
      await client.im.deleteMessage({ messages: [message] });
      newest.deletedFor.add(step.user);
      return;
    }
    case 'top':
      if (!listed) return;
      await client.im.topConversation({ conversation: conversationOf(step.peer), top: step.top });
      model.setTop(step.user, step.peer, step.top);
      return;
    case 'remove':
      if (!listed) return;
      await client.im.removeConversation({ conversation: conversationOf(step.peer) });
      model.remove(step.user, step.peer);
      return;
  }
}

/**
 * Every push a step caused has reached every connected client: a round trip each, after which the server has written
 * them.
 */
async function settle(clients: Clients, down: ReadonlySet<Device>): Promise<void> {
  await Promise.all(DEVICES.filter(([d]) => !down.has(d)).map(([d]) => clients[d].ping()));
}

/** How long a list may take to settle: a conversation that comes back may ask the server for its unread count. */
const SETTLE_MS = 2000;

async function expectLists(
  clients: Clients,
  model: Model,
  where: string,
  down: ReadonlySet<Device> = new Set(),
): Promise<void> {
  for (const [d, u] of DEVICES) {
    // A device without its link shows what it had; it must catch up once it is back (IMC-8).
    if (down.has(d)) continue;
    const expected = model.list(u);
    const matches = (l: ConversationList) => JSON.stringify(inListOrder(seen(l))) === JSON.stringify(expected);
    let list = await clients[d].im.latestConversations();
    for (const deadline = Date.now() + SETTLE_MS; !matches(list) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      list = await clients[d].im.latestConversations();
    }
    const rows = seen(list);
    // The list's own order, ties aside, is the rule's; then the rows, ties put in one order, are the model's.
    expect(
      rows.map((r) => [r.top, r.lastTs]),
      `${where}: ${d}'s order`,
    ).toEqual(inListOrder(rows).map((r) => [r.top, r.lastTs]));
    expect(inListOrder(rows), `${where}: ${d}'s conversations`).toEqual(expected);
    expect(list.unreadTotal, `${where}: ${d}'s unread total`).toBe(expected.reduce((n, row) => n + row.unread, 0));
  }
}

/**
 * Every user's history of every conversation: the messages the model says they still have (ids in order), which of
 * them are recalled, and for private messages they sent, whether the other side has read them (IM-8, IM-11..IM-13).
 */
async function expectHistories(clients: Clients, model: Model, where: string): Promise<void> {
  for (const [d, u] of DEVICES) {
    for (const peer of [...USERS.filter((other) => other !== u), GROUP] as Peer[]) {
      // Group history is for members (IM-9).
      if (peer === GROUP && !model.groupMembers.has(u)) continue;
      const otherOffset = peer === GROUP ? 0 : (model.offsets.get(`${peer}>${u}`) ?? 0);
      const expected = model
        .visible(u, peer)
        .slice(-30)
        .map((m) => [m.id, m.recalled, peer !== GROUP && m.sender === u ? m.ts <= otherOffset : null]);
      const read = async () =>
        (await clients[d].im.history({ ...target(peer), limit: 30 })).map((m) => [
          m.messageId,
          m.recalled,
          m.scene === 'private' && m.senderId === wireId(u) ? m.read : null,
        ]);
      // A device whose link just came back may still be catching up (IMC-8).
      let page = await read();
      for (const deadline = Date.now() + SETTLE_MS; !isDeepStrictEqual(page, expected) && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        page = await read();
      }
      expect(page, `${where}: ${d}'s history with ${peer}`).toEqual(expected);
    }
  }
}

describe.each(modelSetups())('IM conversations against a model of the spec, on %s', (_name, start) => {
  it('every user’s list matches the model after each step, live and loaded afresh from the server', async () => {
    // On two nodes, ann and ben on one, ann2 and cat on the other.
    const [a, b] = await start();
    const nodes: Nodes = (device) => (device === 'ann' || device === 'ben' ? a : b);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 25 }), async (steps) => {
        // Users and a group of their own each round, so that rounds do not share conversations.
        round += 1;
        naming.suffix = String(round);
        const links = new Links();
        const connectAll = async () =>
          Object.fromEntries(
            await Promise.all(DEVICES.map(async ([d]) => [d, await connect(nodes, links, d)] as const)),
          ) as Clients;
        try {
          const clients = await connectAll();
          await Promise.all(USERS.map((u) => clients[u].im.subscribeGroup({ groupIds: [wireId(GROUP)] })));
          const model = new Model();
          for (const [i, step] of steps.entries()) {
            await links.due(clients, i);
            await run(step, i, clients, model, nodes, links);
            await settle(clients, links.down);
            await expectLists(clients, model, `step ${i} ${JSON.stringify(step)}`, links.down);
          }
          await links.due(clients);
          await expectLists(clients, model, 'all back');
          await expectHistories(clients, model, 'live');
          const fresh = await connectAll();
          await expectLists(fresh, model, 'loaded afresh');
          await expectHistories(fresh, model, 'loaded afresh');
        } finally {
          // Each round's clients leave with it, so that a long hunt does not run out of sockets (the test's own
          // cleanup disconnects them again, which does nothing).
          await Promise.all(links.clients.map((c) => c.disconnect()));
        }
      }),
      { numRuns: Math.max(5, Math.ceil(FUZZ_RUNS / 20)) },
    );
  }, 300_000);
});
