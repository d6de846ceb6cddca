import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../db/index.ts';
import { openTestDatabase, type TestDatabase, testDatabaseKinds } from '../test/db.ts';
import { parseScrape } from '../test/prometheus.ts';
import { Metrics } from './metrics.ts';

/** How every panel names its data source: the dashboard's `datasource` variable (Grafana's syntax). */
const DATASOURCE = { type: 'prometheus', uid: ['$', '{datasource}'].join('') };

const dashboardFile = fileURLToPath(
  new URL('../../../../deploy/grafana/btalk-dashboard.json', import.meta.url),
);

interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: { expr: string }[];
}

/** The metric names a PromQL expression uses (BTalk's and the process's; not functions or labels). */
function namesIn(expr: string): string[] {
  // Label matchers' values and label names in by()/without() are not metric names.
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\b(?:by|without)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/\b((?:btalk|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
}

/** The families of a scrape: each `# TYPE` name, and a histogram's `_bucket`, `_sum`, `_count` series. */
function seriesNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of parseScrape(text).types) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

describe('the Grafana dashboard (deploy/grafana/btalk-dashboard.json)', () => {
  const opened: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of opened) await close();
  });

  /** A scrape of metrics made on a SQLite file and, when reachable, on PostgreSQL: every family. */
  async function scrapes(): Promise<Set<string>> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-dashboard-'));
    const file: Db = openDatabase({ dataDir });
    opened.push(async () => {
      await file.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    await migrateToLatest(file);
    const dbs: Db[] = [file];
    if (testDatabaseKinds.includes('postgres')) {
      const pg: TestDatabase = await openTestDatabase('postgres');
      opened.push(() => pg.cleanup());
      dbs.push(pg.db);
    }
    const names = new Set<string>();
    for (const db of dbs) {
      const metrics = new Metrics({ db, version: 'test', scraped: true });
      for (const name of seriesNames(await metrics.registry.metrics())) names.add(name);
    }
    return names;
  }

  it('is a dashboard of schema 39 whose panels query the Prometheus data source variable', () => {
    const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8'));
    expect(dashboard.schemaVersion).toBe(39);
    const variable = dashboard.templating.list.find((v: { type: string }) => v.type === 'datasource');
    expect(variable).toMatchObject({ name: 'datasource', query: 'prometheus' });
    const panels = (dashboard.panels as Panel[]).filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThan(10);
    for (const panel of panels) {
      expect(panel.datasource, panel.title).toEqual(DATASOURCE);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
  });

  it('uses only metric names a scrape has, and shows every BTalk metric family', async () => {
    const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8'));
    const used = new Set(
      (dashboard.panels as Panel[]).flatMap((p) => (p.targets ?? []).flatMap((t) => namesIn(t.expr))),
    );
    const scraped = await scrapes();
    const unknown = [...used].filter((name) => !scraped.has(name));
    if (!testDatabaseKinds.includes('postgres')) {
      // Without PostgreSQL (outside CI) the pool's families cannot be scraped: say so, check the rest.
      console.warn(
        'SKIPPED the PostgreSQL pool metrics of the dashboard check: PostgreSQL is not reachable.',
      );
      expect(unknown.filter((name) => !name.startsWith('btalk_db_pool_'))).toEqual([]);
    } else {
      expect(unknown).toEqual([]);
    }
    const families = [...scraped].filter(
      (name) => name.startsWith('btalk_') && !/_(bucket|sum|count)$/.test(name),
    );
    const shown = (family: string) =>
      [...used].some((name) => name === family || name.startsWith(`${family}_`));
    expect(families.filter((family) => !shown(family))).toEqual([]);
  });

  it('reads metric names out of PromQL, not label values or grouping labels', () => {
    expect(
      namesIn(
        'sum by (btalk_route) (rate(btalk_http_requests_total{status=~"5..",route="btalk_x"}[5m])) / process_cpu_seconds_total',
      ),
    ).toEqual(['btalk_http_requests_total', 'process_cpu_seconds_total']);
  });
});
