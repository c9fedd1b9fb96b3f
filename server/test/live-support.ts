/** Helpers of the live streaming tests: members, anchors, rooms, the room's channel and the media server's hooks. */
import type { Socket as ClientSocket } from 'socket.io-client';
import { SECURE_APP, request } from './helpers.js';
import { login } from './im-support.js';
import { type ProductServer, operator, signIn, uploadImage } from './product-support.js';

/** The media server's URL templates. */
export const LIVE = {
  pushUrl: 'rtmp://media.test/live/{stream}?key={key}',
  playUrl: 'https://media.test/live/{stream}.m3u8',
};

export type Member = { token: string; id: string };
// Answers are loosely typed on purpose: each test checks the fields it cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Room = Record<string, any> & { id: string; stream: string; push_key: string; channel: string };

/** Signs a phone in, after enough time that the limits per address (MEM-3) never refuse a test's many sign-ins. */
export async function member(p: ProductServer, phone: string): Promise<Member> {
  p.advance(12_000);
  return signIn(p, phone);
}

/** Passes the member's real-name certification, which makes them an anchor. */
export async function certify(p: ProductServer, who: Member): Promise<void> {
  const imgs = [await uploadImage(p, who.token), await uploadImage(p, who.token)];
  const cert = await p.call('member/renzheng_add', {
    token: who.token,
    type: 'personal',
    name: '王小明',
    number: '11010519491231002X',
    imgs,
  });
  await operator(p, 'certifications', 'POST', `/${who.id}/review`, { pass: true, submittedAt: cert.ret.submitted_at });
}

/** A signed-in member whose certification passed. */
export async function anchor(p: ProductServer, phone: string): Promise<Member> {
  const who = await member(p, phone);
  await certify(p, who);
  return who;
}

/** The anchor's new room, with a cover they uploaded. */
export async function openRoom(p: ProductServer, who: Member, title = 'Tea tasting'): Promise<Room> {
  const cover = await uploadImage(p, who.token);
  const added = await p.call('live/add', { token: who.token, title, cover });
  if (!added.ret) throw new Error(`live/add refused: ${JSON.stringify(added)}`);
  return added.ret as Room;
}

/** Calls `path` about `room` as `who`. */
export const act = (
  p: ProductServer,
  who: Member,
  path: string,
  room: { id: unknown },
  fields: Record<string, unknown> = {},
) => p.call(`live/${path}`, { token: who.token, id: room.id, ...fields });

/** A messaging connection of `who` on the product app, subscribed to `channel` with presence; the events it hears. */
export async function watch(p: ProductServer, who: Member, channel: string, accessToken?: string) {
  const info = await p.call('member/info', { token: who.token });
  const socket: ClientSocket = await login(p.url, who.id, { appkey: SECURE_APP.appkey, otp: info.otp });
  const events: Array<Record<string, unknown>> = [];
  socket.on('message', (message: { n: string; c: string }) => {
    if (message.n === channel) events.push(JSON.parse(message.c) as Record<string, unknown>);
  });
  const subscribed = await request(socket, 'subscribe', {
    channels: [channel],
    presence: { enable: true },
    accessToken,
  });
  return { socket, events, subscribed };
}

/** Posts a media server's hook: a form (nginx-rtmp) or JSON (SRS). */
export async function hook(
  p: ProductServer,
  name: 'publish' | 'unpublish',
  body: Record<string, string>,
  form: boolean,
) {
  const res = await fetch(`${p.url}/index.php/api/live/hook/${name}`, {
    method: 'POST',
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** nginx-rtmp's `on_publish` form for a room: its fields and the push URL's query arguments. */
export const nginxPublish = (room: Room, key = room.push_key) => ({
  call: 'publish',
  app: 'live',
  name: room.stream,
  addr: '203.0.113.7',
  key,
});

/** SRS's `on_publish` JSON for a room. */
export const srsPublish = (room: Room, key = room.push_key) => ({
  action: 'on_publish',
  app: 'live',
  stream: room.stream,
  param: `?key=${key}`,
});
