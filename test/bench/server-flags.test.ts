import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, serverNodeFlags } from '../../bench/server-process.js';

describe('benchmark servers run with the server start script flags', () => {
  it("gives each benchmark server the Node flags of server/package.json's start script", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../server/package.json', import.meta.url), 'utf8')) as {
      scripts: { start: string };
    };
    const [command, ...words] = pkg.scripts.start.split(' ');
    expect(command).toBe('node');
    const flags = words.slice(0, words.indexOf('--import'));
    expect(flags).toEqual([...SERVER_NODE_FLAGS]);
    expect(serverNodeFlags({})).toEqual(flags);
  });

  it('takes BENCH_SERVER_NODE_FLAGS instead, empty for Node defaults', () => {
    expect(serverNodeFlags({ BENCH_SERVER_NODE_FLAGS: '' })).toEqual([]);
    expect(serverNodeFlags({ BENCH_SERVER_NODE_FLAGS: ' --max-semi-space-size=32  --trace-gc ' })).toEqual([
      '--max-semi-space-size=32',
      '--trace-gc',
    ]);
  });
});
