/**
 * A resource as the database keeps it: the same fields, its API timestamps (the `Time` fields)
 * as milliseconds since the epoch, null where the API shows null. The store's rows are built
 * from the contract's resources this way, so a field is named once.
 */
export type Stored<Resource, Time extends keyof Resource> = Omit<Resource, Time> & {
  [Field in Time]: null extends Resource[Field] ? number | null : number;
};
