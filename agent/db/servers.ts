import type { Db } from './open';

export interface ServerRow {
  id: number;
  company_id: number;
  name: string;
  identifier: string;
  ip_address: string;
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface NewServer {
  companyId: number;
  name: string;
  identifier: string;
  ipAddress: string;
  now: number;
}

const COLUMNS = 'id, company_id, name, identifier, ip_address, deleted_at, created_at, updated_at';

/** Servers of a company; deleted ones are kept (soft delete) but never listed or found. */
export function serverRepository(db: Db) {
  const list = db.prepare(`SELECT ${COLUMNS} FROM servers WHERE company_id = ? AND deleted_at IS NULL ORDER BY id`);
  const find = db.prepare(`SELECT ${COLUMNS} FROM servers WHERE id = ? AND company_id = ? AND deleted_at IS NULL`);
  const findByIdentifier = db.prepare(
    `SELECT ${COLUMNS} FROM servers WHERE identifier = ? AND company_id = ? AND deleted_at IS NULL`,
  );
  const insert = db.prepare(
    `INSERT INTO servers (company_id, name, identifier, ip_address, created_at, updated_at)
     VALUES (@companyId, @name, @identifier, @ipAddress, @now, @now)`,
  );
  const softDelete = db.prepare(
    'UPDATE servers SET deleted_at = @now, updated_at = @now WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL',
  );

  const edit = db.prepare(
    `UPDATE servers SET name = @name, identifier = @identifier, ip_address = @ipAddress, updated_at = @now
     WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL`,
  );

  return {
    list(companyId: number): ServerRow[] {
      return list.all(companyId) as ServerRow[];
    },
    find(companyId: number, id: number): ServerRow | null {
      return (find.get(id, companyId) as ServerRow | undefined) ?? null;
    },
    findByIdentifier(companyId: number, identifier: string): ServerRow | null {
      return (findByIdentifier.get(identifier, companyId) as ServerRow | undefined) ?? null;
    },
    create(input: NewServer): ServerRow {
      const { lastInsertRowid } = insert.run(input);
      return find.get(lastInsertRowid, input.companyId) as ServerRow;
    },
    /** Stores an edit (validated by the caller); false when there was no such live server. */
    edit(companyId: number, id: number, change: Omit<NewServer, 'companyId'>): boolean {
      return edit.run({ ...change, id, companyId }).changes === 1;
    },
    /** Returns false when there was no such live server. */
    delete(companyId: number, id: number, now: number): boolean {
      return softDelete.run({ id, companyId, now }).changes === 1;
    },
  };
}
