import { describe, expect, it } from 'vitest';
import { LIVE_LINK_LIMITS } from '../src/live/links.js';
import { LIVE_LIMITS } from '../src/live/model.js';
import { storesUnderTest } from './helpers.js';
import { LIVE, type Member, act, anchor, hook, member, openRoom, watch } from './live-support.js';
import { eventually } from './pubsub-support.js';
import { type ProductServer, productServer } from './product-support.js';

/** A live room of a new anchor, and the events its channel carries as a third member hears them. */
async function liveRoom(p: ProductServer, phone: string) {
  const a = await anchor(p, phone);
  const room = await openRoom(p, a);
  await act(p, a, 'start', room);
  const listener = await member(p, `${phone.slice(0, -2)}99`);
  const { events } = await watch(p, listener, room.channel);
  const links = () => events.filter((e) => e['type'] === 'link');
  return { a, room, events, links };
}

/** Asks to join the stage, after enough time that the limit per member never refuses. */
const ask = (p: ProductServer, who: Member, room: { id: unknown }) => {
  p.advance(6_000);
  return act(p, who, 'link_request', room);
};

/** The guest's stream and key, from their push URL. */
function pushOf(pushUrl: string) {
  const match = /^rtmp:\/\/media\.test\/live\/([a-z0-9]{16})\?key=([a-z0-9]{32})$/.exec(pushUrl);
  if (!match) throw new Error(`not a push URL: ${pushUrl}`);
  return { stream: match[1] as string, key: match[2] as string };
}

const refused = { status: 403, body: { code: 403 } };
const allowed = { status: 200, body: { code: 0 } };

