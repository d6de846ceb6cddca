import type { NewUserRow } from '../apps/server/src/db/schema.ts';
import { newId, now } from '../apps/server/src/ids.ts';

/** Reports per manager in the benchmarks' directories. */
const FANOUT = 10;

/** A directory of `count` people: one at the top, each manager with up to FANOUT reports. */
export function directory(count: number): NewUserRow[] {
  const at = now();
  const departments = ['Operations', 'Finance', 'Engineering', 'Sales', 'Facilities'];
  return Array.from({ length: count }, (_, i) => ({
    id: newId(),
    issuer: 'https://bench.directory',
    subject: `p${i}`,
    tenant_id: null,
    email: `p${i}@bench.test`,
    display_name: `Person ${i}`,
    department: departments[i % departments.length]!,
    job_title: 'Staff',
    manager_subject: i === 0 ? null : `p${Math.floor((i - 1) / FANOUT)}`,
    phone: `+66-2-${String(i).padStart(6, '0')}`,
    locale: 'en' as const,
    role: i === 0 ? ('admin' as const) : ('member' as const),
    tokens_valid_after: null,
    // Everyone has accepted the default terms (version 1, seeded by a migration).
    terms_accepted_version: 1,
    created_at: at,
    updated_at: at,
  }));
}
