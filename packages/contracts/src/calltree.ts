import { z } from 'zod';
import {
  DEFAULT_ESCALATION_DELAY_MINUTES,
  MAX_CALL_ANSWER_LOCATION_LENGTH,
  MAX_CALL_ANSWER_NOTE_LENGTH,
  MAX_CALL_EVENT_MESSAGE_LENGTH,
  MAX_CALL_EVENT_OPTIONS,
  MAX_CALL_EVENT_TITLE_LENGTH,
  MAX_CALL_OPTION_LABEL_LENGTH,
  MAX_CALL_TREE_NAME_LENGTH,
  MAX_ESCALATION_DELAY_MINUTES,
  MIN_CALL_EVENT_OPTIONS,
  MIN_ESCALATION_DELAY_MINUTES,
} from './limits.ts';

export { CallTreeEventName } from './eventNames.ts';
export { DEFAULT_ESCALATION_DELAY_MINUTES } from './limits.ts';

// ---------------------------------------------------------------------------------------------
// Trees
// ---------------------------------------------------------------------------------------------

/** Where a tree's people came from. */
export const CallTreeSource = z.enum(['directory', 'csv', 'empty']);
export type CallTreeSource = z.infer<typeof CallTreeSource>;

/** What the caller may do with a tree (the UI shows only these actions). */
export const CallTreeAbilities = z.object({
  /** Move, add and remove people, refresh from the directory, import CSV. */
  edit: z.boolean(),
  /** Grant and revoke the event manager role. */
  manageRoles: z.boolean(),
  /** Start an event on the tree or a branch of it. */
  startEvent: z.boolean(),
  /** Download the tree as CSV. */
  export: z.boolean(),
});
export type CallTreeAbilities = z.infer<typeof CallTreeAbilities>;

/** A tree as lists show it. */
export const CallTreeSummary = z.object({
  /** Id of the tree. */
  id: z.string(),
  /** Name, e.g. "Bangkok office". */
  name: z.string(),
  /** Where its people came from; only `directory` trees refresh from the directory. */
  source: CallTreeSource,
  /** The top of the directory branch the tree was built from; null: the whole directory. */
  rootUserId: z.string().nullable(),
  /** How many people are in it. */
  memberCount: z.number().int(),
  /** How many of its events are running now. */
  runningEvents: z.number().int(),
  /** When it was created. */
  createdAt: z.string(),
  /** When its people last changed. */
  updatedAt: z.string(),
  /** What the caller may do with it. */
  abilities: CallTreeAbilities,
});
export type CallTreeSummary = z.infer<typeof CallTreeSummary>;

/** A person in a tree. */
export const CallTreeNode = z.object({
  /** The person's user id. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** E-mail address. */
  email: z.string(),
  /** Department from the directory. */
  department: z.string().nullable(),
  /** Job title from the directory. */
  jobTitle: z.string().nullable(),
  /** Their manager in this tree; null at the top. */
  managerId: z.string().nullable(),
});
export type CallTreeNode = z.infer<typeof CallTreeNode>;

/** A person holding a tree's event manager role. */
export const CallTreeEventManager = z.object({
  /** The person's user id. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** E-mail address. */
  email: z.string(),
});
export type CallTreeEventManager = z.infer<typeof CallTreeEventManager>;

/** `GET /api/calltree/trees/:treeId`: a tree with its people. */
export const CallTreeDetail = CallTreeSummary.extend({
  /** Everyone in the tree, each with their manager in it. */
  members: z.array(CallTreeNode),
  /** The people who may start and close events on it (besides admins). */
  eventManagers: z.array(CallTreeEventManager),
});
export type CallTreeDetail = z.infer<typeof CallTreeDetail>;

/** Why a person from the directory could not be placed in a tree. */
export const UnplacedReason = z.enum(['manager_loop', 'manager_outside_tree', 'under_unplaced_manager']);
export type UnplacedReason = z.infer<typeof UnplacedReason>;

