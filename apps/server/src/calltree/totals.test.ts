import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { totalsQuery } from './totals.ts';

describeEachDatabase('call-tree totals', (kind) => {
  const server = useTestServer(kind);

  if (kind === 'sqlite') {
    it('are counted from the covering index, not by reading every target (every event page reads them)', async () => {
      const compiled = totalsQuery(server.ctx.db.kysely, ['e1']).compile();
      const plan = await server.ctx.db.kysely.executeQuery<{ detail: string }>({
        ...compiled,
        sql: `explain query plan ${compiled.sql}`,
      });
      const details = plan.rows.map((r) => r.detail).join('\n');
      expect(details).toContain('COVERING INDEX call_event_targets_status_index');
      expect(details).not.toContain('TEMP B-TREE');
    });
  } else {
    it('have the index PostgreSQL may answer them from', async () => {
      const { rows } = await sql<{ indexname: string }>`
        select indexname from pg_indexes
        where tablename = 'call_event_targets' and schemaname = current_schema()
          and indexname = 'call_event_targets_status_index'`.execute(server.ctx.db.kysely);
      expect(rows.map((r) => r.indexname)).toEqual(['call_event_targets_status_index']);
    });
  }
});
