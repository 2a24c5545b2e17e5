import { describe, expect, it } from 'vitest';
import { cronDReads, runPartsRuns } from '../../agent/cli/crontab/cronNames';

describe('which /etc/cron.d files cron reads', () => {
  it("Debian's cron: names of letters, digits, _ and - alone", () => {
    for (const name of ['php', 'e2scrub_all', 'certbot-renew']) expect(cronDReads(name, true)).toBe(true);
    for (const name of ['job.bak', 'job.dpkg-old', 'job.conf', '.hidden', 'job~']) expect(cronDReads(name, true)).toBe(false);
  });

  it('cronie: every name but hidden ones, #…, …~ and rpm leftovers, so job.bak and job.dpkg-old run there', () => {
    for (const name of ['php', 'job.bak', 'job.dpkg-old', 'job.dpkg-dist', 'job.conf', 'job.swp']) expect(cronDReads(name, false)).toBe(true);
    for (const name of ['.hidden', '#job#', 'job~', 'job.rpmsave', 'job.rpmorig', 'job.rpmnew']) expect(cronDReads(name, false)).toBe(false);
  });
});

describe('which files of /etc/cron.daily and its like run-parts runs', () => {
  it("Debian's run-parts: names of letters, digits, _ and - alone (no dots)", () => {
    for (const name of ['logrotate', 'apt-compat', 'man_db']) expect(runPartsRuns(name, true)).toBe(true);
    for (const name of ['backup.sh', 'logrotate.dpkg-old', '.placeholder', 'job~']) expect(runPartsRuns(name, true)).toBe(false);
  });

  it("cronie's run-parts script: dots too, but not hidden files, …~, …, and editors' or rpm's leftovers", () => {
    for (const name of ['logrotate', 'backup.sh', 'logrotate.dpkg-old']) expect(runPartsRuns(name, false)).toBe(true);
    for (const name of ['.placeholder', 'job~', 'job,', 'job,v', 'job.swp', 'job.cfsaved', 'job.rpmsave', 'job.rpmnew']) expect(runPartsRuns(name, false)).toBe(false);
  });
});
