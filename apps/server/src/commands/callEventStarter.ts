import { CallTreeEventName, NotificationKind, type StartCallEventRequest } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { insertInChunks } from '../calltree/bulk.ts';
import { branchOf, wholeTree } from '../calltree/hierarchy.ts';
import { notifyCallTree } from '../calltree/notify.ts';
import { loadMembers } from '../calltree/treeStore.ts';
import type { Database } from '../db/index.ts';
import type { CallEventRow, CallTreeRow, UserRow } from '../db/schema.ts';
import { recordEvent } from '../events/eventLog.ts';
import { AppError, invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';

/**
 * Starts an event on a tree or a branch of it. Takes the snapshot of who is targeted (and under which
 * manager) in bulk, so later tree edits do not change a running event; sets everyone's first
 * escalation due time; tells every targeted person in-app.
 */
export async function callEventStarter(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  input: StartCallEventRequest,
): Promise<CallEventRow> {
  const members = await loadMembers(trx, tree.id);
  if (input.branchRootId && !members.has(input.branchRootId)) {
    throw invalid(
      'body.branchRootId',
      'this person is not in the tree; pick the top of a branch of this tree',
    );
  }
  const people = input.branchRootId ? branchOf(members, input.branchRootId) : wholeTree(members);
  if (people.length === 0) {
    throw new AppError('conflict', 'This tree has nobody in it yet: add people or import a CSV first.');
  }
  const startedAt = now();
  const delaySeconds = input.escalationDelayMinutes * 60;
  const firstDue = new Date(Date.parse(startedAt) + delaySeconds * 1000).toISOString();
  const event: CallEventRow = {
    id: newId(),
    tree_id: tree.id,
    branch_root_id: input.branchRootId ?? null,
    title: input.title,
    message: input.message,
    kind: input.kind,
    options: JSON.stringify(input.options),
    escalation_delay_seconds: delaySeconds,
    status: 'running',
    target_count: people.length,
    started_by: actor.id,
    started_at: startedAt,
    closed_by: null,
    closed_at: null,
  };
  await trx.insertInto('call_events').values(event).execute();
  const top = people[0]!.id;
  await insertInChunks(
    trx,
    'call_event_targets',
    people.map(({ id, depth }) => {
      // The top of a branch has no manager inside the event: there is nobody to escalate to.
      const managerId = input.branchRootId && id === top ? null : (members.get(id) ?? null);
      return {
        event_id: event.id,
        user_id: id,
        manager_id: managerId,
        depth,
        next_escalation_at: managerId ? firstDue : null,
      };
    }),
  );
  const prefix = input.kind === 'drill' ? 'Drill: ' : '';
  await notifyCallTree(
    trx,
    people.map(({ id }) => ({
      userId: id,
      kind: NotificationKind.callStarted,
      title: `${prefix}${input.title}`,
      body: input.message,
      data: { eventId: event.id, kind: input.kind, eventTitle: input.title },
    })),
    startedAt,
    actor.id,
  );
  await recordEvent(trx, {
    room: `callevent:${event.id}`,
    type: CallTreeEventName.started,
    payload: {
      eventId: event.id,
      treeId: tree.id,
      title: input.title,
      kind: input.kind,
      targets: people.length,
    },
    actorId: actor.id,
  });
  return event;
}
