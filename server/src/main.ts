/**
 * The server process: config -> server -> listen, and a graceful close on SIGTERM or SIGINT.
 * Run with `npm start -w parley-server` (or `tsx src/main.ts`).
 */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createParleyServer } from './server.js';
import { SqliteFileInUseError } from './store/sqlite-file.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  process.on('uncaughtException', (err) => logger.fatal({ err }, 'uncaught exception'));
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));

  const server = createParleyServer(config, { logger });
  const { url } = await server.listen();
  logger.info(`Parley is up: ${url} (app at ${url}/h5/)`);

  let stopping = false;
  const stop = (signal: string) => {
    // A second signal while closing means the operator wants out now.
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'closing');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  // A file another process holds is the operator's to sort out: its message says how, and a stack adds nothing.
  const told =
    err instanceof SqliteFileInUseError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`Parley failed to start: ${told}\n`);
  process.exit(1);
});
