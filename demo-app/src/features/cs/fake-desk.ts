/**
 * An in-memory customer-service team for the console's tests: customers write, other agents act, and the desk
 * moves sessions the way the server does (CS-2, CS-4..CS-7), without a server. Extend it with a method per thing
 * a test needs to happen from outside the console, like {@link FakeDesk.customerWrites}.
 */
import { CS_MESSAGE_TYPES, LiveSource, ParleyError, type CsMessage, type CsUser, type CustomerStatus } from 'parley-im';
import { LiveCsChat, type CsChannel, type CsChatListener } from './chat';
import type { CsDesk, DeskCustomer, DeskState } from './desk';
import type { ChatLink } from './live';

class FakeDeskState extends LiveSource<DeskState> {
  constructor() {
    super({ online: false, pending: [], mine: [], error: undefined });
  }
  update(changes: Partial<DeskState>): void {
    this.set({ ...this.getSnapshot(), ...changes });
  }
  protected start(): void {}
  protected stop(): void {}
}

const ALWAYS_ONLINE: ChatLink = { isOnline: () => true, onOnline: () => () => undefined };

/** One customer's conversation with the team, as the server would keep it. */
interface Session {
  customer: CsUser;
  messages: CsMessage[];
  status: CustomerStatus;
  watchers: Set<CsChatListener>;
  /** Who hears whether the customer types; and what I told them of my typing, in order. */
  typingWatchers: Set<(typing: boolean) => void>;
  told: boolean[];
}

/** A team with me (`me`) and `others`, the other online agents; I start offline. */
export class FakeDesk implements CsDesk {
  readonly teamId = 'service';
  readonly me: string;
  readonly state = new FakeDeskState();
  /** The other online agents. */
  others: CsUser[];
  readonly #meData: Record<string, unknown>;
  readonly #sessions = new Map<string, Session>();
  #clock = 1_000;
  #ids = 0;

  constructor(me: CsUser, others: CsUser[] = []) {
    this.me = me.id;
    this.#meData = me.data;
    this.others = others;
  }

  /** A customer writes to the team: a new session waits for an agent, an accepted one goes to its agent. */
  customerWrites(customer: CsUser, text: string): void {
    const session = this.#session(customer);
    const accepted = session.status.status === 'ACCEPTED';
    this.#add(session, { type: 'text', senderId: customer.id, senderData: customer.data, payload: { text }, accepted });
  }

  /** A customer starts or stops typing. */
  customerTypes(customerId: string, typing: boolean): void {
    for (const listener of this.#sessions.get(customerId)?.typingWatchers ?? []) listener(typing);
  }

  /** What I told a customer of my typing, in order. */
  toldTyping(customerId: string): readonly boolean[] {
    return this.#sessions.get(customerId)?.told ?? [];
  }

  /** Another agent accepts a customer: they leave my pending list. */
  otherAgentAccepts(customerId: string, agent: CsUser): void {
    const session = this.#sessions.get(customerId);
    if (!session) throw new Error(`no customer ${customerId}`);
    this.#add(session, { type: CS_MESSAGE_TYPES.accept, senderId: agent.id, senderData: agent.data, payload: {} });
  }

  async setOnline(online: boolean): Promise<void> {
    await Promise.resolve();
    if (!online && this.#serving().length > 0) {
      throw new ParleyError(
        400,
        'Cannot go offline while you still have accepted customers: end or transfer them first.',
      );
    }
    this.state.update({ online });
    this.#refreshLists();
  }

  async accept(customer: CsUser): Promise<void> {
    await Promise.resolve();
    const session = this.#session(customer);
    if (session.status.status === 'ACCEPTED') {
      throw new ParleyError(400, 'The customer has been accepted by another agent.');
    }
    this.#add(session, { type: CS_MESSAGE_TYPES.accept, senderId: this.me, senderData: this.#meData, payload: {} });
  }

  async end(customerId: string): Promise<void> {
    await Promise.resolve();
    const session = this.#mine(customerId);
    this.#add(session, { type: CS_MESSAGE_TYPES.end, senderId: this.me, senderData: this.#meData, payload: {} });
  }

  async transfer(customerId: string, agentId: string): Promise<void> {
    await Promise.resolve();
    const session = this.#mine(customerId);
    const to = this.others.find((a) => a.id === agentId);
    if (!to) throw new ParleyError(400, 'The target agent must be another online agent of the team.');
    const payload = { transferTo: to };
    this.#add(session, { type: CS_MESSAGE_TYPES.transfer, senderId: this.me, senderData: this.#meData, payload });
  }

  otherAgents(): Promise<CsUser[]> {
    return Promise.resolve([...this.others]);
  }

  chat(customer: CsUser): LiveCsChat {
    const session = this.#session(customer);
    const channel: CsChannel = {
      history: ({ lastTimestamp, limit }) =>
        Promise.resolve(
          session.messages.filter((m) => lastTimestamp === undefined || m.timestamp < lastTimestamp).slice(-limit),
        ),
      watch: (listener) => {
        session.watchers.add(listener);
        listener.onStatus(session.status);
        return Promise.resolve(() => session.watchers.delete(listener));
      },
      createText: (text) =>
        this.#message({
          type: 'text',
          senderId: this.me,
          senderData: this.#meData,
          payload: { text },
          to: customer.id,
          accepted: true,
        }),
      send: async (message) => {
        await Promise.resolve();
        if (!this.#serving().includes(session)) throw new ParleyError(400, 'The customer is not accepted by you.');
        // As the SDK does: the sent message takes the server's time.
        message.timestamp = this.#add(session, message).timestamp;
      },
      markRead: () => Promise.resolve(),
      typing: (on) => void session.told.push(on),
      watchTyping: (listener) => {
        session.typingWatchers.add(listener);
        return () => session.typingWatchers.delete(listener);
      },
    };
    return new LiveCsChat(channel, ALWAYS_ONLINE);
  }

