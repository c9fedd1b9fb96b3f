/**
 * A plain Node client that connects to a running Parley server and prints every connection status change.
 *
 *   npm start                                   # in one terminal
 *   npx tsx examples/node-status.ts alice       # in another; stop and start the server to watch reconnects
 *
 * Options come from the environment: PARLEY_URL (http://localhost:3000), PARLEY_APPKEY (demo-appkey) and
 * PARLEY_SECRET (demo-secret-key). `--once` disconnects as soon as the connection is up.
 *
 * A real app never holds the secret key in a client: its own server asks Parley for the user's token.
 * The example does both halves to stay self-contained.
 */
import { demo, issueDemoOtp } from './demo-otp.js';
import { createClient, ParleyError } from '../src/index.js';

const { url, appkey } = demo;
const args = process.argv.slice(2);
const once = args.includes('--once');
const userId = args.find((a) => !a.startsWith('--')) ?? 'example-user';

const client = createClient({ host: url, appkey, modules: ['im'] });
client.on('connectionStatus', ({ previous, status, reason }) => {
  console.log(`${new Date().toISOString()} ${previous} -> ${status} (${reason})`);
});
client.on('connecting', ({ attempts, url: next, delay }) => {
  console.log(`${new Date().toISOString()} attempt ${attempts} failed; next ${next} in ${delay} ms`);
});

try {
  await client.connect({ id: userId, data: { name: userId }, otp: await issueDemoOtp(userId) });
  console.log(`connected as ${userId}, session ${client.sid}`);
} catch (error) {
  console.error('could not connect:', error instanceof ParleyError ? error.toJSON() : error);
  process.exitCode = 1;
}

if (once || process.exitCode) {
  await client.disconnect();
} else {
  process.once('SIGINT', () => {
    void client.disconnect().then(() => process.exit(0));
  });
}
