/**
 * Pub/sub from Node: subscribes to a channel with presence, prints messages and presence changes, and publishes
 * each line typed.
 *
 *   npm start                                   # in one terminal
 *   npx tsx examples/pubsub.ts news alice       # channel, user id; run it twice to see presence
 *
 * The demo app needs an otp for named users: PARLEY_URL, PARLEY_APPKEY and PARLEY_SECRET as in node-status.ts.
 */
import { createInterface } from 'node:readline';
import { createClient, ParleyError } from '../src/index.js';

const url = process.env.PARLEY_URL ?? 'http://localhost:3000';
const appkey = process.env.PARLEY_APPKEY ?? 'demo-appkey';
const secret = process.env.PARLEY_SECRET ?? 'demo-secret-key';
const [channel = 'news', me = 'listener'] = process.argv.slice(2);

const response = await fetch(`${url}/api/v1/tokens/otp`, {
  method: 'POST',
  headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
  body: JSON.stringify({ appkey, userId: me }),
});
const issued = (await response.json()) as { code: number; content: { otp: string } | string };
if (typeof issued.content === 'string') throw new ParleyError(issued.code, issued.content);

const client = createClient({ host: url, appkey, modules: ['pubsub'] });
await client.connect({ id: me, data: { name: me }, otp: issued.content.otp });
await client.pubsub.subscribePresence({
  channel,
  onPresence: ({ action, member, amount }) => console.log(`(${member.id} ${action}; ${amount} here)`),
});
await client.pubsub.subscribe({
  channel,
  presence: { enable: true },
  onMessage: ({ time, content }) => console.log(`${new Date(time).toLocaleTimeString()} ${content}`),
});
console.log(`on ${channel} as ${me}; type to publish, Ctrl-D to leave`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (text) => {
  if (text.trim() === '') return;
  client.pubsub.publish({ channel, message: `${me}: ${text}` }).catch((error: unknown) => {
    console.error('not published:', ParleyError.from(error).content);
  });
});
lines.on('close', () => {
  void client.disconnect().then(() => process.exit(0));
});
