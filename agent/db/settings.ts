import type { Db } from './open';

/** The agent's own settings (migration 17), one value per key: what the dashboard set. */
export type SettingKey = 'public_url' | 'watchdog_url';

export function settingsRepository(db: Db) {
  const get = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  const put = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM settings WHERE key = ?');
  return {
    get(key: SettingKey): string | null {
      return (get.get(key) as string | undefined) ?? null;
    },
    /** Sets `key`, or removes it for null. */
    set(key: SettingKey, value: string | null, now: number): void {
      if (value === null) remove.run(key);
      else put.run({ key, value, now });
    },
  };
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;

/** Where a setting in effect comes from: a flag of `serve` (or its environment variable), the dashboard, or nowhere. */
export type SettingSource = 'serve' | 'dashboard' | null;
export type PublicUrlSource = SettingSource;

export interface ServeOrDashboardSetting {
  /** The value in effect; null when none is set. */
  current(): string | null;
  source(): SettingSource;
}
export type PublicUrlSetting = ServeOrDashboardSetting;

/** A setting the agent may be started with, which then wins over the dashboard's. */
export function serveOrDashboardSetting(settings: Pick<SettingsRepository, 'get'>, key: SettingKey, configured: string | null): ServeOrDashboardSetting {
  return {
    current: () => configured ?? settings.get(key),
    source: () => (configured !== null ? 'serve' : settings.get(key) !== null ? 'dashboard' : null),
  };
}

/** The public URL: `serve --public-url` or CRONBEAT_PUBLIC_URL, else the dashboard's. */
export function publicUrlSetting(settings: Pick<SettingsRepository, 'get'>, configured: string | null): PublicUrlSetting {
  return serveOrDashboardSetting(settings, 'public_url', configured);
}
