/**
 * A chat bot on the app server's side, with no socket of its own: the server posts each message to the bot's
 * webhook (HOOK-1), the bot checks the signature (HOOK-2) and answers a text sent to it with the same text, as the
 * bot's user, through the server's HTTP API (IM-30). A webhook tried again (HOOK-3) answers once: the reply's
 * `messageId` is made from the message's. It needs messages only, so its app's `webhookEvents` asks for those alone
 * (HOOK-4); other events are answered and let be.
 *
 *   PARLEY_APPS='[{"appkey":"demo-appkey","secretKey":"demo-secret-key","requireOtp":true,
 *     "webhookUrl":"http://127.0.0.1:4000/parley","webhookEvents":["im.message"]}]' npm start
 *                                                                      # in one terminal
 *   npx tsx examples/echo-bot.ts echo                                  # in another
 *   npx tsx examples/node-chat.ts alice echo                           # and talk to it in a third
 *
 * BOT_PORT (4000) is where the bot listens; PARLEY_URL, PARLEY_APPKEY and PARLEY_SECRET as in node-status.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { demo } from './demo-otp.js';

const [bot = 'echo'] = process.argv.slice(2);
const port = Number(process.env.BOT_PORT ?? 4000);

/** Whether the delivery is the server's: `sha256=` HMAC of `<timestamp>.<body>` with the app's secret key. */
function signedByServer(timestamp: string, body: string, signature: string): boolean {
  const expected = `sha256=${createHmac('sha256', demo.secret).update(`${timestamp}.${body}`).digest('hex')}`;
  const fresh = Math.abs(Date.now() - Number(timestamp)) < 5 * 60_000;
  return (
    fresh && signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}

interface Delivery {
  event: string;
  data: { scene: string; messageId: string; senderId: string; to: string; type: string; payload: unknown };
}

/** Sends `text` from the bot to `userId`, once per `messageId`. */
async function reply(userId: string, text: string, messageId: string): Promise<void> {
  const response = await fetch(`${demo.url}/api/v1/apps/${demo.appkey}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      from: { id: bot, data: { name: 'Echo bot' } },
      to: { type: 'private', id: userId },
      type: 'text',
      payload: { text },
      messageId,
    }),
  });
  if (!response.ok) console.error(`reply refused: ${await response.text()}`);
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const header = (name: string) => String(req.headers[name] ?? '');
    if (!signedByServer(header('x-parley-timestamp'), body, header('x-parley-signature'))) {
      res.writeHead(401).end();
      return;
    }
    // Answered at once; the reply goes out after, so that the server's attempt does not wait for it.
    res.writeHead(204).end();
    const { event, data } = JSON.parse(body) as Delivery;
    if (event !== 'im.message' || data.scene !== 'private' || data.to !== bot || data.senderId === bot) return;
    const text = data.type === 'text' ? (data.payload as { text?: unknown }).text : undefined;
    if (typeof text !== 'string') return;
    console.log(`${data.senderId}: ${text}`);
    void reply(data.senderId, `echo: ${text}`, `echo-${data.messageId}`.slice(0, 64));
  });
});
server.listen(port, '127.0.0.1', () => console.log(`echo bot ${bot} listening on http://127.0.0.1:${port}/parley`));
