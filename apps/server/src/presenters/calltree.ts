import type {
  CallAnswer,
  CallEventAbilities,
  CallEventOption,
  CallEventSummary,
  CallPerson,
  CallStatus,
  CallTotals,
  CallTreeAbilities,
  CallTreeSummary,
} from '@btalk/contracts';
import type { RollupPerson } from '../calltree/rollup.ts';
import type { CallAnswerRow, CallEventRow, CallTreeRow } from '../db/schema.ts';

/** A tree as lists show it. */
export function presentTreeSummary(
  tree: CallTreeRow,
  memberCount: number,
  runningEvents: number,
  abilities: CallTreeAbilities,
): CallTreeSummary {
  return {
    id: tree.id,
    name: tree.name,
    source: tree.source,
    rootUserId: tree.root_user_id,
    memberCount,
    runningEvents,
    createdAt: tree.created_at,
    updatedAt: tree.updated_at,
    abilities,
  };
}

/** An event as lists show it. */
export function presentEventSummary(
  event: CallEventRow,
  treeName: string,
  totals: CallTotals,
  myStatus: CallStatus | null,
  abilities: CallEventAbilities,
): CallEventSummary {
  return {
    id: event.id,
    treeId: event.tree_id,
    treeName,
    branchRootId: event.branch_root_id,
    title: event.title,
    message: event.message,
    kind: event.kind,
    state: event.status,
    options: JSON.parse(event.options) as CallEventOption[],
    escalationDelayMinutes: Math.round(event.escalation_delay_seconds / 60),
    startedById: event.started_by,
    startedAt: event.started_at,
    closedAt: event.closed_at,
    totals,
    myStatus,
    abilities,
  };
}

/** An answer, with who gave it and whether it is the person's current one. */
export function presentAnswer(row: CallAnswerRow, answeredByName: string, current: boolean): CallAnswer {
  return {
    id: row.id,
    clientId: row.client_id,
    personId: row.user_id,
    optionId: row.option_id,
    status: row.status,
    note: row.note,
    location: row.location,
    onBehalf: row.on_behalf === 1,
    reachedVia: row.reached_via,
    answeredById: row.answered_by,
    answeredByName,
    answeredAt: row.answered_at,
    recordedAt: row.recorded_at,
    current,
  };
}

/** A targeted person in the roll-up. */
export function presentCallPerson(p: RollupPerson): CallPerson {
  return {
    id: p.id,
    displayName: p.displayName,
    email: p.email,
    department: p.department,
    phone: p.phone,
    managerId: p.managerId,
    managerName: p.managerName,
    managerPhone: p.managerPhone,
    status: p.status,
    optionId: p.optionId,
    note: p.note,
    location: p.location,
    answeredAt: p.answeredAt,
    answeredByName: p.answeredByName,
    onBehalf: p.onBehalf,
    escalations: p.escalations,
  };
}
