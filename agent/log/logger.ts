import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { terminalText } from '../domain/text/controlCharacters';

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

/** A pino logger on stderr: JSON lines, or pino-pretty's when `pretty` (default: stderr is a terminal). */
export function createLogger(options: { pretty?: boolean; level?: string } = {}): Logger {
  const level = options.level ?? (process.env.CRONBEAT_LOG_LEVEL || 'info');
  const prettyOutput = options.pretty ?? Boolean(process.stderr.isTTY);
  // Synchronous writes: a line about a crash must be out before the process ends.
  // A pretty line goes to a person's terminal and can quote what came from outside (a receiver's
  // error, a job's output), where ESC or BEL would act: control characters written out as the CLI's are.
  const destination = prettyOutput
    ? pretty({ destination: 2, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', messageFormat: (line, key) => terminalText(String(line[key])) })
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
