/** The runnable examples in examples/ against a real server: each one does what its header says. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEMO_APP } from '../../server/src/config.js';
import { defer, startServer } from '../../server/test/helpers.js';

function run(
  script: string,
  args: string[],
  url: string,
): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${script}`, ...args], {
    env: { ...process.env, PARLEY_URL: url },
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
