/**
 * Run by server/test/message-layout.test.ts as `node --allow-natives-syntax --import tsx <this file>`: the SQLite
 * store stores group and private messages the ways it can (a batch of sends, one append, a resend of a stored id) and
 * reads them back as history, and this prints how many hidden classes (V8 maps) the stored messages took.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.js';
import type { NewMessage, StoredMessage } from '../src/store/im.js';
import { newMessage, sendParams } from './store-support.js';

// V8's own check, in a function built at run time: TypeScript cannot parse its `%` syntax.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const dir = mkdtempSync(join(tmpdir(), 'parley-layout-'));
const store = await openStore({
  sqlite: join(dir, 'store.db'),
  dataDir: dir,
  databaseUrl: undefined,
  databaseSchema: undefined,
});
const seen: StoredMessage[] = [];
const message = (scene: 'group' | 'private', i: number): NewMessage =>
  newMessage({
    appkey: 'probe',
    convKey: scene === 'group' ? 'group:g1' : 'private:u1:u2',
    scene,
    messageId: `${scene}-${i}`,
    targetId: scene === 'group' ? 'g1' : 'u2',
    payload: JSON.stringify({ text: `hi ${i}` }),
  });
const send = (m: NewMessage) => store.messages.send(sendParams(m, { stored: (stored) => seen.push(stored) }));
for (const scene of ['group', 'private'] as const) {
  // One batch: the sends of one turn of the event loop share a transaction.
  const sent = await Promise.all([0, 1, 2].map((i) => send(message(scene, i))));
  seen.push(...sent.map((r) => r.message));
  seen.push((await store.messages.append(message(scene, 3), Date.now())).message);
  // A resend of a stored id answers with the first message, as read back.
  seen.push((await send(message(scene, 0))).message);
  const convKey = message(scene, 0).convKey;
  seen.push(...(await store.messages.page({ appkey: 'probe', convKey, viewerId: 'u1', before: undefined, limit: 10 })));
}
await store.close();
rmSync(dir, { recursive: true, force: true });

const maps: StoredMessage[] = [];
for (const m of seen) if (!maps.some((other) => sameMap(other, m))) maps.push(m);
process.stdout.write(`${JSON.stringify({ messages: seen.length, maps: maps.length })}\n`);
