import { isIP } from 'node:net';

/*
 * Slows down guessing of credentials (API tokens, sign-in codes). Each client has a budget of
 * failed attempts that refills over time; once it is spent, a wrong credential from that client
 * gets 429 with Retry-After instead of 401.
 *
 * Three rules keep it from becoming a way to lock people out:
 * - Only a credential that was presented and is wrong spends the budget. A request with none
 *   (what any web page can make the browser send, `no-cors`, without an Authorization header)
 *   spends nothing.
 * - A right credential always gets in, throttled or not: it is checked before the budget is.
 *   Guessing stays out of reach because of the credential's size (256-bit tokens, 128-bit codes
 *   that expire in 15 min), not because of this limiter, which only keeps a guesser noisy and cheap.
 * - A "client" is a machine, not an address: all of 127.0.0.0/8 and ::1 are one client (this
 *   machine), an IPv6 address counts by its /64 (what one host is usually given), so picking
 *   another source address does not buy another budget.
 */

export interface AuthLimiterPolicy {
  /** Failures a client may make in a burst before it is slowed down. */
  burst: number;
  /** One more failure is allowed every refillMs. */
  refillMs: number;
}

export const DEFAULT_AUTH_LIMITER_POLICY: AuthLimiterPolicy = { burst: 100, refillMs: 5_000 };

/** Clients are forgotten beyond this count, so memory stays bounded. */
const MAX_CLIENTS = 10_000;

interface Budget {
  left: number;
  at: number;
}

/** The machine a remote address stands for: "loopback" for this one, an IPv6 /64, else the IPv4 address. */
export function clientKey(address: string | undefined): string {
  const plain = (address ?? '').toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  if (plain === '::1' || /^127\./.test(plain)) return 'loopback';
  if (isIP(plain) === 6) return `${expandIpv6(plain).slice(0, 4).join(':')}::/64`;
  return plain;
}

/** The eight 16-bit groups of an IPv6 address, "::" expanded (a zone such as %eth0 dropped). */
function expandIpv6(address: string): string[] {
  const [head, tail = ''] = address.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const fill = address.includes('::') ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...fill, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}

export class FailedAuthLimiter {
  private readonly budgets = new Map<string, Budget>();

  constructor(private readonly policy: AuthLimiterPolicy = DEFAULT_AUTH_LIMITER_POLICY) {}

  /** Seconds `client` must wait before its next wrong credential is answered 401 again; 0 when none. */
  retryAfter(client: string, now: number): number {
    const left = this.budgetLeft(client, now);
    if (left >= 1) return 0;
    return Math.max(1, Math.ceil(((1 - left) * this.policy.refillMs) / 1000));
  }

  /** Spends one failure of `client`'s budget. */
  failed(client: string, now: number): void {
    const left = Math.max(0, this.budgetLeft(client, now) - 1);
    this.budgets.delete(client); // re-inserted last, so the oldest entries are the first forgotten
    this.budgets.set(client, { left, at: now });
    if (this.budgets.size > MAX_CLIENTS) this.budgets.delete(this.budgets.keys().next().value!);
  }

  private budgetLeft(client: string, now: number): number {
    const budget = this.budgets.get(client);
    if (!budget) return this.policy.burst;
    const refilled = budget.left + Math.max(0, now - budget.at) / this.policy.refillMs;
    return Math.min(this.policy.burst, refilled);
  }
}

