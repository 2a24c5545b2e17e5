import { describe, expect, it } from 'vitest';
import { PROMPT_MS, pulseHeaders, type Pulse } from '../../agent/client/pulses/pulses';

const at = Date.parse('2026-11-21T10:00:00Z');
const pulse: Pulse = { tokenOrSlug: 't', signal: 0, key: 'k-1', at, durationMs: 5 };

describe('the headers of a pulse attempt', () => {
  it('always carry the idempotency key and a measured duration', () => {
    expect(pulseHeaders(pulse, at)).toMatchObject({ 'Idempotency-Key': 'k-1', 'X-Cronbeat-Duration-Ms': '5' });
    expect(pulseHeaders({ ...pulse, durationMs: undefined }, at)).not.toHaveProperty('X-Cronbeat-Duration-Ms');
  });

  it('state the event time only when the attempt leaves late (a retry) or is a replay', () => {
    expect(pulseHeaders(pulse, at + PROMPT_MS)).not.toHaveProperty('X-Cronbeat-Sent-At');
    expect(pulseHeaders(pulse, at + 5_250)['X-Cronbeat-Sent-At']).toBe('2026-11-21T10:00:00.000Z');
    expect(pulseHeaders(pulse, at, true)['X-Cronbeat-Sent-At']).toBe('2026-11-21T10:00:00.000Z');
  });

  it('say how long ago the event was, on this clock, beside its time; not when this clock went back since', () => {
    expect(pulseHeaders(pulse, at + PROMPT_MS)).not.toHaveProperty('X-Cronbeat-Age-Ms');
    expect(pulseHeaders(pulse, at + 5_250)['X-Cronbeat-Age-Ms']).toBe('5250');
    expect(pulseHeaders(pulse, at, true)['X-Cronbeat-Age-Ms']).toBe('0');
    expect(pulseHeaders(pulse, at - 3_600_000, true)).not.toHaveProperty('X-Cronbeat-Age-Ms');
  });
});