/** A person of the directory who could not be placed (instead of silently dropping them). */
export const UnplacedPerson = z.object({
  /** The person's user id. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** E-mail address. */
  email: z.string(),
  /** Why: their manager chain loops, their manager is not in the tree, or a manager above them is unplaced. */
  reason: UnplacedReason,
});
export type UnplacedPerson = z.infer<typeof UnplacedPerson>;

/** `POST /api/calltree/trees`: create a tree. */
export const CreateCallTreeRequest = z.object({
  /** Name of the tree, e.g. "Chiang Mai site". */
  name: z.string().trim().min(1).max(MAX_CALL_TREE_NAME_LENGTH),
  /** `directory`: build from the directory's manager chain; `empty`: start with nobody (add people or import CSV). */
  source: z.enum(['directory', 'empty']).default('directory'),
  /** With `directory`: build only the branch under this person (a user id); absent: the whole directory. */
  rootUserId: z.string().min(1).optional(),
});
export type CreateCallTreeRequest = z.infer<typeof CreateCallTreeRequest>;

/** Answer to creating a tree. */
export const CreateCallTreeResponse = z.object({
  /** The new tree. */
  tree: CallTreeSummary,
  /** Directory people who could not be placed, and why. */
  unplaced: z.array(UnplacedPerson),
});
export type CreateCallTreeResponse = z.infer<typeof CreateCallTreeResponse>;

/** A person whose place in the tree the directory changed. */
export const CallTreeMove = z.object({
  /** The person's user id. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** Their manager in the tree before. */
  fromManagerId: z.string().nullable(),
  /** Their manager according to the directory now. */
  toManagerId: z.string().nullable(),
});
export type CallTreeMove = z.infer<typeof CallTreeMove>;

/** A person who joins or leaves the tree. */
export const CallTreePersonRef = z.object({
  /** The person's user id. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** E-mail address. */
  email: z.string(),
});
export type CallTreePersonRef = z.infer<typeof CallTreePersonRef>;

/** `POST /api/calltree/trees/:treeId/refresh`: compare with (and optionally apply) the directory. */
export const RefreshCallTreeRequest = z.object({
  /** false: only show what would change (the preview); true: change the tree. */
  apply: z.boolean().default(false),
});
export type RefreshCallTreeRequest = z.infer<typeof RefreshCallTreeRequest>;

/** What refreshing a tree from the directory changes. */
export const RefreshCallTreeResponse = z.object({
  /** Whether the tree was changed (false for a preview). */
  applied: z.boolean(),
  /** People the directory adds. */
  joined: z.array(CallTreePersonRef),
  /** People no longer in the directory (or disabled). */
  left: z.array(CallTreePersonRef),
  /** People whose manager changed. */
  moved: z.array(CallTreeMove),
  /** People who cannot be placed; those already in the tree stay where they are. */
  unplaced: z.array(UnplacedPerson),
});
export type RefreshCallTreeResponse = z.infer<typeof RefreshCallTreeResponse>;

/** `POST /api/calltree/trees/:treeId/members`: add a person (found with the people search, `GET /api/users`). */
export const AddCallTreeMemberRequest = z.object({
  /** The person's user id. */
  userId: z.string().min(1),
  /** Their manager in the tree (a member); null: at the top. */
  managerId: z.string().min(1).nullable(),
});
export type AddCallTreeMemberRequest = z.infer<typeof AddCallTreeMemberRequest>;

/** `PATCH /api/calltree/trees/:treeId/members/:userId`: move a person under another manager. */
export const MoveCallTreeMemberRequest = z.object({
  /** The new manager (a member, not the person nor anyone under them); null: to the top. */
  managerId: z.string().min(1).nullable(),
});
export type MoveCallTreeMemberRequest = z.infer<typeof MoveCallTreeMemberRequest>;

/** `POST /api/calltree/trees/:treeId/csv`: import a tree as CSV with columns `email,manager email`. */
export const ImportCallTreeRequest = z.object({
  /** The CSV text: a header row (`email`, `manager email`), then one row per person; an empty manager means the top. */
  csv: z.string().min(1).max(5_000_000),
  /** false: only preview the rows and their errors; true: replace the tree's people (refused while any row has an error). */
  apply: z.boolean().default(false),
});
export type ImportCallTreeRequest = z.infer<typeof ImportCallTreeRequest>;

