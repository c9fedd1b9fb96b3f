/**
 * A terminal chat over Parley IM: type a line to send it to the peer; messages from the peer are printed as they
 * arrive, and the last ten are shown on start.
 *
 *   npm start                                          # in one terminal
 *   npx tsx examples/node-chat.ts alice bob            # in another
 *   npx tsx examples/node-chat.ts bob alice            # and a third
 *
 * PARLEY_URL (http://localhost:3000), PARLEY_APPKEY (demo-appkey) and PARLEY_SECRET (demo-secret-key) as in
 * node-status.ts; the secret key is here only to keep the example self-contained.
 */
import { createInterface } from 'node:readline';
import { demo, issueDemoOtp } from './demo-otp.js';
import { createClient, ParleyError, type Message } from '../src/index.js';

const { url, appkey } = demo;
const [me = 'alice', peer = 'bob'] = process.argv.slice(2);

const otp = await issueDemoOtp(me);

const client = createClient({ host: url, appkey, modules: ['im'] });
const show = (m: Message) => {
  const text = m.type === 'text' ? (m.payload as { text: string }).text : `[${m.type}]`;
  console.log(`${new Date(m.timestamp).toLocaleTimeString()} ${m.senderId}: ${m.recalled ? '(recalled)' : text}`);
};
client.im.on('PRIVATE_MESSAGE_RECEIVED', (m) => {
  if (m.senderId === peer) show(m);
});
client.on('connectionStatus', ({ status }) => {
  if (status !== 'connected') console.log(`(${status})`);
});
await client.connect({ id: me, data: { name: me }, otp });
for (const m of await client.im.history({ type: 'private', id: peer })) show(m);
console.log(`chatting with ${peer} as ${me}; type and press enter, Ctrl-D to leave`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (text) => {
  if (text.trim() === '') return;
  const message = client.im.createTextMessage({ text, to: { type: 'private', id: peer, data: { name: peer } } });
  client.im
    .sendMessage({ message })
    .catch((error: unknown) => console.error('not sent:', ParleyError.from(error).content));
});
lines.on('close', () => {
  void client.disconnect().then(() => process.exit(0));
});
