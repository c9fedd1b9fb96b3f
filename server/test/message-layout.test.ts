/**
 * A stored message has one hidden class however the SQLite store made it: stored by a send or an append, or read
 * back from a row. Built from a rest and a spread instead, the send path's messages had a layout of their own, and
 * the collector promoted about 750 bytes per message (docs/benchmarks.md). Checked in a child process with V8's
 * `%HaveSameMap` (server/test/message-layout-probe.ts).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('./message-layout-probe.ts', import.meta.url));

describe('stored message layout', () => {
  it('every message the SQLite store hands out has one hidden class', () => {
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', PROBE], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(JSON.parse(output.trim())).toEqual({ messages: 24, maps: 1 });
  });
});