/** One row of an imported CSV, as the preview shows it. */
export const ImportCallTreeRow = z.object({
  /** The line number in the file (the header is line 1). */
  line: z.number().int(),
  /** The e-mail address in the row. */
  email: z.string(),
  /** The manager's e-mail address in the row; empty at the top. */
  managerEmail: z.string(),
  /** The person found for the e-mail, if any. */
  userId: z.string().nullable(),
  /** Name of the person found, if any. */
  displayName: z.string().nullable(),
  /** What is wrong with the row, in words the admin can act on; null when it is fine. */
  error: z.string().nullable(),
});
export type ImportCallTreeRow = z.infer<typeof ImportCallTreeRow>;

/** Preview (and result) of a CSV import. */
export const ImportCallTreeResponse = z.object({
  /** Whether the tree was replaced. */
  applied: z.boolean(),
  /** Every row with its person and error. */
  rows: z.array(ImportCallTreeRow),
  /** How many rows have errors. */
  errorCount: z.number().int(),
});
export type ImportCallTreeResponse = z.infer<typeof ImportCallTreeResponse>;

/** One edit in a tree's history. */
export const CallTreeChange = z.object({
  /** Id of the change. */
  id: z.string(),
  /** built, refreshed, added, moved, removed, imported, role_granted, role_revoked. */
  action: z.string(),
  /** Who made it. */
  actorId: z.string().nullable(),
  /** The person it is about, if one. */
  userId: z.string().nullable(),
  /** What changed. */
  detail: z.record(z.string(), z.unknown()),
  /** When. */
  createdAt: z.string(),
});
export type CallTreeChange = z.infer<typeof CallTreeChange>;

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** A drill or a real emergency. */
export const CallEventKind = z.enum(['drill', 'real']);
export type CallEventKind = z.infer<typeof CallEventKind>;

/** Whether an event still takes answers. */
export const CallEventState = z.enum(['running', 'closed']);
export type CallEventState = z.infer<typeof CallEventState>;

/** A person's status in an event. */
export const CallStatus = z.enum(['safe', 'need_help', 'no_answer']);
export type CallStatus = z.infer<typeof CallStatus>;

/** One answer option of an event. */
export const CallEventOption = z.object({
  /** Stable key, e.g. `safe`. */
  id: z
    .string()
    .min(1)
    .max(40)
    .regex(/^[a-z0-9_-]+$/, { message: 'must be lower-case letters, digits, _ or -' }),
  /** The button's text, e.g. "Safe". */
  label: z.string().trim().min(1).max(MAX_CALL_OPTION_LABEL_LENGTH),
  /** Whether choosing it means the person needs help (counts as "Need help"). */
  needsHelp: z.boolean(),
});
export type CallEventOption = z.infer<typeof CallEventOption>;

/** The options an event has unless its starter says otherwise. */
export const DEFAULT_CALL_EVENT_OPTIONS: CallEventOption[] = [
  { id: 'safe', label: 'Safe', needsHelp: false },
  { id: 'need_help', label: 'Need help', needsHelp: true },
];

/** `POST /api/calltree/trees/:treeId/events`: start an event. */
export const StartCallEventRequest = z.object({
  /** Short title, e.g. "Fire alarm, building B". */
  title: z.string().trim().min(1).max(MAX_CALL_EVENT_TITLE_LENGTH),
  /** What happened and what to do. */
  message: z.string().trim().min(1).max(MAX_CALL_EVENT_MESSAGE_LENGTH),
  /** A drill or a real emergency. */
  kind: CallEventKind,
  /** The answer options (2 to 6, distinct ids, at least one that does not need help); default Safe and Need help. */
  options: z
    .array(CallEventOption)
    .min(MIN_CALL_EVENT_OPTIONS)
    .max(MAX_CALL_EVENT_OPTIONS)
    .refine((o) => new Set(o.map((x) => x.id)).size === o.length, { message: 'option ids must be distinct' })
    .refine((o) => o.some((x) => !x.needsHelp) && o.some((x) => x.needsHelp), {
      message: 'needs at least one option meaning safe and one meaning need help',
    })
    .default(DEFAULT_CALL_EVENT_OPTIONS),
  /** Minutes without an answer before the manager is told, and between escalations up (1-1440, default 15). */
  escalationDelayMinutes: z
    .number()
    .int()
    .min(MIN_ESCALATION_DELAY_MINUTES)
    .max(MAX_ESCALATION_DELAY_MINUTES)
    .default(DEFAULT_ESCALATION_DELAY_MINUTES),
  /** Target only the branch under this person (a member of the tree); absent: the whole tree. */
  branchRootId: z.string().min(1).optional(),
});
export type StartCallEventRequest = z.infer<typeof StartCallEventRequest>;

