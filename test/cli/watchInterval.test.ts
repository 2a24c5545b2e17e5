import { describe, expect, it } from 'vitest';
import { learnedInterval, runsAfter, watchStateFile } from '../../agent/cli/watchState';

const MIN = 60_000;
const at = (minutes: number) => Date.UTC(2026, 10, 28, 10, 0) + minutes * MIN;

describe('the interval a --once watcher reports without --interval', () => {
  it('says a day until it has seen three gaps, so its first runs never make it look quiet', () => {
    expect(learnedInterval([], at(0))).toBe(86_400);
    expect(learnedInterval([at(0)], at(5))).toBe(86_400);
    expect(learnedInterval([at(0), at(5)], at(10))).toBe(86_400);
  });

  it('learns how often cron starts it: every 5 minutes reports 300 s, daily 86,400 s', () => {
    expect(learnedInterval([at(0), at(5), at(10)], at(15))).toBe(300);
    expect(learnedInterval([at(0), at(1440), at(2880)], at(4320))).toBe(86_400);
  });

  it('takes the longest gap, to the nearest minute, so a late or skipped run leaves it no shorter than cron starts it', () => {
    expect(learnedInterval([at(0), at(5), at(15)], at(20))).toBe(600);
    expect(learnedInterval([at(0), at(5), at(10)], at(15) + 2_000)).toBe(300);
    expect(learnedInterval([at(0), at(5), at(10)], at(15) + 40_000)).toBe(360);
  });

  it('ignores runs by hand less than a minute apart, which cron cannot start', () => {
    expect(learnedInterval([at(0), at(5), at(5) + 10_000, at(10)], at(10) + 5_000)).toBe(86_400);
    expect(learnedInterval([at(0), at(5), at(5) + 10_000, at(10), at(10) + 5_000], at(15))).toBe(300);
  });

  it('keeps the latest 8 start times, dropping those after a clock set back', () => {
    const runs = [0, 5, 10, 15, 20, 25, 30, 35].map(at);
    expect(runsAfter(runs, at(40))).toEqual([5, 10, 15, 20, 25, 30, 35, 40].map(at));
    expect(runsAfter([at(0), at(50)], at(40))).toEqual([at(0), at(40)]);
    expect(runsAfter(undefined, at(0))).toEqual([at(0)]);
  });
});

describe("a watcher's state file", () => {
  it('is one per server for the machine, and one per set of files given, whatever their order', () => {
    expect(watchStateFile('/d', 'crontab-watch', 'web 1')).toBe('/d/crontab-watch-web_1.json');
    const ab = watchStateFile('/d', 'crontab-watch', 'web-1', ['/a', '/b']);
    expect(ab).toMatch(/^\/d\/crontab-watch-web-1-files-[0-9a-f]{12}\.json$/);
    expect(watchStateFile('/d', 'crontab-watch', 'web-1', ['/b', '/a'])).toBe(ab);
    expect(watchStateFile('/d', 'crontab-watch', 'web-1', ['/a'])).not.toBe(ab);
  });
});
