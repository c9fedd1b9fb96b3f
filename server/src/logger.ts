import { pino, type Logger } from 'pino';

/** The server's logger: pino, passed down to every part that logs. */
export type { Logger };

/** Log levels the config accepts. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A log level the config accepts. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Creates the process logger at `level`, writing JSON lines to stdout. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, name: 'parley' });
}

/** A logger that drops everything, for tests and tools. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