/** What the caller may do with an event. */
export const CallEventAbilities = z.object({
  /** Close the event (event managers and admins, while running). */
  close: z.boolean(),
  /** Remind the people without an answer (event managers and admins, while running). */
  remind: z.boolean(),
  /** Download the CSV report and see the whole roll-up. */
  report: z.boolean(),
  /** Answer for oneself (targeted and running). */
  answer: z.boolean(),
  /** Answer for reports in one's branch who have not answered (a manager in the snapshot, while running). */
  answerOnBehalf: z.boolean(),
});
export type CallEventAbilities = z.infer<typeof CallEventAbilities>;

/** Counts by status. */
export const CallTotals = z.object({
  /** Everyone counted. */
  total: z.number().int(),
  /** Answered with an option that does not need help. */
  safe: z.number().int(),
  /** Answered with an option that needs help. */
  needHelp: z.number().int(),
  /** Not answered yet. */
  noAnswer: z.number().int(),
});
export type CallTotals = z.infer<typeof CallTotals>;

/** An answer as the API shows it. */
export const CallAnswer = z.object({
  /** Server id of the answer. */
  id: z.string(),
  /** The client-made id it was sent with. */
  clientId: z.string(),
  /** The person it is about. */
  personId: z.string(),
  /** The chosen option's id. */
  optionId: z.string(),
  /** safe or need_help. */
  status: z.enum(['safe', 'need_help']),
  /** Free text note. */
  note: z.string().nullable(),
  /** Where the person is, as text. */
  location: z.string().nullable(),
  /** Whether a manager answered for the person. */
  onBehalf: z.boolean(),
  /** How the manager reached the person (for answers on behalf). */
  reachedVia: z.string().nullable(),
  /** Who gave the answer. */
  answeredById: z.string(),
  /** Name of who gave it. */
  answeredByName: z.string(),
  /** When it was made (on the device). */
  answeredAt: z.string(),
  /** When the server received it. */
  recordedAt: z.string(),
  /** Whether it is the person's current answer (a later or the person's own answer replaces it). */
  current: z.boolean(),
});
export type CallAnswer = z.infer<typeof CallAnswer>;

/** An event as lists show it. */
export const CallEventSummary = z.object({
  /** Id of the event. */
  id: z.string(),
  /** The tree it runs on. */
  treeId: z.string(),
  /** Name of that tree. */
  treeName: z.string(),
  /** The top of the targeted branch; null: the whole tree. */
  branchRootId: z.string().nullable(),
  /** Title. */
  title: z.string(),
  /** Message. */
  message: z.string(),
  /** drill or real. */
  kind: CallEventKind,
  /** running or closed. */
  state: CallEventState,
  /** The answer options. */
  options: z.array(CallEventOption),
  /** Minutes between escalations. */
  escalationDelayMinutes: z.number().int(),
  /** Who started it. */
  startedById: z.string(),
  /** When it started. */
  startedAt: z.string(),
  /** When it was closed. */
  closedAt: z.string().nullable(),
  /** Counts over everyone targeted (final numbers once closed). */
  totals: CallTotals,
  /** The caller's own status, if targeted. */
  myStatus: CallStatus.nullable(),
  /** What the caller may do. */
  abilities: CallEventAbilities,
});
export type CallEventSummary = z.infer<typeof CallEventSummary>;

