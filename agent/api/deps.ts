import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Store } from '../db/store';
import type { AgentEvents } from '../engine/events';
import type { AuthState } from './auth';

/** What every router is built from. */
export interface ApiDeps {
  store: Store;
  events: AgentEvents;
  /** Milliseconds since the epoch; the only clock the API reads. */
  clock: () => number;
  log: (line: string) => void;
  /** Bearer authentication; a router that needs it starts with router.use(deps.requireToken). */
  requireToken: Middleware<AuthState>;
}

/** A router whose routes run after Bearer authentication. */
export type AuthedRouter = Router<AuthState>;
