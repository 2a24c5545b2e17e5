import { createHash } from 'node:crypto';

/*
 * Slows down token guessing. Each client (remote address) has a budget of failed
 * authentications that refills over time; once it is spent, requests from that client get 429
 * with Retry-After instead of having their token checked, so guessing runs at the refill rate.
 * A token that has already authenticated is still checked (and passes), so a script or dashboard
 * using the right token from the same address is never locked out by someone guessing beside it.
 */

export interface AuthLimiterPolicy {
  /** Failures a client may make in a burst before it is slowed down. */
  burst: number;
  /** One more failure is allowed every refillMs. */
  refillMs: number;
}

export const DEFAULT_AUTH_LIMITER_POLICY: AuthLimiterPolicy = { burst: 100, refillMs: 5_000 };

/** Clients and known tokens are forgotten beyond these counts, so memory stays bounded. */
const MAX_CLIENTS = 10_000;
const MAX_KNOWN_TOKENS = 1_000;

interface Budget {
  left: number;
  at: number;
}

const fingerprint = (token: string) => createHash('sha256').update(token).digest('base64');

export class FailedAuthLimiter {
  private readonly budgets = new Map<string, Budget>();
  private readonly knownTokens = new Set<string>();

  constructor(private readonly policy: AuthLimiterPolicy = DEFAULT_AUTH_LIMITER_POLICY) {}

  /** Seconds `client` must wait before `token` is checked; 0 when it may be checked now. */
  retryAfter(client: string, token: string, now: number): number {
    const left = this.budgetLeft(client, now);
    if (left >= 1 || (token !== '' && this.knownTokens.has(fingerprint(token)))) return 0;
    return Math.max(1, Math.ceil(((1 - left) * this.policy.refillMs) / 1000));
  }

  failed(client: string, now: number): void {
    const left = this.budgetLeft(client, now) - 1;
    this.budgets.delete(client); // re-inserted last, so the oldest entries are the first forgotten
    this.budgets.set(client, { left, at: now });
    if (this.budgets.size > MAX_CLIENTS) this.budgets.delete(this.budgets.keys().next().value!);
  }

  succeeded(token: string): void {
    const key = fingerprint(token);
    this.knownTokens.delete(key);
    this.knownTokens.add(key);
    if (this.knownTokens.size > MAX_KNOWN_TOKENS) this.knownTokens.delete(this.knownTokens.values().next().value!);
  }

  private budgetLeft(client: string, now: number): number {
    const budget = this.budgets.get(client);
    if (!budget) return this.policy.burst;
    const refilled = budget.left + Math.max(0, now - budget.at) / this.policy.refillMs;
    return Math.min(this.policy.burst, refilled);
  }
}
