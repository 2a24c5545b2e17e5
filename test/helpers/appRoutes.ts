import type Router from '@koa/router';
import { routers } from '../../agent/api/app';
import type { ApiDeps } from '../../agent/api/deps';
import type { TestAgent } from './testAgent';

/** Every route the app serves (HEAD aside), read from the routers themselves, so a route added later is covered too. */
export function appRoutes(agent: TestAgent): Array<{ method: string; path: string }> {
  const deps: ApiDeps = {
    store: agent.store,
    events: agent.events,
    clock: agent.clock,
    log: () => {},
    certificateChecks: {} as ApiDeps['certificateChecks'],
    deliveries: agent.deliveries,
    requireToken: async (_ctx, next) => next(),
    pulseRecorder: { record: async () => true },
  };
  const routes: Array<{ method: string; path: string }> = [];
  for (const make of routers) {
    for (const layer of (make(deps) as Router).stack) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) routes.push({ method, path: String(layer.path) });
    }
  }
  return routes;
}
