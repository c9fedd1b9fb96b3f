/** Log levels, from most to least verbose. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A logger the SDK writes to. The default writes nothing; pass `console` or your own to see its diagnostics. */
export type Logger = Record<LogLevel, (message: string, context?: Record<string, unknown>) => void>;

const noop = (): void => undefined;

/** A logger that discards everything. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
