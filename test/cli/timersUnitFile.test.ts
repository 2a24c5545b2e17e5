import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dropInText, timerOfDropIn, tokenOfDropIn } from '../../agent/cli/timers/dropIn';
import { parseUnitText, periodOf, templateOf, timerGrace, timerSettings, timerTag, timespanSeconds, unescapeUnitName, withSpecifiers } from '../../agent/cli/timers/unitFile';

describe('unit files, as systemd reads them', () => {
  it('reads sections and repeated keys, skips comments, joins continued lines', () => {
    const sections = parseUnitText('# c\n[Unit]\nDescription=x\n; c\n[Timer]\nOnCalendar=Mon..Fri \\\n  02:30\nOnCalendar=Sat 12:00 UTC\n');
    // systemd puts a space for the backslash and keeps the spaces on either side of it.
    expect(sections.get('Timer')).toEqual([
      ['OnCalendar', 'Mon..Fri    02:30'],
      ['OnCalendar', 'Sat 12:00 UTC'],
    ]);
    // A byte-order mark first is skipped; a backslash escaped by another ends no line (systemd-analyze verify agrees).
    expect(parseUnitText('\uFEFF[Timer]\nOnCalendar=daily\n').get('Timer')).toEqual([['OnCalendar', 'daily']]);
    expect(parseUnitText('[Timer]\nOnCalendar=daily\\\\\nOnCalendar=weekly\n').get('Timer')).toEqual([['OnCalendar', 'daily\\\\'], ['OnCalendar', 'weekly']]);
    // So a zone continued after a space has two before it, which systemd refuses (`systemd-analyze verify` says so).
    const continued = timerSettings('c.timer', '[Timer]\nOnCalendar=Mon..Fri \\\n  02:30\nOnCalendar=12:00 \\\nUTC\nOnCalendar=13:00\\\nUTC\nOnCalendar=daily\\\n# c\n UTC\n');
    expect([continued.schedule, continued.ignored]).toEqual(['Mon..Fri 02:30\n13:00 UTC', ['OnCalendar=12:00  UTC', 'OnCalendar=daily  UTC']]);
  });

  it('reads time spans in systemd units', () => {
    expect(timespanSeconds('90')).toBe(90);
    expect(timespanSeconds('5min 20s')).toBe(320);
    expect(timespanSeconds('1h30m')).toBe(5400);
    expect(timespanSeconds('2 weeks')).toBe(1_209_600);
    expect(timespanSeconds('500ms')).toBe(0.5);
    expect(timespanSeconds('soon')).toBeNull();
    // As systemd's parse_sec (`systemd-analyze timespan`): a number without a unit is seconds
    // wherever it stands, a unit is a prefix of what follows, a sign and a bare fraction are taken.
    expect(timespanSeconds('1h30')).toBe(3630);
    expect(timespanSeconds('1sec30')).toBe(31);
    expect(timespanSeconds('1 2')).toBe(3);
    expect(timespanSeconds('.5s')).toBe(0.5);
    expect(timespanSeconds('+5min')).toBe(300);
    expect(timespanSeconds('12.34s.56')).toBeCloseTo(12.9);
    expect(timespanSeconds(' infinity ')).toBe(Infinity);
    for (const refused of ['5mins', '1hrs', '5Min', '-1s', '-0', '1e3', '1,5h', '12.34.56', '5.s', 'infinitys', '99999999999999999999s', '1 m s']) {
      expect(timespanSeconds(refused), refused).toBeNull();
    }
    expect(periodOf(5400)).toBe('@every 1h30m');
    expect(periodOf(86_400 + 61)).toBe('@every 1d1m1s');
  });

  it('takes the timer settings, systemd defaults and empty assignments included', () => {
    const text = '[Timer]\nOnCalendar=hourly\nOnCalendar=\nOnCalendar=Mon 02:30\nOnCalendar=*-*-01 04:00\nRandomizedDelaySec=30min\nPersistent=yes\n';
    expect(timerSettings('backup.timer', text)).toEqual({
      name: 'backup.timer',
      schedule: 'Mon 02:30\n*-*-01 04:00',
      unmonitorable: null,
      randomizedDelaySec: 1800,
      accuracySec: 60,
      persistent: true,
      service: 'backup.service',
      ignored: [],
    });
    const period = timerSettings('poll.timer', '[Timer]\nOnBootSec=5min\nOnUnitActiveSec=15min\nAccuracySec=1s\nUnit=poller-job.service\n');
    expect(period).toMatchObject({ schedule: '@every 15m', accuracySec: 1, persistent: false, service: 'poller-job.service' });
    expect(timerSettings('once.timer', '[Timer]\nOnBootSec=5min\n').unmonitorable).toMatch(/once after boot/);
    // Without a run after boot, OnUnitActiveSec= waits for the calendar's first run after a reboot: no one period.
    expect(timerSettings('both.timer', '[Timer]\nOnCalendar=daily\nOnUnitActiveSec=1h\n').unmonitorable).toMatch(/both/);
    // With one, a run comes at most one period after the last (the calendar only adds runs): a period.
    expect(timerSettings('both.timer', '[Timer]\nOnBootSec=10min\nOnCalendar=Mon 09:00\nOnUnitActiveSec=1d\nOnUnitActiveSec=12h\n')).toMatchObject({ schedule: '@every 12h', unmonitorable: null });
    expect(timerSettings('both.timer', '[Timer]\nOnStartupSec=1min\nOnCalendar=daily\nOnUnitInactiveSec=6h\n')).toMatchObject({ schedule: '@every 6h', unmonitorable: null });
    // A line systemd refuses is ignored there, the others kept; with none left the timer does not load.
    expect(timerSettings('m.timer', '[Timer]\nOnCalendar=0 3 * * *\nOnCalendar=Mon 02:30\n')).toMatchObject({ schedule: 'Mon 02:30', unmonitorable: null, ignored: ['OnCalendar=0 3 * * *'] });
    expect(timerSettings('m.timer', '[Timer]\nOnCalendar=25:00\n')).toMatchObject({ schedule: null, unmonitorable: 'systemd refuses every OnCalendar= of it (OnCalendar=25:00: The hour is 25, but hours go from 0 to 23.), so it does not load' });
    // With OnBootSec= it still loads, and elapses once a boot.
    expect(timerSettings('m.timer', '[Timer]\nOnCalendar=25:00\nOnBootSec=5min\n').unmonitorable).toMatch(/once after boot/);
    // An empty assignment clears the notes of the lines before it too.
    expect(timerSettings('m.timer', '[Timer]\nOnCalendar=x\nOnCalendar=\nOnCalendar=daily\n')).toMatchObject({ schedule: 'daily', ignored: [] });
    // A span systemd cannot read leaves the setting as it was; infinity never elapses.
    expect(timerSettings('r.timer', '[Timer]\nOnCalendar=daily\nRandomizedDelaySec=1h\nRandomizedDelaySec=soon\n').randomizedDelaySec).toBe(3600);
    expect(timerSettings('r.timer', '[Timer]\nOnUnitActiveSec=infinity\nOnUnitActiveSec=2h\n').schedule).toBe('@every 2h');
    // A drop-in after the unit wins, as systemd merges them.
    expect(timerSettings('x.timer', '[Timer]\nOnCalendar=daily\nAccuracySec=1h\n\n[Timer]\nAccuracySec=\n').accuracySec).toBe(60);
  });

  it('knows instances, escapes and specifiers', () => {
    expect(templateOf('fsck@dev-sda1.timer')).toBe('fsck@.timer');
    expect(templateOf('backup.timer')).toBeNull();
    expect(unescapeUnitName('dev-disk-by\\x2duuid-1234')).toBe('/dev/disk/by-uuid/1234'.slice(1));
    expect(withSpecifiers('run-%i.service', 'fsck@dev-sda1.timer')).toBe('run-dev-sda1.service');
    expect(withSpecifiers('%p-job@%i.service', 'fsck@a.timer')).toBe('fsck-job@a.service');
    expect(timerTag('fsck@dev-disk-by\\x2duuid-1234.timer')).toBe('timer:fsck_dev-disk-by-uuid-1234');
    expect(timerTag('Backup.timer')).toBe('timer:backup');
  });

  it('adds the delays systemd may put on a run to the grace', () => {
    expect(timerGrace(60, { randomizedDelaySec: 1800, accuracySec: 60 })).toBe(91);
    expect(timerGrace(5, { randomizedDelaySec: 0, accuracySec: 1 })).toBe(6);
  });
});

