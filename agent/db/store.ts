import { openDatabase, openDatabaseCheckingLater, type Db, type SqliteOptions } from './open';
import { companyRepository } from './companies';
import { apiTokenRepository } from './apiTokens';
import { serverRepository } from './servers';
import { serverAlertRepository } from './serverAlerts';
import { serverReportRepository } from './serverReports';
import { monitorRepository } from './monitors';
import { shownMonitorRepository } from './shownMonitors';
import { pulseMonitorRepository } from './pulseMonitors';
import { monitorLineRepository } from './monitorLines';
import { monitorAlertingRepository } from './monitorAlerting';
import { clockBackRepository } from './clockBack';
import { notificationRepository } from './notifications';
import { pulseRepository } from './pulses';
import { certificateRepository } from './certificates';
import { popupOutboxRepository } from './popupOutbox';
import { channelRepository } from './channels';
import { channelRoutesRepository } from './channelRoutes';
import { deliveryRepository } from './deliveries';
import { reminderRepository } from './reminders';
import { settingsRepository } from './settings';
import { maintenanceWindowRepository } from './maintenanceWindows';
import { reportRepository } from './reports';
import { quietChangeRepository } from './quietChanges';

/** The database and one repository per table, statements prepared once. */
export function createStore(db: Db) {
  const channels = channelRepository(db);
  const channelRoutes = channelRoutesRepository(db);
  const deliveries = deliveryRepository(db, { channels, routes: channelRoutes });
  return {
    db,
    companies: companyRepository(db),
    apiTokens: apiTokenRepository(db),
    servers: serverRepository(db),
    serverAlerts: serverAlertRepository(db),
    serverReports: serverReportRepository(db),
    monitors: monitorRepository(db),
    shownMonitors: shownMonitorRepository(db),
    pulseMonitors: pulseMonitorRepository(db),
    monitorLines: monitorLineRepository(db),
    monitorAlerting: monitorAlertingRepository(db),
    clockBack: clockBackRepository(db),
    pulses: pulseRepository(db),
    notifications: notificationRepository(db, deliveries),
    certificates: certificateRepository(db),
    popupOutbox: popupOutboxRepository(db),
    settings: settingsRepository(db),
    channels,
    channelRoutes,
    deliveries,
    reminders: reminderRepository(db),
    maintenanceWindows: maintenanceWindowRepository(db),
    reports: reportRepository(db),
    quietChanges: quietChangeRepository(db),
    close(): void {
      db.close();
    },
  };
}

export type Store = ReturnType<typeof createStore>;

/** Opens the database file, migrates it, and makes sure company 1 exists. */
export function openStore(file: string, now: number, sqlite: SqliteOptions = {}): Store {
  const store = createStore(openDatabase(file, sqlite));
  store.companies.ensure(1, now);
  return store;
}

/**
 * Opens the database for reading at once and checks every page meanwhile (openDatabaseCheckingLater):
 * `writable` resolves once the check passed and writes are allowed, company 1 made sure of.
 */
export function openStoreCheckingLater(file: string, now: () => number, sqlite: SqliteOptions = {}): { store: Store; writable: Promise<void> } {
  const { db, checked } = openDatabaseCheckingLater(file, sqlite);
  const store = createStore(db);
  return { store, writable: checked.then(() => store.companies.ensure(1, now())) };
}
