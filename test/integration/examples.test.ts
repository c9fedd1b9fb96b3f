/** The runnable examples in examples/ against a real server: each one does what its header says. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO_APP } from '../../server/src/config.js';
import { defer, startServer } from '../../server/test/helpers.js';

function run(
  script: string,
  args: string[],
  url: string,
  env: Record<string, string> = {},
): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${script}`, ...args], {
    env: { ...process.env, PARLEY_URL: url, ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  defer(() => {
    if (child.exitCode === null) child.kill();
  });
  return { child, output: () => output };
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A loopback port nothing listens on, for a process that must be told its port before it starts. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('examples', () => {
  it('node-status prints the status transitions and exits', async () => {
    const { url } = await startServer({ apps: [DEMO_APP] });
    const { child, output } = run('node-status.ts', ['alice', '--once'], url);
    expect(await exited(child)).toBe(0);
    expect(output()).toContain('disconnected -> connecting');
    expect(output()).toContain('connecting -> connected');
    expect(output()).toMatch(/connected as alice, session \S+/);
  });

  it('node-chat carries a line from one terminal to the other', async () => {
    const { url } = await startServer({ apps: [DEMO_APP] });
    const alice = run('node-chat.ts', ['alice', 'bob'], url);
    const bob = run('node-chat.ts', ['bob', 'alice'], url);
    await until(
      () => alice.output().includes('chatting with bob') && bob.output().includes('chatting with alice'),
      'both ready',
    );
    alice.child.stdin.write('hello from alice\n');
    await until(() => bob.output().includes('alice: hello from alice'), 'the line at bob');
    alice.child.stdin.end();
    bob.child.stdin.end();
    expect(await exited(alice.child)).toBe(0);
  });

  it('echo-bot answers a message, told by the webhook and sending through the server API', async () => {
    const port = await freePort();
    const { url } = await startServer({ apps: [{ ...DEMO_APP, webhookUrl: `http://127.0.0.1:${port}/parley` }] });
    const bot = run('echo-bot.ts', ['echo'], url, { BOT_PORT: String(port) });
    await until(() => bot.output().includes(`listening on http://127.0.0.1:${port}/parley`), 'the bot');
    const alice = run('node-chat.ts', ['alice', 'echo'], url);
    await until(() => alice.output().includes('chatting with echo'), 'alice ready');
    alice.child.stdin.write('hello bot\n');
    await until(() => alice.output().includes('echo: echo: hello bot'), 'the echo at alice');
    expect(bot.output()).toContain('alice: hello bot');
    alice.child.stdin.end();
    expect(await exited(alice.child)).toBe(0);
  });

  it('pubsub publishes a line to the other subscriber, with presence', async () => {
    const { url } = await startServer({ apps: [DEMO_APP] });
    const first = run('pubsub.ts', ['news', 'ann'], url);
    await until(() => first.output().includes('on news as ann'), 'ann ready');
    const second = run('pubsub.ts', ['news', 'ben'], url);
    await until(() => second.output().includes('on news as ben'), 'ben ready');
    await until(() => first.output().includes('(ben join'), 'ben joining');
    second.child.stdin.write('hi all\n');
    await until(() => first.output().includes('ben: hi all'), 'the message at ann');
    first.child.stdin.end();
    second.child.stdin.end();
  });
});