describe.each(storesUnderTest())(
  'live co-broadcast (spec §1 audience co-broadcast, §4 co-broadcast states, §6), on %s',
  (_name, store) => {
    const liveServer = () => productServer({ ...store(), live: LIVE });

    it('LIVE-12: a viewer of a live room asks to join the stage; the anchor’s page hears it', async () => {
      const p = await liveServer();
      const { a, room, links } = await liveRoom(p, '13800002101');
      const v = await member(p, '13800002102');
      for (const path of ['link_request', 'link_cancel', 'links', 'link_accept', 'link_reject', 'link_end']) {
        expect(await p.call(`live/${path}`, { id: room.id, uid: v.id }), path).toMatchObject({ code: 'token_invalid' });
      }
      expect(await ask(p, v, { id: 'nope' })).toMatchObject({ code: 'live_missing' });
      expect(await ask(p, a, room)).toMatchObject({ code: 'live_link_self', err: 'the anchor is already on stage' });

      const asked = await ask(p, v, room);
      expect(asked).toEqual({
        status: 200,
        ret: {
          uid: v.id,
          username: 'user2102',
          img: '',
          status: 'waiting',
          time: p.now(),
          play_url: null,
          push_url: null,
        },
      });
      expect(await ask(p, v, room)).toMatchObject({ code: 'live_link_open', err: 'you have already asked to join' });
      expect((await act(p, v, 'view', room)).ret).toMatchObject({
        guests: [],
        me: { anchor: false, muted: false, link: asked.ret },
      });
      // Only the anchor lists the requests.
      expect(await act(p, v, 'links', room)).toMatchObject({ code: 'live_missing' });
      const { push_url: _none, ...link } = asked.ret as Record<string, unknown>;
      expect((await act(p, a, 'links', room)).ret).toEqual([link]);
      expect((await act(p, a, 'view', room)).ret.me).toEqual({ anchor: true, muted: false, link: null });
      await eventually(() => links().length === 1, 'link event');
      expect(links()).toEqual([{ type: 'link', uid: v.id, status: 'waiting', play_url: null }]);

      // Not live yet, or ended: live_state.
      const b = await anchor(p, '13800002103');
      const quiet = await openRoom(p, b);
      expect(await ask(p, v, quiet)).toMatchObject({ code: 'live_state', err: 'the live has ended' });

      // Muted or kicked: live_removed; across a block: live_missing.
      const [m, k, blocked] = [
        await member(p, '13800002104'),
        await member(p, '13800002105'),
        await member(p, '13800002106'),
      ];
      await act(p, a, 'ban', room, { uid: m.id, kind: 'mute' });
      await act(p, a, 'ban', room, { uid: k.id, kind: 'kick' });
      await p.call(`member/lahei/uid_s/${a.id}`, { token: blocked.token, block: true });
      expect(await ask(p, m, room)).toMatchObject({
        code: 'live_removed',
        err: 'you were removed from or muted in the live room',
      });
      expect(await ask(p, k, room)).toMatchObject({ code: 'live_removed' });
      expect(await ask(p, blocked, room)).toMatchObject({ code: 'live_missing' });
    });

    it('LIVE-12: at most 50 requests wait in a room; 5 at once, then 10 a minute per member', async () => {
      const p = await liveServer();
      const { a, room } = await liveRoom(p, '13800002201');
      const viewers: Member[] = [];
      for (let i = 0; i <= LIVE_LINK_LIMITS.waitingMax; i++)
        viewers.push(await member(p, `138000023${String(i).padStart(2, '0')}`));
      const asked = await Promise.all(viewers.map((v) => act(p, v, 'link_request', room)));
      expect(asked.filter((x) => x.ret)).toHaveLength(LIVE_LINK_LIMITS.waitingMax);
      const full = asked.filter((x) => x.code);
      expect(full).toEqual([{ status: 200, code: 'live_link_full', err: 'the stage is full: at most 3 guests' }]);
      // A place frees when a request goes.
      const waiting = (await act(p, a, 'links', room)).ret as Array<{ uid: string; time: number }>;
      expect(waiting).toHaveLength(LIVE_LINK_LIMITS.waitingMax);
      expect(waiting.map((l) => l.time)).toEqual([...waiting.map((l) => l.time)].sort((x, y) => x - y));
      const first = viewers.find((v) => v.id === waiting[0]?.uid) as Member;
      const last = viewers.find((v) => !waiting.some((l) => l.uid === v.id)) as Member;
      await act(p, a, 'link_reject', room, { uid: first.id });
      expect(await ask(p, last, room)).toMatchObject({ ret: { status: 'waiting' } });

      // Per member: 5 at once, then one every 6 s.
      const eager = await member(p, '13800002398');
      p.advance(60_000);
      const burst = await Promise.all(Array.from({ length: 7 }, () => act(p, eager, 'link_request', room)));
      expect(burst.filter((x) => x.code === 'too_frequent')).toHaveLength(2);
      expect(burst.filter((x) => x.code === 'live_link_full')).toHaveLength(5);
      p.advance(5_900);
      expect(await act(p, eager, 'link_request', room)).toMatchObject({ code: 'too_frequent' });
      p.advance(200);
      expect(await act(p, eager, 'link_request', room)).toMatchObject({ code: 'live_link_full' });
    });

    it('LIVE-13: the anchor accepts up to 3 guests, rejects and ends; the viewer cancels or leaves; each is told', async () => {
      const p = await liveServer();
      const { a, room, links } = await liveRoom(p, '13800002401');
      const [v1, v2, v3, v4, v5] = [
        await member(p, '13800002402'),
        await member(p, '13800002403'),
        await member(p, '13800002404'),
        await member(p, '13800002405'),
        await member(p, '13800002406'),
      ] as [Member, Member, Member, Member, Member];
      for (const v of [v1, v2, v3, v4, v5]) await ask(p, v, room);
      const accept = (v: Member | { id: unknown }) => act(p, a, 'link_accept', room, { uid: v.id });

      expect(await act(p, v1, 'link_accept', room, { uid: v2.id })).toMatchObject({ code: 'live_missing' });
      expect(await act(p, a, 'link_accept', room, { uid: {} })).toMatchObject({ code: 'bad_params' });
      expect(await accept({ id: '99999999' })).toMatchObject({
        code: 'live_link_missing',
        err: 'the co-broadcast request has ended',
      });
      expect(await act(p, a, 'link_end', room, { uid: v1.id })).toMatchObject({ code: 'live_link_missing' });

      p.advance(1_000);
      const accepted = await accept(v1);
      const guestUrl = accepted.ret.play_url as string;
      expect(accepted).toEqual({
        status: 200,
        ret: { uid: v1.id, username: 'user2402', img: '', status: 'accepted', time: p.now(), play_url: guestUrl },
      });
      expect(guestUrl).toMatch(/^https:\/\/media\.test\/live\/[a-z0-9]{16}\.m3u8$/);
      expect(guestUrl).not.toContain(room.stream);
      expect(await accept(v1)).toMatchObject({ code: 'live_link_missing' });

      // The guest's own view has where to push; the others see the guest only.
      const mine = (await act(p, v1, 'view', room)).ret;
      expect(mine.me.link).toEqual({
        ...accepted.ret,
        push_url: expect.stringMatching(/^rtmp:\/\/media\.test\/live\//),
      });
      expect(pushOf(mine.me.link.push_url as string).stream).toBe(/([a-z0-9]{16})\.m3u8$/.exec(guestUrl)?.[1]);
      expect(mine.guests).toEqual([accepted.ret]);
      const seen = (await act(p, v2, 'view', room)).ret;
      expect(seen.guests).toEqual([accepted.ret]);
      expect(seen.me.link).toMatchObject({ status: 'waiting', play_url: null, push_url: null });
      expect(JSON.stringify(seen)).not.toContain(pushOf(mine.me.link.push_url as string).key);
      expect(JSON.stringify((await act(p, a, 'view', room)).ret)).not.toContain(
        pushOf(mine.me.link.push_url as string).key,
      );

      // Three on stage at once, at most.
      p.advance(1_000);
      const together = await Promise.all([accept(v2), accept(v3), accept(v4)]);
      expect(together.filter((x) => x.ret)).toHaveLength(2);
      expect(together.filter((x) => x.code)).toEqual([
        { status: 200, code: 'live_link_full', err: 'the stage is full: at most 3 guests' },
      ]);
      const onStage = ((await act(p, a, 'links', room)).ret as Array<{ uid: string; status: string }>).filter(
        (l) => l.status === 'accepted',
      );
      expect(onStage).toHaveLength(3);
      expect(onStage[0]?.uid).toBe(v1.id);
      const left = [v2, v3, v4].find((v) => !onStage.some((l) => l.uid === v.id)) as Member;

      // The anchor rejects a request and ends a guest's place; the viewer withdraws or leaves.
      expect(await act(p, a, 'link_reject', room, { uid: v5.id })).toEqual({ status: 200, ret: true });
      expect(await act(p, a, 'link_reject', room, { uid: v5.id })).toMatchObject({ code: 'live_link_missing' });
      expect(await act(p, a, 'link_reject', room, { uid: v1.id })).toMatchObject({ code: 'live_link_missing' });
      expect(await act(p, v5, 'link_cancel', room)).toMatchObject({ code: 'live_link_missing' });
      expect(await act(p, a, 'link_end', room, { uid: v1.id })).toEqual({ status: 200, ret: true });
      expect(await act(p, a, 'link_end', room, { uid: v1.id })).toMatchObject({ code: 'live_link_missing' });
      expect(await act(p, left, 'link_cancel', room)).toEqual({ status: 200, ret: true });
      expect(await act(p, left, 'link_cancel', room)).toMatchObject({ code: 'live_link_missing' });
      const stayed = [v2, v3, v4].filter((v) => v !== left) as [Member, Member];
      expect(await act(p, stayed[0], 'link_cancel', room)).toEqual({ status: 200, ret: true });
      expect(await act(p, a, 'link_cancel', room)).toMatchObject({ code: 'live_link_missing' });
      expect(await act(p, v1, 'link_cancel', { id: 'nope' })).toMatchObject({ code: 'live_missing' });
      expect((await act(p, a, 'links', room)).ret).toEqual([expect.objectContaining({ uid: stayed[1].id })]);
      expect((await act(p, v1, 'view', room)).ret.me.link).toBeNull();
      // Asked again: waiting again, and accepted again with a new stream.
      expect(await ask(p, v1, room)).toMatchObject({ ret: { status: 'waiting' } });
      const again = await accept(v1);
      expect(again.ret.play_url).not.toBe(guestUrl);

      await eventually(() => links().length === 14, 'link events');
      const changes = links().slice(5);
      expect(changes.slice(0, 4)).toEqual([
        { type: 'link', uid: v1.id, status: 'accepted', play_url: guestUrl },
        expect.objectContaining({ status: 'accepted' }),
        expect.objectContaining({ status: 'accepted' }),
        { type: 'link', uid: v5.id, status: 'rejected', play_url: null },
      ]);
      expect(changes.slice(4)).toEqual([
        { type: 'link', uid: v1.id, status: 'ended', play_url: null },
        { type: 'link', uid: left.id, status: 'cancelled', play_url: null },
        { type: 'link', uid: stayed[0].id, status: 'ended', play_url: null },
        { type: 'link', uid: v1.id, status: 'waiting', play_url: null },
        { type: 'link', uid: v1.id, status: 'accepted', play_url: again.ret.play_url },
      ]);
    });

    it('LIVE-14: the publish hook takes a guest’s stream and key while they are on stage, and refuses it after', async () => {
      const p = await liveServer();
      const { a, room } = await liveRoom(p, '13800002501');
      const v = await member(p, '13800002502');
      await ask(p, v, room);
      expect(await hook(p, 'publish', { name: 'x'.repeat(16), key: 'y'.repeat(32) }, true)).toEqual(refused);
      await act(p, a, 'link_accept', room, { uid: v.id });
      const { stream, key } = pushOf((await act(p, v, 'view', room)).ret.me.link.push_url as string);
      expect(await hook(p, 'publish', { name: stream, key: 'x'.repeat(32) }, true)).toEqual(refused);
      expect(await hook(p, 'publish', { name: stream, key: room.push_key }, true)).toEqual(refused);
      expect(await hook(p, 'publish', { name: room.stream, key }, true)).toEqual(refused);
      expect(await hook(p, 'publish', { name: stream, key }, true)).toEqual(allowed);
      expect(await hook(p, 'publish', { stream, param: `?key=${key}` }, false)).toEqual(allowed);
      // The guest's push changes nothing of the room.
      expect((await act(p, v, 'view', room)).ret).toMatchObject({
        status: 1,
        play_url: `https://media.test/live/${room.stream}.m3u8`,
      });
      await act(p, v, 'link_cancel', room);
      expect(await hook(p, 'publish', { name: stream, key }, true)).toEqual(refused);
    });

    it('LIVE-15: the room’s end ends every co-broadcast; a kick ends the member’s, a mute does not', async () => {
      const p = await liveServer();
      const { a, room, events, links } = await liveRoom(p, '13800002601');
      const [g, w, m] = [
        await member(p, '13800002602'),
        await member(p, '13800002603'),
        await member(p, '13800002604'),
      ];
      for (const v of [g, w, m]) await ask(p, v, room);
      await act(p, a, 'link_accept', room, { uid: g.id });
      await act(p, a, 'link_accept', room, { uid: m.id });
      const { stream, key } = pushOf((await act(p, g, 'view', room)).ret.me.link.push_url as string);

      await act(p, a, 'ban', room, { uid: m.id, kind: 'mute' });
      expect((await act(p, m, 'view', room)).ret.me).toMatchObject({ muted: true, link: { status: 'accepted' } });
      await act(p, a, 'ban', room, { uid: w.id, kind: 'kick' });
      await act(p, a, 'ban', room, { uid: m.id, kind: 'kick' });
      expect(((await act(p, a, 'links', room)).ret as Array<{ uid: string }>).map((l) => l.uid)).toEqual([g.id]);
      await eventually(() => links().length === 7, 'link events');
      const ends = events.filter((e) => e['type'] === 'kick' || e['status'] === 'ended');
      expect(ends).toEqual([
        { type: 'kick', uid: w.id },
        { type: 'link', uid: w.id, status: 'ended', play_url: null },
        { type: 'kick', uid: m.id },
        { type: 'link', uid: m.id, status: 'ended', play_url: null },
      ]);

      await act(p, a, 'end', room);
      expect((await act(p, g, 'view', room)).ret).toMatchObject({ status: 2, guests: [], me: { link: null } });
      expect((await act(p, a, 'links', room)).ret).toEqual([]);
      expect(await hook(p, 'publish', { name: stream, key }, true)).toEqual(refused);
      expect(await act(p, a, 'link_end', room, { uid: g.id })).toMatchObject({ code: 'live_link_missing' });
      expect(await ask(p, g, room)).toMatchObject({ code: 'live_state' });
      await eventually(() => events.some((e) => e['type'] === 'status' && e['status'] === 2), 'status event');
      expect(links()).toHaveLength(7);
    });

    it('LIVE-18: a guest whose stream stays lost a minute leaves the stage, told; a stream back in time keeps them', async () => {
      const p = await liveServer();
      const { a, room, links } = await liveRoom(p, '13800002801');
      const [g, h] = [await member(p, '13800002802'), await member(p, '13800002803')];
      await ask(p, g, room);
      await ask(p, h, room);
      await act(p, a, 'link_accept', room, { uid: g.id });
      p.advance(1_000);
      await act(p, a, 'link_accept', room, { uid: h.id });
      const mine = pushOf((await act(p, g, 'view', room)).ret.me.link.push_url as string);
      const theirs = pushOf((await act(p, h, 'view', room)).ret.me.link.push_url as string);
      expect(await hook(p, 'publish', { name: mine.stream, key: mine.key }, true)).toEqual(allowed);
      expect(await hook(p, 'publish', { name: theirs.stream, key: theirs.key }, true)).toEqual(allowed);
      const onStage = async () =>
        ((await act(p, a, 'view', room)).ret.guests as Array<{ uid: string }>).map((guest) => guest.uid);

      // Lost, then back within the grace (SRS's hooks this time): still on stage, and a new loss starts over.
      expect(await hook(p, 'unpublish', { name: mine.stream, key: mine.key }, true)).toEqual(allowed);
      p.advance(LIVE_LINK_LIMITS.streamLostGraceMs - 1_000);
      expect(await hook(p, 'publish', { stream: mine.stream, param: `?key=${mine.key}` }, false)).toEqual(allowed);
      p.advance(LIVE_LINK_LIMITS.streamLostGraceMs);
      expect(await onStage()).toEqual([g.id, h.id]);
      // Another guest's stream with this guest's key marks nothing.
      expect(await hook(p, 'unpublish', { name: theirs.stream, key: mine.key }, true)).toEqual(allowed);
      expect(await hook(p, 'unpublish', { stream: mine.stream, param: `?key=${mine.key}` }, false)).toEqual(allowed);
      // A second unpublish keeps the first loss's time.
      p.advance(30_000);
      expect(await hook(p, 'unpublish', { name: mine.stream, key: mine.key }, true)).toEqual(allowed);

      p.advance(LIVE_LINK_LIMITS.streamLostGraceMs - 30_001);
      expect(await onStage()).toEqual([g.id, h.id]);
      p.advance(LIVE_LIMITS.staleCheckMs);
      expect(await onStage()).toEqual([h.id]);
      expect((await act(p, g, 'view', room)).ret.me.link).toBeNull();
      await eventually(() => links().at(-1)?.['status'] === 'ended', 'the end told on the channel');
      expect(links().slice(-1)).toEqual([{ type: 'link', uid: g.id, status: 'ended', play_url: null }]);
      // Their key no longer passes; the room and the other guest go on.
      expect(await hook(p, 'publish', { name: mine.stream, key: mine.key }, true)).toEqual(refused);
      expect((await act(p, h, 'view', room)).ret).toMatchObject({ status: 1, me: { link: { status: 'accepted' } } });
    });

    it('LIVE-15: cancelling a guest’s account ends their co-broadcast, and the channel hears it (MEM-7)', async () => {
      const p = await liveServer();
      const { a, room, links } = await liveRoom(p, '13800002701');
      const [g, w] = [await member(p, '13800002702'), await member(p, '13800002703')];
      await ask(p, g, room);
      await ask(p, w, room);
      await act(p, a, 'link_accept', room, { uid: g.id });
      expect(await p.call('member/out', { token: g.token, reason: 'moving', agree: true })).toMatchObject({
        ret: true,
      });
      expect((await act(p, a, 'view', room)).ret.guests).toEqual([]);
      expect(((await act(p, a, 'links', room)).ret as Array<{ uid: string }>).map((l) => l.uid)).toEqual([w.id]);
      await eventually(() => links().length === 4, 'link events');
      expect(links()[3]).toEqual({ type: 'link', uid: g.id, status: 'ended', play_url: null });

      // The anchor cancelling: the room ends, and with it the request.
      expect(await p.call('member/out', { token: a.token, reason: 'moving', agree: true })).toMatchObject({
        ret: true,
      });
      expect((await act(p, w, 'view', room)).ret).toMatchObject({ status: 2, me: { link: null } });
      expect(await act(p, w, 'link_cancel', room)).toMatchObject({ code: 'live_link_missing' });
    });
  },
);
