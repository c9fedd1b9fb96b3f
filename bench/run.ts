/**
 * Runs the benchmark scenarios in bench/scenarios, one child process each so that one cannot warm or
 * starve another. `npm run bench` runs all; `npm run bench -- rpc-roundtrip` runs one. Each scenario prints one
 * JSON line last; this runner prints those lines again at the end.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const scenarioDir = join(here, 'scenarios');
const all = readdirSync(scenarioDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown scenario: ${unknown.join(', ')}; known: ${all.join(', ')}`);
  process.exit(2);
}
const chosen = wanted.length > 0 ? wanted : all;
const results: string[] = [];
let failed = false;
for (const name of chosen) {
  console.log(`\n# ${name}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(scenarioDir, `${name}.ts`)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    // im-chat climbs two sides through up to thirty steps of ten seconds each.
    timeout: 40 * 60 * 1000,
  });
  process.stdout.write(run.stdout);
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !last.startsWith('{')) failed = true;
  else results.push(last);
}
console.log('\n# results');
for (const line of results) console.log(line);
process.exit(failed ? 1 : 0);
