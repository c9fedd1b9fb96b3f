import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore } from '../src/store/index.js';
import { tempDir } from './helpers.js';
import { describeStoreContract } from './store-contract.js';

describeStoreContract('SQLite', async () => {
  const file = join(tempDir(), 'nested', 'parley.db');
  const config = { databaseUrl: undefined, databaseSchema: undefined, dataDir: '/unused', sqlite: file };
  return { store: await openStore(config), reopen: () => openStore(config) };
});

const pgUrl = process.env['PARLEY_TEST_PG'];

describeStoreContract(
  'PostgreSQL',
  async () => {
    // Each test gets its own schema so that parallel runs on one database never meet.
    const schema = `parley_test_${randomBytes(6).toString('hex')}`;
    const config = { databaseUrl: pgUrl, databaseSchema: schema, dataDir: '/unused', sqlite: undefined };
    return {
      store: await openStore(config),
      reopen: () => openStore(config),
      async dispose() {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        try {
          await client.query(`drop schema if exists "${schema}" cascade`);
        } finally {
          await client.end();
        }
      },
    };
  },
  Boolean(pgUrl),
);