/** Query of the event list. */
export const ListCallEventsQuery = z.object({
  /** running or closed. */
  state: CallEventState.default('running'),
  /** Opaque cursor from the previous page. */
  cursor: z.string().min(1).optional(),
  /** Page size (1-100, default 20). */
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListCallEventsQuery = z.infer<typeof ListCallEventsQuery>;

/** A page of events, newest first. */
export const CallEventPage = z.object({
  /** The events. */
  items: z.array(CallEventSummary),
  /** Cursor of the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type CallEventPage = z.infer<typeof CallEventPage>;

/** A targeted person in the roll-up. */
export const CallPerson = z.object({
  /** The person's user id. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** E-mail address. */
  email: z.string(),
  /** Department. */
  department: z.string().nullable(),
  /** Phone number from the directory. */
  phone: z.string().nullable(),
  /** Their manager in the snapshot. */
  managerId: z.string().nullable(),
  /** The manager's name. */
  managerName: z.string().nullable(),
  /** The manager's phone number. */
  managerPhone: z.string().nullable(),
  /** Status. */
  status: CallStatus,
  /** The chosen option's id. */
  optionId: z.string().nullable(),
  /** The current answer's note. */
  note: z.string().nullable(),
  /** The current answer's location text. */
  location: z.string().nullable(),
  /** When the current answer was made. */
  answeredAt: z.string().nullable(),
  /** Who gave the current answer. */
  answeredByName: z.string().nullable(),
  /** Whether a manager answered for them. */
  onBehalf: z.boolean(),
  /** How many managers have been told they did not answer. */
  escalations: z.number().int(),
});
export type CallPerson = z.infer<typeof CallPerson>;

/** One branch of the snapshot: a person with reports, and the counts of everyone under them (them included). */
export const CallBranch = z.object({
  /** The manager at the top of the branch. */
  id: z.string(),
  /** Their name. */
  displayName: z.string(),
  /** Their own manager; null at the top. */
  managerId: z.string().nullable(),
  /** 0 at the top of the event. */
  depth: z.number().int(),
  /** How many branches are directly under this one (read with `GET .../branches/:managerId`). */
  subBranches: z.number().int(),
  /** Counts over the branch. */
  totals: CallTotals,
});
export type CallBranch = z.infer<typeof CallBranch>;

/** Query of a branch's sub-branches: the roll-up's department filter. */
export const CallBranchQuery = z.object({
  /** Only people of this department in the counts. */
  department: z.string().min(1).max(200).optional(),
});
export type CallBranchQuery = z.infer<typeof CallBranchQuery>;

/** `GET /api/calltree/events/:eventId/branches/:managerId`: the branches directly under a branch, with their counts. */
export const CallBranchList = z.object({
  /** The sub-branches, by name. */
  items: z.array(CallBranch),
});
export type CallBranchList = z.infer<typeof CallBranchList>;

/** Filters of the roll-up and the people list. */
export const CallRollupQuery = z.object({
  /** Only people with this status (lists only; totals stay whole). */
  status: CallStatus.optional(),
  /** Only people of this department (totals, branches and lists). */
  department: z.string().min(1).max(200).optional(),
});
export type CallRollupQuery = z.infer<typeof CallRollupQuery>;

/** Query of the people list: the filters and a page. */
export const CallPeopleQuery = CallRollupQuery.extend({
  /** Opaque cursor from the previous page. */
  cursor: z.string().min(1).optional(),
  /** Page size (1-500, default 100). */
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type CallPeopleQuery = z.infer<typeof CallPeopleQuery>;

/** A page of targeted people: those needing help first, then those without an answer, then the safe. */
export const CallPeoplePage = z.object({
  /** The people. */
  items: z.array(CallPerson),
  /** Cursor of the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type CallPeoplePage = z.infer<typeof CallPeoplePage>;

/** `GET /api/calltree/events/:eventId`: the event and its live roll-up (the caller's scope). */
export const CallEventDetail = CallEventSummary.extend({
  /** Whether the roll-up covers the whole event (event managers, admins) or only the caller's branch. */
  scope: z.enum(['event', 'branch', 'self']),
  /** Counts over the caller's scope and department filter. */
  scopeTotals: CallTotals,
  /** Counts per option id over the same people. */
  byOption: z.record(z.string(), z.number().int()),
  /**
   * The top branches of the caller's scope (a person with reports) and the branches directly under
   * them, with their counts; deeper ones are read on demand (`GET .../branches/:managerId`), so that
   * a 10,000-person event does not send its thousand branches on every refresh.
   */
  branches: z.array(CallBranch),
  /** The departments in scope, with how many people each. */
  departments: z.array(z.object({ name: z.string(), count: z.number().int() })),
  /** First page of the people list (need help, then no answer, then safe; 50), filters applied. */
  people: CallPeoplePage,
  /** The caller's current answer, if targeted and answered. */
  myAnswer: CallAnswer.nullable(),
});
export type CallEventDetail = z.infer<typeof CallEventDetail>;

/** How a manager reached a person to answer for them. */
export const ReachedVia = z.enum(['phone', 'in_person', 'message', 'other']);
export type ReachedVia = z.infer<typeof ReachedVia>;

/** `POST /api/calltree/events/:eventId/answers`: answer for oneself or, as a manager, for a report. */
export const CallAnswerRequest = z.object({
  /** A client-made id (8-64 letters, digits, - or _): the same id twice records one answer. */
  id: z.string().regex(/^[\w-]{8,64}$/, {
    message: 'must be 8-64 letters, digits, - or _ (e.g. a UUID made on the device)',
  }),
  /** The person answered for; absent: oneself. */
  personId: z.string().min(1).optional(),
  /** The chosen option's id (one of the event's options). */
  optionId: z.string().min(1).max(40),
  /** Optional note. */
  note: z.string().trim().max(MAX_CALL_ANSWER_NOTE_LENGTH).optional(),
  /** Optional location text. */
  location: z.string().trim().max(MAX_CALL_ANSWER_LOCATION_LENGTH).optional(),
  /** When the answer was made, for an answer queued offline (ISO-8601; not in the future, not before the event). */
  answeredAt: z.iso.datetime({ offset: true }).optional(),
  /** Required when answering for someone else: how they were reached. */
  reachedVia: ReachedVia.optional(),
});
export type CallAnswerRequest = z.infer<typeof CallAnswerRequest>;

/** `GET /api/calltree/events/:eventId/people/:personId`: one person's answers and escalations. */
export const CallPersonHistory = z.object({
  /** The person now. */
  person: CallPerson,
  /** Every answer about them, oldest first. */
  answers: z.array(CallAnswer),
  /** Each manager told that they had not answered. */
  escalations: z.array(
    z.object({
      /** 1: their manager, 2: the next up, ... */
      level: z.number().int(),
      /** Who was told. */
      notifiedUserId: z.string(),
      /** That person's name. */
      notifiedName: z.string(),
      /** When. */
      createdAt: z.string(),
    }),
  ),
});
export type CallPersonHistory = z.infer<typeof CallPersonHistory>;

/** Answer to "remind non-responders". */
export const CallReminderResponse = z.object({
  /** How many people without an answer were reminded. */
  recipients: z.number().int(),
});
export type CallReminderResponse = z.infer<typeof CallReminderResponse>;

/** `GET /api/calltree/events/:eventId/summary`: how fast people answered. */
export const CallEventReport = z.object({
  /** Counts over everyone targeted. */
  totals: CallTotals,
  /** Seconds from the start until half of the targeted people had answered; null if not yet. */
  secondsTo50: z.number().nullable(),
  /** Seconds until 90 % had answered; null if not yet. */
  secondsTo90: z.number().nullable(),
  /** Seconds until everyone had answered; null if not yet. */
  secondsTo100: z.number().nullable(),
  /** Answers given on behalf. */
  onBehalf: z.number().int(),
  /** Escalations sent. */
  escalations: z.number().int(),
  /** How long the event ran (to now while running). */
  durationSeconds: z.number(),
});
export type CallEventReport = z.infer<typeof CallEventReport>;
