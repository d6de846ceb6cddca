import type {
  AddCallTreeMemberRequest,
  CallAnswer,
  CallAnswerRequest,
  CallBranchList,
  CallEventDetail,
  CallEventPage,
  CallEventReport,
  CallEventState,
  CallEventSummary,
  CallPeoplePage,
  CallPersonHistory,
  CallReminderResponse,
  CallRollupQuery,
  CallTreeDetail,
  CallTreeSummary,
  CreateCallTreeRequest,
  CreateCallTreeResponse,
  ImportCallTreeResponse,
  RefreshCallTreeResponse,
  StartCallEventRequest,
} from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** Filters of an event's roll-up (status lists only, department everything). */
export type RollupFilters = Pick<CallRollupQuery, 'status' | 'department'>;

const e = encodeURIComponent;

/** `/api/calltree`: trees, events, answers and their CSV files. */
export function calltreeApi(client: ApiClient) {
  return {
    /** My trees (every tree for admins). */
    trees: () => client.get<CallTreeSummary[]>('/calltree/trees'),
    /** A tree with its people and event managers. */
    tree: (treeId: string) => client.get<CallTreeDetail>(`/calltree/trees/${e(treeId)}`),
    /** Builds a tree from the directory (or an empty one); admins. */
    createTree: (body: CreateCallTreeRequest) => client.post<CreateCallTreeResponse>('/calltree/trees', body),
    /** Compares a directory tree with the directory; `apply` changes it. */
    refreshTree: (treeId: string, apply: boolean) =>
      client.post<RefreshCallTreeResponse>(`/calltree/trees/${e(treeId)}/refresh`, { apply }),
    /** Adds a person under a manager (null: at the top). */
    addMember: (treeId: string, body: AddCallTreeMemberRequest) =>
      client.post<unknown>(`/calltree/trees/${e(treeId)}/members`, body),
    /** Moves a person under another manager (null: to the top). */
    moveMember: (treeId: string, userId: string, managerId: string | null) =>
      client.patch<unknown>(`/calltree/trees/${e(treeId)}/members/${e(userId)}`, { managerId }),
    /** Removes a person (their reports move up to their manager). */
    removeMember: (treeId: string, userId: string) =>
      client.delete<unknown>(`/calltree/trees/${e(treeId)}/members/${e(userId)}`),
    /** Gives a person the tree's event manager role (admins). */
    grantEventManager: (treeId: string, userId: string) =>
      client.request<unknown>('PUT', `/calltree/trees/${e(treeId)}/event-managers/${e(userId)}`),
    /** Takes the tree's event manager role from a person (admins). */
    revokeEventManager: (treeId: string, userId: string) =>
      client.delete<unknown>(`/calltree/trees/${e(treeId)}/event-managers/${e(userId)}`),
    /** Previews (or, with `apply`, applies) a CSV of `email,manager email`. */
    importCsv: (treeId: string, csv: string, apply: boolean) =>
      client.post<ImportCallTreeResponse>(`/calltree/trees/${e(treeId)}/csv`, { csv, apply }),
    /** The tree as CSV text. */
    exportCsv: (treeId: string) => client.get<string>(`/calltree/trees/${e(treeId)}/csv`),

    /** Starts an event on a tree or one of its branches. */
    startEvent: (treeId: string, body: StartCallEventRequest) =>
      client.post<CallEventSummary>(`/calltree/trees/${e(treeId)}/events`, body),
    /** A page of the events I may see, newest first. */
    events: (state: CallEventState, cursor?: string) =>
      client.get<CallEventPage>('/calltree/events', { state, cursor }),
    /** Running events waiting for my answer (the banner). */
    pending: () => client.get<CallEventSummary[]>('/calltree/events/pending'),
    /** An event with the roll-up of my scope. */
    event: (eventId: string, filters: RollupFilters) =>
      client.get<CallEventDetail>(`/calltree/events/${e(eventId)}`, { ...filters }),
    /** The branches directly under a branch of my scope (one opened on the roll-up). */
    branches: (eventId: string, managerId: string, department: string | undefined) =>
      client.get<CallBranchList>(`/calltree/events/${e(eventId)}/branches/${e(managerId)}`, { department }),
    /** The next page of an event's people. */
    people: (eventId: string, filters: RollupFilters, cursor: string) =>
      client.get<CallPeoplePage>(`/calltree/events/${e(eventId)}/people`, { ...filters, cursor }),
    /** One person's answers and escalations. */
    personHistory: (eventId: string, personId: string) =>
      client.get<CallPersonHistory>(`/calltree/events/${e(eventId)}/people/${e(personId)}`),
    /** Answers for oneself or, with `personId`, for a report; idempotent by `id`. */
    answer: (eventId: string, body: CallAnswerRequest) =>
      client.post<CallAnswer>(`/calltree/events/${e(eventId)}/answers`, body),
    /** Closes an event: its numbers freeze. */
    close: (eventId: string) => client.post<CallEventSummary>(`/calltree/events/${e(eventId)}/close`),
    /** Reminds only the people without an answer. */
    remind: (eventId: string) =>
      client.post<CallReminderResponse>(`/calltree/events/${e(eventId)}/reminders`),
    /**
     * The event report as the server's CSV file, byte for byte: read as text, the UTF-8 byte-order
     * mark Excel needs for Thai would be dropped.
     */
    reportCsv: (eventId: string) => client.blob(`/calltree/events/${e(eventId)}/report.csv`),
    /** Time to 50, 90 and 100 % answered. */
    summary: (eventId: string) => client.get<CallEventReport>(`/calltree/events/${e(eventId)}/summary`),
  };
}

/** The call-tree part of the API. */
export type CalltreeApi = ReturnType<typeof calltreeApi>;
