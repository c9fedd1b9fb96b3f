/**
 * Prints an otp for a user of a configured app, signed with the app's secret:
 * `tsx src/cli/issue-token.ts <appkey> <userId> [ttlMs]`. For app servers' scripts and manual testing.
 */
import { issueOtp } from '../auth/otp.js';
import { ConfigError, loadConfig } from '../config.js';

function run(argv: readonly string[]): number {
  const [appkey, userId, ttl] = argv;
  if (!appkey || !userId) {
    process.stderr.write('usage: issue-token <appkey> <userId> [ttlMs]\n');
    return 2;
  }
  const ttlMs = ttl === undefined ? undefined : Number(ttl);
  if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && ttlMs > 0)) {
    process.stderr.write(`ttlMs must be a positive integer, got ${ttl}\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const app = config.apps.find((a) => a.appkey === appkey);
  if (!app) {
    process.stderr.write(`No configured app has appkey ${appkey}\n`);
    return 1;
  }
  const { otp } = issueOtp({ secretKey: app.secretKey, userId, ttlMs });
  process.stdout.write(`${otp}\n`);
  return 0;
}

process.exitCode = run(process.argv.slice(2));
