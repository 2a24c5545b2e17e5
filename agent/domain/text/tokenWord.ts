import { terminalText } from './controlCharacters';

/*
 * A token or key an agent answered with, checked before it is written where a shell or systemd
 * reads it: a crontab line holds a monitor's token unquoted (`exec SHIM run TOKEN`), a timer's
 * drop-in holds it in an ExecStartPre= line, and a crontab its ping key as CRONBEAT_API_TOKEN=KEY.
 * The agent makes them of letters, digits, - and _ (a UUID; cb_ and base64url). Anything else (a
 * line break, `;`, `%`, a space) from an agent that is not ours, or a proxy in between, would
 * write a command of its choosing into a crontab or a unit, often root's.
 */

const TOKEN_WORD = /^[A-Za-z0-9_-]{1,256}$/;

/** A refused value as the message quotes it: JSON leaves C1 controls and bidi overrides raw, so they are written out too. */
function quoted(value: string): string {
  return terminalText(JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value), { oneLine: true });
}

/** Why `token` (a `what`, "monitor token") cannot go into a crontab or a unit, in words; null when it can. */
export function tokenWordProblem(token: unknown, what: string): string | null {
  if (typeof token === 'string' && TOKEN_WORD.test(token)) return null;
  const shown = typeof token === 'string' ? quoted(token) : String(token);
  return `the agent answered with a ${what} that is not one (${shown}), which is never written into a crontab or a unit`;
}

/**
 * Why a monitor an agent answered with cannot have its token and id written into a crontab line
 * or a drop-in (the id goes into their comment, `# cronbeat monitor #7`), in words; null when it can.
 */
export function monitorToWriteProblem(monitor: { id: unknown; token: unknown }): string | null {
  if (!Number.isSafeInteger(monitor.id) || (monitor.id as number) < 1) {
    return `the agent answered with a monitor id that is not one (${typeof monitor.id === 'string' ? quoted(monitor.id) : String(monitor.id)}), which is never written into a crontab or a unit`;
  }
  return tokenWordProblem(monitor.token, 'monitor token');
}
