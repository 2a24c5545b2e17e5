import type { Store } from '../db/store';
import type { AgentEvents } from './events';
import type { Notifier } from './popups/notifier';

/** What the monitoring engine works with. */
export interface EngineContext {
  store: Store;
  events: AgentEvents;
  notifier: Notifier;
  /** The admin's zone (the agent's): a server's notice tells its moments in it, and in UTC. UTC when absent. */
  adminZone?: string;
}
