import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

/*
 * The agent's log: leveled JSON lines on stderr (pino), pretty when a person is watching (stderr
 * is a terminal). Every line carries the same fields, null when they do not apply, so lines can
 * be filtered by monitor, delivery or reason whatever wrote them. Standard output stays the
 * CLI's own (what `cronbeat serve` prints for the user). CRONBEAT_LOG_LEVEL picks the least
 * level written (default info).
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What a line is about, besides its text. */
export interface LogFields {
  /** Default: info. */
  level?: LogLevel;
  monitorId?: number;
  deliveryId?: number | string;
  /** The kind of alert reason the line is about (failed, late, recovered…). */
  reasonKind?: string;
}

/** Where the agent's layers write a line: a function, so tests and the desktop shell can pass their own. */
export type Log = (line: string, fields?: LogFields) => void;

/** The fields every line has. */
const EMPTY_FIELDS = { monitor_id: null, delivery_id: null, reason_kind: null };

/**
 * A message as a terminal may be shown it: a line can quote what came from outside (a receiver's
 * error, a job's output), and pretty lines go to a person's terminal, where ESC or BEL would act.
 * Control characters are written out (`\u001b`), as agent/domain/controlCharacters.ts does for
 * the CLI (this folder builds on nothing of ours); JSON lines are escaped by JSON itself.
 */
function printable(message: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  return message.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A pino logger on stderr: JSON lines, or pino-pretty's when `pretty` (default: stderr is a terminal). */
export function createLogger(options: { pretty?: boolean; level?: string } = {}): Logger {
  const level = options.level ?? (process.env.CRONBEAT_LOG_LEVEL || 'info');
  const prettyOutput = options.pretty ?? Boolean(process.stderr.isTTY);
  // Synchronous writes: a line about a crash must be out before the process ends.
  const destination = prettyOutput
    ? pretty({ destination: 2, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', messageFormat: (line, key) => printable(String(line[key])) })
    : pino.destination({ dest: 2, sync: true });
  return pino({ level, base: undefined, mixin: () => EMPTY_FIELDS }, destination);
}

/** A Log writing to `logger` at the line's level, with its fields. */
export function pinoLog(logger: Logger): Log {
  return (line, fields = {}) => {
    logger[fields.level ?? 'info'](
      {
        monitor_id: fields.monitorId ?? null,
        delivery_id: fields.deliveryId ?? null,
        reason_kind: fields.reasonKind ?? null,
      },
      line,
    );
  };
}
