import type { Db } from './open';

/** The agent's own settings (migration 17), one value per key; today the public URL set in the dashboard. */
export type SettingKey = 'public_url';

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

/** Where the public URL in effect comes from: `serve --public-url` / CRONBEAT_PUBLIC_URL, the dashboard, or nowhere. */
export type PublicUrlSource = 'serve' | 'dashboard' | null;

export interface PublicUrlSetting {
  /** The public URL in effect; null when none is set. */
  current(): string | null;
  source(): PublicUrlSource;
}

/** The public URL: the one the agent was started with wins over the dashboard's setting. */
export function publicUrlSetting(settings: Pick<SettingsRepository, 'get'>, configured: string | null): PublicUrlSetting {
  return {
    current: () => configured ?? settings.get('public_url'),
    source: () => (configured !== null ? 'serve' : settings.get('public_url') !== null ? 'dashboard' : null),
  };
}
