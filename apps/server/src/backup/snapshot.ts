/** What a backup reads from its database snapshot, whichever the engine. */
export interface SnapshotInfo {
  /** Every attachment row's storage key and size: the files the backup must hold. */
  attachments: { key: string; bytes: number }[];
  /** Rows per table. */
  counts: Record<string, number>;
  /** The newest migration applied (null: none). */
  newestMigration: string | null;
}
