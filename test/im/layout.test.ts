/**
 * IMC-17: chat messages of one scene share one hidden class however they were made (created, sent, pushed, copied
 * into the cache, marked read). Checked in a child process with V8's `%HaveSameMap` (test/support/layout-probe.ts).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('../support/layout-probe.ts', import.meta.url));

describe('message layout', () => {
  it('IMC-17: every group message has one hidden class, and every private message one', () => {
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', PROBE], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(JSON.parse(output.trim())).toEqual({ group: 1, private: 1 });
  });
});
