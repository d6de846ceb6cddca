import { v7 } from 'uuid';

/** A new sortable id (UUIDv7): ids made later sort after ids made earlier. */
export function newId(): string {
  return v7();
}

/** The current time as the ISO-8601 string the database stores. */
export function now(): string {
  return new Date().toISOString();
}
