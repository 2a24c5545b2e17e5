import { z } from 'zod';
import { checkPublicUrl } from '../domain/access/publicUrl';
import { checkWatchdogUrl } from '../domain/agentHealth/watchdog';
import { atLeastOneOf, onlyFields } from './fields';

/* The agent's settings: the body of PATCH /api/settings and what GET /api/settings answers. */

const settingsFields = z
  .object({
    public_url: z
      .string({ error: 'The public_url field must be a URL or null.' })
      .nullable()
      .transform((value, context) => {
        if (value === null || value.trim() === '') return null;
        const checked = checkPublicUrl(value);
        if ('error' in checked) {
          context.addIssue({ code: 'custom', message: `The public_url field ${checked.error}` });
          return z.NEVER;
        }
        return checked.url;
      }),
    watchdog_url: z
      .string({ error: 'The watchdog_url field must be a URL or null.' })
      .nullable()
      .transform((value, context) => {
        if (value === null || value.trim() === '') return null;
        const checked = checkWatchdogUrl(value);
        if ('error' in checked) {
          context.addIssue({ code: 'custom', message: `The watchdog_url field ${checked.error}` });
          return z.NEVER;
        }
        return checked.url;
      }),
  })
  .partial();

/**
 * PATCH /api/settings: either field or both; any other is named in a 422, in the words every body
 * uses, and so is a body with neither, which would change nothing, as on every other PATCH.
 */
export const settingsPatch = atLeastOneOf(onlyFields(settingsFields), Object.keys(settingsFields.shape));
export type SettingsPatch = z.infer<typeof settingsPatch>;

export interface WireSettings {
  /** The public URL in effect, or null: links then use the address the page was opened at. */
  public_url: string | null;
  /** "serve" when set by `cronbeat serve --public-url` or CRONBEAT_PUBLIC_URL (the dashboard cannot change it), "dashboard", or null. */
  public_url_source: 'serve' | 'dashboard' | null;
  /**
   * The dead-man's switch the agent pings while its loop is healthy: masked as WATCHDOG_URL_MASK
   * when set (the URL is the check's secret: whoever has it can ping the check), null when not.
   */
  watchdog_url: typeof WATCHDOG_URL_MASK | null;
  /** "serve" when set by `cronbeat serve --watchdog-url` or CRONBEAT_WATCHDOG_URL, "dashboard", or null. */
  watchdog_url_source: 'serve' | 'dashboard' | null;
  /** When a watchdog ping was last answered (2xx), or null. */
  watchdog_last_ping_at: string | null;
  /** Why the watchdog is not pinging now, or why its last ping failed; null while pings are answered or none is set. */
  watchdog_problem: string | null;
}

/** What a set watchdog URL reads as, like a channel's secrets. */
export const WATCHDOG_URL_MASK = '********';
