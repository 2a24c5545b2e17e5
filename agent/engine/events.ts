import { EventEmitter } from 'node:events';

/**
 * Something changed that a live view (dashboard over SSE, tray icon) should refresh for.
 * `deleted` says the thing is gone, so a view drops it instead of asking for it (and getting a 404).
 */
export type AgentEvent =
  | { type: 'monitor.changed'; companyId: number; monitorId: number; deleted?: true }
  | { type: 'server.changed'; companyId: number; serverId: number; deleted?: true }
  | { type: 'certificate.changed'; companyId: number; certificateId: number; deleted?: true }
  | { type: 'notification.created'; companyId: number; notificationId: string }
  | { type: 'channel.changed'; companyId: number; channelId: number; deleted?: true }
  | { type: 'maintenance.changed'; companyId: number; windowId: number; deleted?: true }
  | { type: 'delivery.changed'; companyId: number; notificationId: string }
  // An API key (or a dashboard session) was revoked: its live streams end now. Never sent to a client.
  | { type: 'key.revoked'; companyId: number; tokenId: number }

  // One notification's read state changed (notificationId), or all were marked read (null).
  | { type: 'notification.read'; companyId: number; notificationId: string | null };

/** A typed in-process event bus shared by the API, the engine and the desktop shell. */
export class AgentEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit(event: AgentEvent): void {
    this.emitter.emit('event', event);
  }

  /** Subscribes; returns the function that unsubscribes. */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** The agent is stopping: long-lived streams (the dashboard's /api/events) end now rather than hold the server open. */
  close(): void {
    this.emitter.emit('close');
  }

  /** Calls `listener` once when the agent stops; returns the function that unsubscribes. */
  onClose(listener: () => void): () => void {
    this.emitter.once('close', listener);
    return () => this.emitter.off('close', listener);
  }
}
