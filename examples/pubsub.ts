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
import { demo, issueDemoOtp } from './demo-otp.js';
import { createClient, ParleyError } from '../src/index.js';

const { url, appkey } = demo;
const [channel = 'news', me = 'listener'] = process.argv.slice(2);

const otp = await issueDemoOtp(me);

const client = createClient({ host: url, appkey, modules: ['pubsub'] });
await client.connect({ id: me, data: { name: me }, otp });
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
