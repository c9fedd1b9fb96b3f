/**
 * Asks the server for a user's otp with the app's secret key, the way an app server does. The examples do it
 * themselves only to stay self-contained: a real client never holds the secret key.
 */
import { ParleyError } from '../src/index.js';

/** Settings shared by the examples, from the environment. */
export const demo = {
  url: process.env.PARLEY_URL ?? 'http://localhost:3000',
  appkey: process.env.PARLEY_APPKEY ?? 'demo-appkey',
  secret: process.env.PARLEY_SECRET ?? 'demo-secret-key',
};

/** An otp for `userId`, from `POST /api/v1/tokens/otp`. */
export async function issueDemoOtp(userId: string): Promise<string> {
  const response = await fetch(`${demo.url}/api/v1/tokens/otp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ appkey: demo.appkey, userId }),
  });
  const body = (await response.json()) as { code: number; content: { otp: string } | string };
  if (typeof body.content === 'string') throw new ParleyError(body.code, body.content);
  return body.content.otp;
}
