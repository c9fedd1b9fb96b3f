import * as z from 'zod/mini';
import type { CsServices } from '../cs/index.js';
import {
  CLIENT_EVENTS,
  csAcceptSchema,
  csCustomerRefSchema,
  csOnlineSchema,
  csTeamRefSchema,
  csTransferSchema,
  type WireCsEventAck,
} from '../protocol.js';
import { actorOf } from './actor.js';
import type { Gateway } from './index.js';
import type { RequestContext } from './registry.js';

/**
 * The message an accept, an end or a transfer makes reaches the acting connection in the ack, never by push, so it
 * is never acknowledged there: a replay must not bring it back (IM-24).
 */
async function sentHere(ctx: RequestContext, reply: Promise<WireCsEventAck>): Promise<WireCsEventAck> {
  const ack = await reply;
  ctx.deliveries?.sent(ack.message.i, ack.message.ts);
  return ack;
}

/**
 * Registers the customer-service requests (CS-1..CS-12). Permissions follow the reference client's table (wire
 * notes §0.3): write to act (online, offline, accept, end, transfer, live sessions), read to look.
 */
export function registerCsHandlers(gateway: Gateway, cs: CsServices): void {
  gateway.onConnection({
    authorized: () => Promise.resolve(),
    // A live session belongs to its connection, like the socket it is pushed on.
    closed(ctx) {
      cs.live.closed(ctx.socketId);
      return Promise.resolve();
    },
  });

  gateway.handle(CLIENT_EVENTS.csOnline, {
    schema: csOnlineSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await cs.teams.online(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.csOffline, {
    schema: csTeamRefSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await cs.teams.offline(actorOf(ctx), params.teamId);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.csMyTeams, {
    schema: z.optional(z.nullable(z.looseObject({}))),
    permission: 'read',
    handler: (ctx) => cs.teams.myTeams(actorOf(ctx)),
  });
  gateway.handle(CLIENT_EVENTS.csAgents, {
    schema: csTeamRefSchema,
    permission: 'read',
    handler: (ctx, params) => cs.teams.agents(actorOf(ctx), params.teamId),
  });
  gateway.handle(CLIENT_EVENTS.csAccept, {
    schema: csAcceptSchema,
    permission: 'write',
    handler: (ctx, params) => sentHere(ctx, cs.sessions.accept(actorOf(ctx), params)),
  });
  gateway.handle(CLIENT_EVENTS.csEnd, {
    schema: csCustomerRefSchema,
    permission: 'write',
    handler: (ctx, params) => sentHere(ctx, cs.sessions.end(actorOf(ctx), params)),
  });
  gateway.handle(CLIENT_EVENTS.csTransfer, {
    schema: csTransferSchema,
    permission: 'write',
    handler: (ctx, params) => sentHere(ctx, cs.sessions.transfer(actorOf(ctx), params)),
  });
  gateway.handle(CLIENT_EVENTS.csCustomerStatus, {
    schema: csCustomerRefSchema,
    permission: 'read',
    handler: (ctx, params) => cs.sessions.customerStatus(actorOf(ctx), params),
  });
  gateway.handle(CLIENT_EVENTS.csLiveSession, {
    schema: csCustomerRefSchema,
    permission: 'write',
    handler: (ctx, params) => cs.sessions.liveSession(actorOf(ctx), params),
  });
  gateway.handle(CLIENT_EVENTS.csQuitLive, {
    schema: csCustomerRefSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await cs.sessions.quitLive(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.csPendingConversation, {
    schema: z.optional(z.nullable(z.looseObject({}))),
    permission: 'read',
    handler: (ctx) => cs.conversations.pending(actorOf(ctx)),
  });
}
