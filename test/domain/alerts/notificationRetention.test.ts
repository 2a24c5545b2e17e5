import { describe, expect, it } from 'vitest';
import { NOTIFICATION_RETENTION_DAYS, pruneBefore } from '../../../agent/domain/alerts/notificationRetention';

const NOW = Date.UTC(2026, 10, 28);
const AGE_LIMIT = NOW - NOTIFICATION_RETENTION_DAYS * 24 * 60 * 60 * 1000;

describe('which notifications are old enough to go', () => {
  it('those past the retention period, when the company has no more than it keeps', () => {
    expect(pruneBefore(NOW, null)).toBe(AGE_LIMIT);
  });

  it('also those older than the oldest of the newest kept, however young', () => {
    expect(pruneBefore(NOW, NOW - 1000)).toBe(NOW - 1000);
  });

  it('never those inside the retention period because the newest kept reach further back', () => {
    expect(pruneBefore(NOW, AGE_LIMIT - 5000)).toBe(AGE_LIMIT);
  });
});
