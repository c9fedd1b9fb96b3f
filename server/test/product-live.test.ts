import { describe, expect, it } from 'vitest';
import { LIVE_LIMITS } from '../src/live/service.js';
import { channelAccessAllowed } from '../src/pubsub/access.js';
import { OPEN_APP, SECURE_APP, storesUnderTest } from './helpers.js';
import {
  LIVE,
  type Member,
  type Room,
  act,
  anchor,
  hook,
  member,
  nginxPublish,
  openRoom,
  srsPublish,
  watch,
} from './live-support.js';
import { eventually } from './pubsub-support.js';
import { openShop, operator, productServer, uploadImage } from './product-support.js';

describe.each(storesUnderTest())(
  'live streaming (spec §1 live anchors and audiences, §4 live states), on %s',
  (_name, store) => {
    const liveServer = (overrides: Parameters<typeof productServer>[0] = {}) =>
      productServer({ ...store(), live: LIVE, ...overrides });

    it('LIVE-1: without the media server’s URLs live is off: live/add and live/start refuse, the hook too', async () => {
      const p = await productServer(store());
      const a = await anchor(p, '13800000101');
      expect((await p.call('live/mine', { token: a.token })).ret).toEqual({ enabled: false, room: null, ended: [] });
      const cover = await uploadImage(p, a.token);
      expect(await p.call('live/add', { token: a.token, title: 'Tea', cover })).toMatchObject({
        code: 'live_unavailable',
        err: 'live streaming is not set up on this server',
      });
      expect(await p.call('live/start', { token: a.token, id: 'abc' })).toMatchObject({ code: 'live_unavailable' });
      expect(await hook(p, 'publish', { name: 'a'.repeat(16), key: 'b'.repeat(32) }, true)).toEqual({
        status: 403,
        body: { code: 403 },
      });
      // Every live path needs a member (spec §2: live requires login).
      for (const path of ['list', 'view', 'mine', 'add', 'start', 'end', 'goods', 'say', 'ban', 'restore', 'bans']) {
        expect(await p.call(`live/${path}`, { id: 'abc' }), path).toMatchObject({ code: 'token_invalid' });
      }
    });

    it('LIVE-2, LIVE-3: a certified member opens one room, its title and cover checked', async () => {
      const p = await liveServer();
      const plain = await member(p, '13800000201');
      const cover = await uploadImage(p, plain.token);
      expect(await p.call('live/add', { token: plain.token, title: 'Tea', cover })).toMatchObject({
        code: 'live_cert_required',
        err: 'please complete real-name certification first',
      });
      const a = await anchor(p, '13800000202');
      const own = await uploadImage(p, a.token);
      const refusals: [Record<string, unknown>, string][] = [
        [{ title: '  ', cover: own }, 'live_title_invalid'],
        [{ title: 'x'.repeat(LIVE_LIMITS.titleMax + 1), cover: own }, 'live_title_invalid'],
        [{ title: 'Tea\ntasting', cover: own }, 'live_title_invalid'],
        [{ title: 7, cover: own }, 'live_title_invalid'],
        [{ title: 'Tea' }, 'live_cover_invalid'],
        // Another member's upload, and a picture from elsewhere.
        [{ title: 'Tea', cover }, 'live_cover_invalid'],
        [{ title: 'Tea', cover: 'https://elsewhere.test/a.png' }, 'live_cover_invalid'],
      ];
      for (const [fields, code] of refusals) {
        expect(await p.call('live/add', { token: a.token, ...fields }), JSON.stringify(fields)).toMatchObject({ code });
      }
      expect((await p.call('live/mine', { token: a.token })).ret).toEqual({ enabled: true, room: null, ended: [] });

      const title = 'x'.repeat(LIVE_LIMITS.titleMax);
      const added = await p.call('live/add', { token: a.token, title: ` ${title} `, cover: own });
      const room = added.ret as Room;
      expect(room).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        title,
        cover: own,
        status: 0,
        anchor: { id: a.id, username: 'user0202', img: '' },
        viewers: 0,
        started_at: null,
        created_at: p.now(),
        ended_at: null,
        play_url: null,
        channel: `$live.${room.id}`,
        access_token: null,
        goods: [],
        messages: [],
        guests: [],
        me: { anchor: true, muted: false, link: null },
        push_url: `rtmp://media.test/live/${room.stream}?key=${room.push_key}`,
        stream: expect.stringMatching(/^[a-z0-9]{16}$/),
        push_key: expect.stringMatching(/^[a-z0-9]{32}$/),
      });
      expect((await p.call('live/mine', { token: a.token })).ret).toEqual({ enabled: true, room, ended: [] });
      expect(await p.call('live/add', { token: a.token, title: 'Again', cover: own })).toMatchObject({
        code: 'live_open',
        err: 'you already have a live room that has not ended',
      });

      // Added at once: one room.
      const b = await anchor(p, '13800000203');
      const covers = await Promise.all([1, 2, 3].map(() => uploadImage(p, b.token)));
      const tries = await Promise.all(
        covers.map((c) => p.call('live/add', { token: b.token, title: 'Tea', cover: c })),
      );
      expect(tries.filter((t) => t.ret)).toHaveLength(1);
      expect(tries.filter((t) => t.code === 'live_open')).toHaveLength(2);

      // Only the anchor ever sees where to push.
      const v = await member(p, '13800000204');
      const seen = (await act(p, v, 'view', room)).ret as Room;
      expect(seen).toEqual({
        ...room,
        me: { anchor: false, muted: false, link: null },
        push_url: undefined,
        stream: undefined,
        push_key: undefined,
      });
      expect(JSON.stringify(await p.call('live/list', { token: v.token }))).not.toContain(room.push_key);
    });

    it('LIVE-4, LIVE-11: the anchor alone starts and ends the room; the channel hears each change', async () => {
      const p = await liveServer();
      const a = await anchor(p, '13800000301');
      const other = await anchor(p, '13800000302');
      const room = await openRoom(p, a);
      const { events } = await watch(p, other, room.channel);

      for (const path of ['start', 'end', 'goods', 'ban', 'restore', 'bans']) {
        expect(await act(p, other, path, room, { goods: [], uid: a.id, kind: 'mute' }), path).toMatchObject({
          code: 'live_missing',
          err: 'the live room does not exist',
        });
      }
      expect(await act(p, a, 'start', { id: 'nope' })).toMatchObject({ code: 'live_missing' });
      expect(await act(p, a, 'view', { id: 'nope' })).toMatchObject({ code: 'live_missing' });
      expect(await act(p, a, 'view', { id: ['x'] })).toMatchObject({ code: 'live_missing' });

      p.advance(1_000);
      const started = (await act(p, a, 'start', room)).ret as Room;
      expect(started).toMatchObject({
        status: 1,
        started_at: p.now(),
        play_url: `https://media.test/live/${room.stream}.m3u8`,
        push_url: room.push_url,
      });
      p.advance(1_000);
      // Starting a live room again changes nothing.
      expect((await act(p, a, 'start', room)).ret).toMatchObject({ status: 1, started_at: started.started_at });
      expect((await act(p, other, 'view', room)).ret).toMatchObject({ status: 1, play_url: started.play_url });

      expect(await act(p, a, 'end', room)).toMatchObject({ ret: true });
      expect(await act(p, a, 'end', room)).toMatchObject({ code: 'live_state', err: 'the live has ended' });
      expect(await act(p, a, 'start', room)).toMatchObject({ code: 'live_state' });
      expect(await act(p, a, 'goods', room, { goods: [] })).toMatchObject({ code: 'live_state' });
      expect((await act(p, other, 'view', room)).ret).toMatchObject({ status: 2, ended_at: p.now(), play_url: null });
      const mine = (await p.call('live/mine', { token: a.token })).ret;
      expect(mine).toMatchObject({ enabled: true, room: null, ended: [{ id: room.id, status: 2 }] });
      expect(mine.ended[0]).not.toHaveProperty('push_key');

      await eventually(() => events.length === 2, 'status events');
      expect(events).toEqual([
        { type: 'status', status: 1 },
        { type: 'status', status: 2 },
      ]);

      // A start and an end at once: the room ends; the start is live_state or saw it live first.
      const next = await openRoom(p, a);
      const [start, end] = await Promise.all([act(p, a, 'start', next), act(p, a, 'end', next)]);
      expect(end).toMatchObject({ ret: true });
      expect(start.code === 'live_state' || start.ret?.status === 1, JSON.stringify(start)).toBe(true);
      expect((await act(p, a, 'view', next)).ret).toMatchObject({ status: 2 });
    });

    it('LIVE-9: the media server’s publish hook, as nginx-rtmp’s form and SRS’s JSON, starts a room not ended', async () => {
      const p = await liveServer();
      const a = await anchor(p, '13800000401');
      const v = await member(p, '13800000402');
      const room = await openRoom(p, a);
      const { events } = await watch(p, v, room.channel);

      const refused = { status: 403, body: { code: 403 } };
      const allowed = { status: 200, body: { code: 0 } };
      expect(await hook(p, 'publish', nginxPublish(room, 'x'.repeat(32)), true)).toEqual(refused);
      expect(await hook(p, 'publish', nginxPublish(room, room.push_key.slice(1)), true)).toEqual(refused);
      expect(await hook(p, 'publish', nginxPublish(room, `é${room.push_key.slice(1)}`), true)).toEqual(refused);
      expect(await hook(p, 'publish', { ...nginxPublish(room), name: 'a'.repeat(16) }, true)).toEqual(refused);
      expect(await hook(p, 'publish', { name: room.stream }, true)).toEqual(refused);
      expect(await hook(p, 'publish', srsPublish(room, 'x'.repeat(32)), false)).toEqual(refused);
      expect((await act(p, v, 'view', room)).ret).toMatchObject({ status: 0 });

      p.advance(1_000);
      expect(await hook(p, 'publish', nginxPublish(room), true)).toEqual(allowed);
      expect((await act(p, v, 'view', room)).ret).toMatchObject({ status: 1, started_at: p.now() });
      // The software reconnects: allowed, nothing changes; unpublish changes nothing either.
      p.advance(1_000);
      expect(await hook(p, 'unpublish', nginxPublish(room), true)).toEqual(allowed);
      expect(await hook(p, 'publish', srsPublish(room), false)).toEqual(allowed);
      expect((await act(p, v, 'view', room)).ret).toMatchObject({ status: 1, started_at: p.now() - 1_000 });

      await act(p, a, 'end', room);
      expect(await hook(p, 'publish', nginxPublish(room), true)).toEqual(refused);
      expect(await hook(p, 'publish', srsPublish(room), false)).toEqual(refused);
      expect(await hook(p, 'unpublish', srsPublish(room), false)).toEqual(allowed);

      // SRS's JSON starts a room as well.
      const next = await openRoom(p, a);
      expect(await hook(p, 'publish', srsPublish(next), false)).toEqual(allowed);
      expect((await act(p, a, 'view', next)).ret).toMatchObject({ status: 1 });

      await eventually(() => events.length === 2, 'status events');
      expect(events).toEqual([
        { type: 'status', status: 1 },
        { type: 'status', status: 2 },
      ]);
    });

    it('LIVE-17: a room whose stream stays lost 5 minutes ends at the next read; a stream back in time keeps it', async () => {
      const p = await liveServer();
      const a = await anchor(p, '13800001701');
      const v = await member(p, '13800001702');
      const room = await openRoom(p, a);
      const { events } = await watch(p, v, room.channel);
      const allowed = { status: 200, body: { code: 0 } };
      expect(await hook(p, 'publish', nginxPublish(room), true)).toEqual(allowed);

      // Lost, then back within the grace: the room stays live, and losing it again starts the grace over.
      expect(await hook(p, 'unpublish', nginxPublish(room), true)).toEqual(allowed);
      p.advance(LIVE_LIMITS.streamLostGraceMs - 1_000);
      expect(await hook(p, 'publish', srsPublish(room), false)).toEqual(allowed);
      p.advance(LIVE_LIMITS.streamLostGraceMs);
      expect((await act(p, v, 'view', room)).ret).toMatchObject({ status: 1 });
      // A wrong key, or a stream that is not a room's, marks nothing.
      const other = await openRoom(p, await anchor(p, '13800001703'));
      await hook(p, 'publish', nginxPublish(other), true);
      expect(await hook(p, 'unpublish', nginxPublish(other, 'x'.repeat(32)), true)).toEqual(allowed);
      expect(await hook(p, 'unpublish', { name: 'a'.repeat(16), key: 'b'.repeat(32) }, true)).toEqual(allowed);
      expect(await hook(p, 'unpublish', srsPublish(room), false)).toEqual(allowed);

      p.advance(LIVE_LIMITS.streamLostGraceMs - 1);
      expect((await act(p, v, 'view', room)).ret).toMatchObject({ status: 1 });
      p.advance(LIVE_LIMITS.staleCheckMs);
      expect((await act(p, v, 'view', room)).ret).toMatchObject({ status: 2, ended_at: p.now() });
      expect((await act(p, v, 'view', other)).ret).toMatchObject({ status: 1 });
      const listed = (await p.call('live/list', { token: v.token })).ret as Array<{ id: string }>;
      expect(listed.map((r) => r.id)).toEqual([other.id]);
      await eventually(() => events.length === 2, 'the end told on the channel');
      expect(events).toEqual([
        { type: 'status', status: 1 },
        { type: 'status', status: 2 },
      ]);
      // The anchor may open another room at once.
      expect((await p.call('live/add', { token: a.token, title: 'Again', cover: room['cover'] })).ret).toMatchObject({
        status: 0,
      });
    });

    it('LIVE-17: a room not started in 24 hours ends, and the server ends stale rooms by itself without a read', async () => {
      // A session lifetime of a second makes the server's sweep, which ends stale rooms too, run twice a second.
      const p = await liveServer({ sessionTtlMs: 1_000 });
      const a = await anchor(p, '13800001711');
      const v = await member(p, '13800001712');
      const idle = await openRoom(p, a);
      const b = await anchor(p, '13800001713');
      const gone = await openRoom(p, b);
      const { events } = await watch(p, v, gone.channel);
      await hook(p, 'publish', nginxPublish(gone), true);
      await hook(p, 'unpublish', nginxPublish(gone), true);

      p.advance(LIVE_LIMITS.notStartedMaxMs);
      // No one reads: the sweep ends both and tells the live one's channel.
      await eventually(() => events.length === 2, 'the sweep ended the room whose stream was lost');
      expect(events.at(-1)).toEqual({ type: 'status', status: 2 });
      const mine = (await p.call('live/mine', { token: a.token })).ret as { room: Room | null; ended: Room[] };
      expect(mine.room).toBeNull();
      expect(mine.ended.map((r) => r.id)).toEqual([idle.id]);
    });

    it('LIVE-5: the list: live rooms by start, then rooms not started, 20 a page; no ended ones, none across a block', async () => {
      const p = await liveServer();
      const v = await member(p, '13800000500');
      const rooms: Room[] = [];
      const anchors: Member[] = [];
      for (let i = 1; i <= 22; i++) {
        const a = await anchor(p, `138000005${String(i).padStart(2, '0')}`);
        anchors.push(a);
        rooms.push(await openRoom(p, a, `Room ${i}`));
      }
      // Rooms 3 and 5 go live, 5 first; room 22 ends; room 23, newer than both starts, has not started.
      p.advance(1_000);
      await act(p, anchors[4] as Member, 'start', rooms[4] as Room);
      p.advance(1_000);
      await act(p, anchors[2] as Member, 'start', rooms[2] as Room);
      const started = p.now();
      await act(p, anchors[21] as Member, 'end', rooms[21] as Room);
      await openRoom(p, await anchor(p, '13800000523'), 'Room 23');

      const page = async (n?: unknown, who = v) =>
        ((await p.call('live/list', { token: who.token, page: n })).ret as Room[]).map((r) => String(r.title));
      const notStarted = ['Room 23', ...Array.from({ length: 21 }, (_, i) => `Room ${21 - i}`)].filter(
        (t) => t !== 'Room 3' && t !== 'Room 5',
      );
      expect(await page()).toEqual(['Room 3', 'Room 5', ...notStarted.slice(0, 18)]);
      expect(await page(2)).toEqual(notStarted.slice(18));
      expect(await page('2')).toEqual(notStarted.slice(18));
      expect(await page(3)).toEqual([]);
      for (const bad of [0, -1, 1.5, 'x']) {
        expect(await p.call('live/list', { token: v.token, page: bad }), String(bad)).toMatchObject({
          code: 'bad_params',
        });
      }
      const first = ((await p.call('live/list', { token: v.token })).ret as Room[])[0];
      expect(first).toEqual({
        id: rooms[2]?.id,
        title: 'Room 3',
        cover: rooms[2]?.cover,
        status: 1,
        anchor: { id: anchors[2]?.id, username: expect.any(String), img: '' },
        viewers: 0,
        started_at: started,
        created_at: rooms[2]?.created_at,
      });

      // Blocked either way: out of the list, and as good as gone.
      await p.call(`member/lahei/uid_s/${anchors[2]?.id}`, { token: v.token, block: true });
      await p.call(`member/lahei/uid_s/${v.id}`, { token: anchors[4]?.token, block: true });
      expect((await page()).slice(0, 2)).toEqual(['Room 23', 'Room 21']);
      expect(await act(p, v, 'view', rooms[2] as Room)).toMatchObject({ code: 'live_missing' });
      expect(await act(p, v, 'say', rooms[4] as Room, { text: 'hi' })).toMatchObject({ code: 'live_missing' });
      expect((await page(1, anchors[0] as Member)).slice(0, 2)).toEqual(['Room 3', 'Room 5']);
    });

    it('LIVE-5: viewers are the presence of the room’s channel', async () => {
      const p = await liveServer();
      const a = await anchor(p, '13800000601');
      const room = await openRoom(p, a);
      const [v1, v2] = [await member(p, '13800000602'), await member(p, '13800000603')];
      const viewers = async () => ((await act(p, v1, 'view', room)).ret as Room).viewers as number;
      expect(await viewers()).toBe(0);
      const first = await watch(p, v1, room.channel);
      expect(first.subscribed).toMatchObject({ code: 200 });
      await watch(p, v2, room.channel);
      expect(await viewers()).toBe(2);
      expect(((await p.call('live/list', { token: v1.token })).ret as Room[])[0]?.viewers).toBe(2);
      expect(((await p.call('live/mine', { token: a.token })).ret as { room: Room }).room.viewers).toBe(2);
      first.socket.disconnect();
      await eventually(() => !first.socket.connected);
      await expect.poll(viewers).toBe(1);
    });

    it('LIVE-6: the room shows the anchor’s own products on sale, at most 20, in order; the channel hears of it', async () => {
      const p = await liveServer();
      const typeid = ((await operator(p, 'product-categories', 'POST', '', { name: 'Tea' })).content as { id: string })
        .id;
      const seller = await openShop(p, '13700137001');
      const rival = await openShop(p, '13700137002');
      const product = async (who: Member, title: string, pass = true) => {
        const imgs = [await uploadImage(p, who.token)];
        const added = await p.call('shop/business_add', {
          token: who.token,
          imgs,
          title,
          price: 12.5,
          typeid,
          stock: 3,
          content: 'Picked in April.',
        });
        const id = (added.ret as { id: string }).id;
        if (pass) await operator(p, 'products', 'POST', `/${id}/review`, { decision: 'pass' });
        return { id, img: imgs[0] as string };
      };
      const [green, black, pending, theirs] = [
        await product(seller, 'Green tea'),
        await product(seller, 'Black tea'),
        await product(seller, 'White tea', false),
        await product(rival, 'Oolong'),
      ];
      const room = await openRoom(p, seller);
      const v = await member(p, '13800000701');
      const { events } = await watch(p, v, room.channel);

      const invalid: unknown[] = [
        [green.id, green.id],
        [pending.id],
        [theirs.id],
        ['nope'],
        Array.from({ length: LIVE_LIMITS.goodsMax + 1 }, (_, i) => `p${i}`),
        green.id,
        [7],
        undefined,
      ];
      for (const goods of invalid) {
        expect(await act(p, seller, 'goods', room, { goods }), JSON.stringify(goods)).toMatchObject({
          code: 'live_goods_invalid',
        });
      }
      const items = [
        { id: black.id, title: 'Black tea', price: 12.5, img: black.img },
        { id: green.id, title: 'Green tea', price: 12.5, img: green.img },
      ];
      expect(await act(p, seller, 'goods', room, { goods: [black.id, green.id] })).toMatchObject({ ret: items });
      expect((await act(p, v, 'view', room)).ret.goods).toEqual(items);
      // Taken off the shelf: no longer shown.
      await p.call('shop/business_shelf', { token: seller.token, id: black.id, on: false });
      expect((await act(p, v, 'view', room)).ret.goods).toEqual([items[1]]);
      expect(await act(p, seller, 'goods', room, { goods: [] })).toMatchObject({ ret: [] });

      await eventually(() => events.length === 2, 'goods events');
      expect(events).toEqual([
        { type: 'goods', goods: items },
        { type: 'goods', goods: [] },
      ]);
    });

    it('LIVE-7: chat in a live room: text checked, the newest 50 shown, 5 at once then 20 a minute per member', async () => {
      const p = await liveServer();
      const a = await anchor(p, '13800000801');
      const v = await member(p, '13800000802');
      const room = await openRoom(p, a);
      const { events } = await watch(p, a, room.channel);
      const say = (who: Member, text: unknown) => act(p, who, 'say', room, { text });

      expect(await say(v, 'too early')).toMatchObject({ code: 'live_state' });
      await act(p, a, 'start', room);
      for (const text of ['', '   ', 'x'.repeat(LIVE_LIMITS.textMax + 1), 'two\nlines', 5, undefined]) {
        p.advance(3_000);
        expect(await say(v, text), JSON.stringify(text)).toMatchObject({
          code: 'live_text_invalid',
        });
      }
      p.advance(3_000);
      const said = await say(v, '  hello  ');
      expect(said).toEqual({
        status: 200,
        ret: {
          id: expect.stringMatching(/^[0-9a-f]{16}$/),
          uid: v.id,
          username: 'user0802',
          img: '',
          text: 'hello',
          time: p.now(),
        },
      });
      await eventually(() => events.length === 2, 'chat event');
      expect(events).toEqual([
        { type: 'status', status: 1 },
        { type: 'chat', ...said.ret },
      ]);

      for (let i = 1; i <= LIVE_LIMITS.linesShown + 1; i++) {
        p.advance(3_000);
        expect(await say(a, `line ${i}`)).toMatchObject({ ret: { text: `line ${i}`, uid: a.id } });
      }
      const messages = (await act(p, v, 'view', room)).ret.messages as Array<{ text: string }>;
      expect(messages.map((m) => m.text)).toEqual(
        Array.from({ length: LIVE_LIMITS.linesShown }, (_, i) => `line ${i + 2}`),
      );

      // Per member, whatever the address: 5 at once, then 20 a minute (one every 3 s).
      p.advance(60_000);
      const burst = await Promise.all(Array.from({ length: 7 }, (_, i) => say(v, `quick ${i}`)));
      expect(burst.filter((b) => b.ret)).toHaveLength(5);
      expect(burst.filter((b) => b.code === 'too_frequent')).toHaveLength(2);
      expect(await say(a, 'the anchor has a budget of their own')).toMatchObject({ ret: { uid: a.id } });
      p.advance(2_500);
      expect(await say(v, 'not yet')).toMatchObject({ code: 'too_frequent' });
      p.advance(600);
      expect(await say(v, 'now')).toMatchObject({ ret: { text: 'now' } });

      await act(p, a, 'end', room);
      p.advance(3_000);
      expect(await say(v, 'too late')).toMatchObject({ code: 'live_state' });
    });

    it('LIVE-8: the anchor mutes, kicks and restores viewers; the channel hears each; the bans are listed', async () => {
      const p = await liveServer();
      const a = await anchor(p, '13800000901');
      const v = await member(p, '13800000902');
      const w = await member(p, '13800000903');
      const room = await openRoom(p, a);
      await act(p, a, 'start', room);
      const { events } = await watch(p, w, room.channel);
      const ban = (uid: unknown, kind: unknown) => act(p, a, 'ban', room, { uid, kind });
      const say = (who: Member, text: string) => {
        p.advance(3_000);
        return act(p, who, 'say', room, { text });
      };

      expect(await ban(v.id, 'silence')).toMatchObject({ code: 'bad_params' });
      expect(await ban(a.id, 'mute')).toMatchObject({
        code: 'live_ban_self',
        err: 'you cannot mute or remove yourself',
      });
      expect(await ban(Number(a.id), 'kick')).toMatchObject({ code: 'live_ban_self' });
      expect(await ban('99999999', 'mute')).toMatchObject({ code: 'user_missing' });
      expect(await act(p, a, 'restore', room, { uid: {} })).toMatchObject({ code: 'bad_params' });

      p.advance(1_000);
      expect(await ban(v.id, 'mute')).toMatchObject({ ret: true });
      expect((await act(p, v, 'view', room)).ret.me).toEqual({ anchor: false, muted: true, link: null });
      expect(await say(v, 'hi')).toMatchObject({
        code: 'live_removed',
        err: 'you were removed from or muted in the live room',
      });
      expect(await say(w, 'still talking')).toMatchObject({ ret: { uid: w.id } });
      expect((await act(p, a, 'bans', room)).ret).toEqual([
        { uid: v.id, username: 'user0902', img: '', kind: 'mute', time: p.now() - 6_000 },
      ]);

      expect(await ban(v.id, 'kick')).toMatchObject({ ret: true });
      expect(await act(p, v, 'view', room)).toMatchObject({ code: 'live_removed' });
      expect(await say(v, 'hi')).toMatchObject({ code: 'live_removed' });
      // A mute leaves a kick as it is.
      expect(await ban(v.id, 'mute')).toMatchObject({ ret: true });
      expect(await act(p, v, 'view', room)).toMatchObject({ code: 'live_removed' });
      p.advance(1_000);
      expect(await ban(Number(w.id), 'mute')).toMatchObject({ ret: true });
      expect(
        ((await act(p, a, 'bans', room)).ret as Array<{ uid: string; kind: string }>).map((b) => [b.uid, b.kind]),
      ).toEqual([
        [w.id, 'mute'],
        [v.id, 'kick'],
      ]);

      expect(await act(p, a, 'restore', room, { uid: v.id })).toMatchObject({ ret: true });
      expect((await act(p, v, 'view', room)).ret.me).toEqual({ anchor: false, muted: false, link: null });
      expect(await say(v, 'back')).toMatchObject({ ret: { text: 'back' } });
      // Lifting no ban is no error, and tells nobody.
      expect(await act(p, a, 'restore', room, { uid: v.id })).toMatchObject({ ret: true });
      expect(await act(p, a, 'restore', room, { uid: Number(w.id) })).toMatchObject({ ret: true });

      await eventually(() => events.filter((e) => e['type'] !== 'chat').length === 5, 'ban events');
      expect(events.filter((e) => e['type'] !== 'chat')).toEqual([
        { type: 'mute', uid: v.id },
        { type: 'kick', uid: v.id },
        { type: 'mute', uid: w.id },
        { type: 'restore', uid: v.id },
        { type: 'restore', uid: w.id },
      ]);
    });

    it('LIVE-11: with access tokens required, a viewer gets a read-only token to the channel; a kicked one gets none', async () => {
      const app = { ...SECURE_APP, requireAccessToken: true };
      const p = await liveServer({ apps: [app, OPEN_APP] });
      const a = await anchor(p, '13800001001');
      const v = await member(p, '13800001002');
      const room = await openRoom(p, a);
      const token = (await act(p, v, 'view', room)).ret.access_token as string;
      expect(token).toEqual(expect.any(String));
      const allowed = (userId: string, need: 'r' | 'w', now = p.now()) =>
        channelAccessAllowed({ app, userId, token, channels: [room.channel], need, now });
      expect(allowed(v.id, 'r')).toBe(true);
      expect(allowed(v.id, 'w')).toBe(false);
      expect(allowed(a.id, 'r')).toBe(false);
      expect(allowed(v.id, 'r', p.now() + LIVE_LIMITS.accessTtlMs)).toBe(false);
      expect(room.access_token).toEqual(expect.any(String));

      expect((await watch(p, v, room.channel)).subscribed).toMatchObject({ code: 401 });
      const { subscribed, events } = await watch(p, v, room.channel, token);
      expect(subscribed).toMatchObject({ code: 200 });
      await act(p, a, 'start', room);
      await eventually(() => events.length === 1, 'status event');

      await act(p, a, 'ban', room, { uid: v.id, kind: 'kick' });
      expect(await act(p, v, 'view', room)).toEqual({
        status: 200,
        code: 'live_removed',
        err: 'you were removed from or muted in the live room',
      });
    });

    it('LIVE-10: cancelling the account ends the anchor’s room, and the channel hears it (MEM-7)', async () => {
      const p = await liveServer();
      const a = await anchor(p, '13800001101');
      const v = await member(p, '13800001102');
      const room = await openRoom(p, a);
      await act(p, a, 'start', room);
      const { events } = await watch(p, v, room.channel);
      expect(await p.call('member/out', { token: a.token, reason: 'moving', agree: true })).toMatchObject({
        ret: true,
      });
      expect((await act(p, v, 'view', room)).ret).toMatchObject({
        status: 2,
        ended_at: p.now(),
        play_url: null,
        anchor: { id: a.id, username: '', img: '' },
      });
      expect(((await p.call('live/list', { token: v.token })).ret as Room[]).map((r) => r.id)).not.toContain(room.id);
      await eventually(() => events.length === 1, 'status event');
      expect(events).toEqual([{ type: 'status', status: 2 }]);
    });
  },
);
