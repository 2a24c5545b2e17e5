import { describe, expect, it } from 'vitest';
import { deliveryLabel, describeDelivery } from '../../renderer/src/components/DeliveryList';
import type { Delivery } from '../../renderer/src/api/types';

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

// The delivery tooltip said "next try 2026-11-25T14:32:00.000000Z".
describe('the delivery tooltip', () => {
  const base = { id: 'x', attempts: 2, channel: { id: 1, name: 'Ops', kind: 'webhook' }, sent_at: null, last_error: 'HTTP 503', next_attempt_at: '2026-11-25T14:32:00.000000Z' };

  it('says the next try in the viewer\'s time with UTC beside it, never as an ISO timestamp', () => {
    const text = describeDelivery({ ...base, status: 'pending' } as unknown as Delivery);
    expect(text).not.toMatch(ISO);
    expect(text).toContain('next try');
    expect(text).toContain('2026-11-25 14:32:00 UTC');
    expect(text).toContain('HTTP 503');
  });

  it('says when a sent one went, the same way', () => {
    const text = describeDelivery({ ...base, status: 'sent', last_error: null, sent_at: '2026-11-25T14:33:05.000000Z' } as unknown as Delivery);
    expect(text).not.toMatch(ISO);
    expect(text).toMatch(/^Sent .*\(2026-11-25 14:33:05 UTC\) \(2 attempts\)$/);
  });

  it("shows a sent mail's answer, which names the recipients the mail server refused while it took the others", () => {
    const answer = 'The mail server refused a recipient, who did not get this: gone@example.com (550 5.1.1 No such user). 250 OK';
    const mail = { ...base, channel: { id: 2, name: 'Mail', kind: 'email' }, status: 'sent', last_error: null, sent_at: '2026-11-25T14:33:05.000000Z', response_body: answer };
    expect(describeDelivery(mail as unknown as Delivery)).toMatch(
      /^Sent .* \(2 attempts\): The mail server refused a recipient, who did not get this: gone@example\.com \(550 5\.1\.1 No such user\)\. 250 OK$/,
    );
    // A webhook's answer (a receiver's page) stays out of the tooltip.
    expect(describeDelivery({ ...mail, channel: base.channel, response_body: '<html>ok</html>' } as unknown as Delivery)).not.toContain('<html>');
  });

  it('a delivery held by quiet hours reads "waiting until" their end, in the badge and the tooltip', () => {
    const end = new Date();
    end.setHours(23, 59, 0, 0);
    const held = { ...base, status: 'pending', attempts: 0, last_error: null, next_attempt_at: end.toISOString(), held_until: end.toISOString() } as unknown as Delivery;
    expect(deliveryLabel(held)).toBe('waiting until 23:59');
    expect(describeDelivery(held)).toMatch(/^Held by the channel's quiet hours: sent when they end, 23:59 today \(.* UTC\)$/);
    expect(deliveryLabel({ ...held, held_until: null } as Delivery)).toBe('waiting');
  });
});
