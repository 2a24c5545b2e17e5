import { openDatabase, type Db, type SqliteOptions } from './open';
import { companyRepository } from './companies';
import { apiTokenRepository } from './apiTokens';
import { serverRepository } from './servers';
import { serverAlertRepository } from './serverAlerts';
import { serverReportRepository } from './serverReports';
import { monitorRepository } from './monitors';
import { monitorLineRepository } from './monitorLines';
import { notificationRepository } from './notifications';
import { pulseRepository } from './pulses';
import { certificateRepository } from './certificates';
import { popupOutboxRepository } from './popupOutbox';
import { channelRepository } from './channels';
import { channelRoutesRepository } from './channelRoutes';
import { deliveryRepository } from './deliveries';

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
    monitorLines: monitorLineRepository(db),
    pulses: pulseRepository(db),
    notifications: notificationRepository(db, deliveries),
    certificates: certificateRepository(db),
    popupOutbox: popupOutboxRepository(db),
    channels,
    channelRoutes,
    deliveries,
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
