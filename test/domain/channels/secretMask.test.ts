import { describe, expect, it } from 'vitest';
import { maskAlertSecrets, maskSecrets } from '../../../agent/domain/channels/secretMask';
import type { Alert } from '../../../agent/domain/alerts/alert';

// The shapes of secrets masked in what a channel is sent (docs/security.md, "Secrets in job output").

describe('maskSecrets', () => {
  it.each([
    ['export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG done', 'export AWS_SECRET_ACCESS_KEY=*** done'],
    ['{"password": "hunter 2", "user": "bob"}', '{"password": "***", "user": "bob"}'],
    ["db_passwd='x y' PGPASSWORD=abc123 pwd: zz", "db_passwd='***' PGPASSWORD=*** pwd: ***"],
    ['api_key=abc apikey: def X-Api-Key: ghi client_secret=jkl', 'api_key=*** apikey: *** X-Api-Key: *** client_secret=***'],
    ['GITHUB_TOKEN=abc auth=xyz credentials: u1', 'GITHUB_TOKEN=*** auth=*** credentials: ***'],
    ['curl -H "Authorization: Bearer eyJhbGciOi.J9.xx" https://api', 'curl -H "Authorization: Bearer ***" https://api'],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic ***'],
    ['sent bearer abc.def-ghi', 'sent bearer ***'],
    ['git clone https://bob:s3cr3t@github.com/x/y.git', 'git clone https://bob:***@github.com/x/y.git'],
    ['postgres://app:p%40ss@db:5432/x', 'postgres://app:***@db:5432/x'],
    ['found AKIAIOSFODNN7EXAMPLE in log', 'found AKIA*** in log'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789 github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'ghp_*** github_pat_***'],
    ['slack xoxb-1234-5678-abcdefghij, our cb_abcdefghijklmnopqrstuvwxyz', 'slack xoxb-***, our cb_***'],
    ['https://x.example/?access_token=abc&page=2', 'https://x.example/?access_token=***&page=2'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nafter', '-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----\nafter'],
    ['-----BEGIN PRIVATE KEY-----\nMIIEow\n(cut off)', '-----BEGIN PRIVATE KEY-----\n***'],
    ['XYZbase64\nmore\n-----END OPENSSH PRIVATE KEY-----\nafter', '***\n-----END OPENSSH PRIVATE KEY-----\nafter'],
  ])('%j', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });

  // Shapes that leaked the secret (or part of it) while saying they were masked.
  it.each([
    // Ruby's and Perl's hash rocket: the ">" was taken for the value, and the password sent.
    [':password => "hunter2", :user => "bob"', ':password => "***", :user => "bob"'],
    ["{ 'api_key' => 's3cr3t' }", "{ 'api_key' => '***' }"],
    // JSON inside a JSON string (a structured log line quoting another).
    ['{"msg":"{\\"password\\":\\"hunter2\\",\\"user\\":\\"bob\\"}"}', '{"msg":"{\\"password\\":\\"***\\",\\"user\\":\\"bob\\"}"}'],
    // An escaped quote inside a JSON value: the rest of the value went out.
    ['{"password":"hun\\"ter2","user":"bob"}', '{"password":"***","user":"bob"}'],
    // An unencoded "@" in a URL's password: the part after it went out.
    ['mysql://root:s3cr@t@db:3306/app', 'mysql://root:***@db:3306/app'],
    // A PGP private key is a private key block too.
    ['-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----\nafter', '-----BEGIN PGP PRIVATE KEY BLOCK-----\n***\n-----END PGP PRIVATE KEY BLOCK-----\nafter'],
    ['lQOYBF\nabc\n-----END PGP PRIVATE KEY BLOCK-----\nafter', '***\n-----END PGP PRIVATE KEY BLOCK-----\nafter'],
    // A command line a job echoed (`set -x`), as the crontab's masking reads it; `--no-password` takes no value.
    ['+ mysqldump --password hunter2 --user bob app', '+ mysqldump --password *** --user bob app'],
    ['+ curl --oauth2-bearer "abc def" --token-file /run/t x', '+ curl --oauth2-bearer "***" --token-file *** x'],
    ['pg_dump --no-password -f out.sql', 'pg_dump --no-password -f out.sql'],
    // A key a log coloured (its output forced to colour, or a terminal's recording).
    ['\u001b[33mpassword\u001b[0m: hunter2 done', '\u001b[33mpassword\u001b[0m: *** done'],
    // A quoted value whose closing quote never came (the output cut off there).
    ['password: "hunter2\nnext line', 'password: "***\nnext line'],
    // "pass" names a password as the crontab's masking reads it (DB_PASS, passphrase).
    ['DB_PASS=hunter2 SMTP_PASS: x passphrase=y', 'DB_PASS=*** SMTP_PASS: *** passphrase=***'],
  ])('%j', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });

  it('leaves ordinary output alone, and masks a masked text to itself', () => {
    const plain = 'pg_dump: error: connection to server at "127.0.0.1", port 5432 failed: Connection refused\n12 rows, 3 s';
    expect(maskSecrets(plain)).toBe(plain);
    const once = maskSecrets('TOKEN=abc Authorization: Bearer xyz https://u:p@h/');
    expect(maskSecrets(once)).toBe(once);
  });

  it('takes time in proportion to the text: no line a job prints holds the agent', () => {
    // A first version took 15 s on the first of these (each 4,000 characters, as much as an alert keeps).
    for (const text of ['key-'.repeat(1000), 'a-'.repeat(2000), 'token='.repeat(666), 'http://a:'.repeat(444), '-----BEGIN X PRIVATE KEY-----'.repeat(130)]) {
      const started = performance.now();
      maskSecrets(text);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });

  it('masks an alert\'s output and other words, and nothing else', () => {
    const alert: Alert = {
      event: 'monitor.failed',
      at: '2026-11-21T10:00:00.000000Z',
      reason: { kind: 'failed', exit_code: 1 },
      monitor: { id: 1, name: 'token=rotate', slug: null, tags: [], schedule: '* * * * *', timezone: 'UTC', grace_minutes: 1 },
      server: null,
      run: { started_at: null, ended_at: null, duration_ms: null, exit_code: 1, output_tail: 'PASSWORD=x', output_truncated: false },
      expected_at: null,
    };
    expect(maskAlertSecrets(alert)).toEqual({ ...alert, run: { ...alert.run, output_tail: 'PASSWORD=***' } });
    expect(alert.run!.output_tail).toBe('PASSWORD=x');
    const other: Alert = { ...alert, reason: { kind: 'other', title: 'Cron job changed', description: '0 3 * * * MYSQL_PWD=s3 mysqldump' }, run: null };
    expect(maskAlertSecrets(other).reason).toEqual({ kind: 'other', title: 'Cron job changed', description: '0 3 * * * MYSQL_PWD=*** mysqldump' });
  });

  it('masks a crontab change\'s command lines, whose words every channel makes from them, and keeps its times', () => {
    const changed: Alert = {
      event: 'server',
      at: '2026-11-21T10:00:00.000000Z',
      reason: {
        kind: 'cron_changed',
        change: 'altered',
        username: 'root',
        command: '0 3 * * * MYSQL_PWD=s3 mysqldump',
        previous_command: '0 2 * * * MYSQL_PWD=s2 mysqldump',
        server_identifier: 'db-1',
      },
      monitor: null,
      server: { id: 1, name: 'db' },
      run: null,
      expected_at: null,
    };
    expect(maskAlertSecrets(changed).reason).toEqual({
      ...changed.reason,
      command: '0 3 * * * MYSQL_PWD=*** mysqldump',
      previous_command: '0 2 * * * MYSQL_PWD=*** mysqldump',
    });
    const quiet: Alert = { ...changed, reason: { kind: 'server_quiet', server_identifier: 'db-1', last_report_at: '2026-11-21T09:00:00.000000Z', interval_seconds: 60 } };
    expect(maskAlertSecrets(quiet)).toEqual(quiet);
  });
});