  #session(customer: CsUser): Session {
    let session = this.#sessions.get(customer.id);
    if (!session) {
      session = {
        customer,
        messages: [],
        status: { status: 'FREE' },
        watchers: new Set(),
        typingWatchers: new Set(),
        told: [],
      };
      this.#sessions.set(customer.id, session);
    }
    return session;
  }

  #mine(customerId: string): Session {
    const session = this.#serving().find((s) => s.customer.id === customerId);
    if (!session) throw new ParleyError(400, 'The customer is not accepted by you.');
    return session;
  }

  #serving(): Session[] {
    return [...this.#sessions.values()].filter((s) => s.status.status === 'ACCEPTED' && s.status.agent.id === this.me);
  }

  #message(fields: Partial<CsMessage> & Pick<CsMessage, 'type' | 'senderId' | 'senderData' | 'payload'>): CsMessage {
    return {
      messageId: `m${++this.#ids}`,
      timestamp: ++this.#clock,
      status: 'success',
      recalled: false,
      scene: 'cs',
      to: this.teamId,
      teamId: this.teamId,
      accepted: false,
      ...fields,
    };
  }

  /** Stores a message, moves the session by it (CS-4) and tells whoever watches. */
  #add(
    session: Session,
    fields: Partial<CsMessage> & Pick<CsMessage, 'type' | 'senderId' | 'senderData' | 'payload'>,
  ): CsMessage {
    const message = this.#message({ ...fields, timestamp: ++this.#clock, status: 'success' });
    session.messages.push(message);
    const status = session.status;
    const start = status.status === 'FREE' ? message.timestamp : status.start;
    const sessionId = start;
    if (message.type === CS_MESSAGE_TYPES.accept) {
      session.status = {
        status: 'ACCEPTED',
        start,
        sessionId,
        agent: { id: message.senderId, data: message.senderData },
      };
    } else if (message.type === CS_MESSAGE_TYPES.transfer) {
      session.status = {
        status: 'ACCEPTED',
        start,
        sessionId,
        agent: (message.payload as { transferTo: CsUser }).transferTo,
      };
    } else if (message.type === CS_MESSAGE_TYPES.end) {
      session.status = { status: 'FREE', sessionId };
    } else if (status.status === 'FREE') {
      session.status = { status: 'PENDING', start, sessionId };
    }
    for (const w of session.watchers) {
      w.onMessage(message);
      if (session.status !== status) w.onStatus(session.status);
    }
    this.#refreshLists();
    return message;
  }

  #refreshLists(): void {
    const row = (s: Session, ended: boolean): DeskCustomer => ({
      id: s.customer.id,
      data: s.customer.data,
      lastMessage: s.messages.at(-1),
      unread: 0,
      ended,
    });
    const sessions = [...this.#sessions.values()].reverse();
    const online = this.state.getSnapshot().online === true;
    const tookPart = (s: Session) => s.messages.some((m) => m.senderId === this.me);
    this.state.update({
      pending: online ? sessions.filter((s) => s.status.status === 'PENDING').map((s) => row(s, false)) : [],
      mine: sessions
        .filter((s) => tookPart(s) || (s.status.status === 'ACCEPTED' && s.status.agent.id === this.me))
        .map((s) => row(s, !(s.status.status === 'ACCEPTED' && s.status.agent.id === this.me))),
    });
  }
}
