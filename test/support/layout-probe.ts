/**
 * Run by test/im/layout.test.ts as `node --allow-natives-syntax --import tsx test/support/layout-probe.ts`: a client
 * on an in-process transport creates, sends, receives and caches group and private messages, with timestamps as
 * large as real ones, and prints how many hidden classes (V8 maps) each scene's messages took.
 */
import type { Transport, TransportHandlers } from '../../src/core/transport.js';
import { createClient, type Message } from '../../src/index.js';

// V8's own check, in a function built at run time: TypeScript cannot parse its `%` syntax.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

let ts = 1_800_000_000_000;
let handlers: TransportHandlers | undefined;
const transport: Transport = (_url, h) => {
  handlers = h;
  queueMicrotask(() => h.onOpen());
  return {
    emit(event, _payload, ack) {
      const reply =
        event === 'authorize'
          ? { code: 200, sid: 's1', enablePublish: true, enableSubscribe: true, mD: { GIM: { ack: false } } }
          : { code: 200, content: event === 'publishIM' ? { timestamp: ++ts } : null };
      queueMicrotask(() => ack?.(reply));
    },
    close() {},
  };
};

const client = createClient({ host: 'http://probe', appkey: 'probe', modules: ['im'], transport });
await client.connect({ id: 'me', data: { name: 'Me' } });
await client.im.subscribeGroup({ groupIds: ['g1'] });
const seen: Message[] = [];
client.im.on('GROUP_MESSAGE_RECEIVED', (m) => seen.push(m));
client.im.on('PRIVATE_MESSAGE_RECEIVED', (m) => seen.push(m));
for (let i = 0; i < 3; i++) {
  const p = JSON.stringify({ text: `in ${i}` });
  handlers?.onPush('imMessage', { t: 'group', r: 'g1', s: 'bob', i: `g${i}`, ts: ++ts, mt: 'text', p, d: '{}' });
  handlers?.onPush('imMessage', { t: 'private', r: 'me', s: 'bob', i: `p${i}`, ts: ++ts, mt: 'text', p });
  for (const to of [
    { type: 'group', id: 'g1' },
    { type: 'private', id: 'bob' },
  ] as const) {
    const message = client.im.createTextMessage({ text: `out ${i}`, to });
    seen.push(message);
    await client.im.sendMessage({ message });
  }
}
seen.push(...(await client.im.history({ type: 'group', id: 'g1' })));
seen.push(...(await client.im.history({ type: 'private', id: 'bob' })));

const maps: Record<string, object[]> = {};
for (const m of seen) {
  const known = (maps[m.scene] ??= []);
  if (!known.some((other) => sameMap(other, m))) known.push(m);
}
process.stdout.write(
  `${JSON.stringify(Object.fromEntries(Object.entries(maps).map(([scene, list]) => [scene, list.length])))}\n`,
);
await client.disconnect();