describe('the drop-in', () => {
  it('finds its own token again, and no other file', () => {
    const text = dropInText({ monitorId: 3, timer: 'a.timer', shim: '/opt/cronbeat x/cronbeat', token: 'Tok_en-1', url: 'http://h:1/%20' });
    expect(tokenOfDropIn(text)).toBe('Tok_en-1');
    expect(text).toMatch(/^ExecStartPre=-\/bin\/sh /m);
    expect(text).toMatch(/^ExecStopPost=-\/bin\/sh /m);
    expect(text).toContain('%%20');
    expect(tokenOfDropIn('[Service]\nExecStartPre=-/bin/true\n')).toBeNull();
  });

  it('names the timer it was written for, a colon in the name included', () => {
    const text = (timer: string) => dropInText({ monitorId: 12, timer, shim: '/s', token: 'T', url: 'http://h:1' });
    expect(timerOfDropIn(text('backup-daily.timer'))).toBe('backup-daily.timer');
    expect(timerOfDropIn(text('a:b.timer'))).toBe('a:b.timer');
    expect(timerOfDropIn('[Service]\nExecStartPre=-/bin/true\n')).toBeNull();
  });
});

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe.skipIf(!hasAnalyze)('time spans against systemd-analyze timespan', () => {
  it('reads every span as systemd does, and refuses what it refuses', () => {
    const spans = [
      '90', '1h30', '1h 30', '1h 30min', '5m', '2.5s', '.5s', '5.s', '+5min', '+.5s', '5 min', '5mins', ' infinity', 'infinitys', '1 h', '1hour30min', '1hr', '1hrs',
      '1sec30', '0', '-1s', '-0', '1e3', '1.5h', '1,5h', '5M', '5Min', '1y 2M', '1w', '1week2days', '3 days', '1msec', '1.25m', '12.34.56', '12.34 .56', '12.34s.56',
      '0x10', '010', '1 2', '1\t2', '1s2', '  5min  ', 'min', '1h30m10s', '99999999999999999999s', '30 seconds', '2minutes', '1minutes30seconds', '1d1h', '1 M', '1 m s', '3.hour',
    ];
    const differ = spans.flatMap((span) => {
      const answer = spawnSync('systemd-analyze', ['timespan', '--', span], { encoding: 'utf8' });
      const usec = /μs: (\d+)/.exec(answer.stdout)?.[1];
      const theirs = /Human: infinity/.test(answer.stdout) ? Infinity : usec === undefined ? null : Number(usec) / 1e6;
      const ours = timespanSeconds(span);
      const same = theirs === null || ours === null || !Number.isFinite(theirs) ? ours === theirs : Math.abs(ours - theirs) < 1e-9;
      return same ? [] : [`${JSON.stringify(span)}: systemd ${theirs}, cronbeat ${ours}`];
    });
    expect(differ).toEqual([]);
  });
});
