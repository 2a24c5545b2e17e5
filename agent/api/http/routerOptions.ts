/**
 * Every router's options: a path matches only in the letter case the spec spells it, as Laravel's
 * routes do, so `/API/servers` is the API's 404 (as `/API/nothing` is) rather than a second name
 * for the list, and `/api/Servers/alert` never reaches `/api/servers/:id` as the server "alert".
 */
export const ROUTER_OPTIONS = { sensitive: true } as const;
