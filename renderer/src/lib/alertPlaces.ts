/*
 * Where alerts show besides the channels, as the dashboard says it: popups on the agent's desktop
 * when it has one, else only the dashboard's notifications (a headless agent shows no popups, and
 * the dashboard must not promise them). Until the agent has said, the words promise neither.
 */

/** `popups` from GET /api/agent; undefined while it is not known. */
export function withoutChannels(popups: boolean | undefined): string {
  if (popups === true) return 'on this desktop only';
  if (popups === false) return 'only in this dashboard (this agent has no desktop for popups)';
  return 'only in this dashboard';
}

/** The same, for the sentence "alerts about it stay …". */
export function stayWithoutChannels(popups: boolean | undefined): string {
  return popups === true ? 'on this desktop' : 'in this dashboard';
}
