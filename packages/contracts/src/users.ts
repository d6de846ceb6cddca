import { z } from 'zod';

/** A person's role in BTalk. */
export const Role = z.enum(['admin', 'member']);
export type Role = z.infer<typeof Role>;

/** A person as the API shows them. */
export const User = z.object({
  /** BTalk's id of the person (UUIDv7). */
  id: z.string(),
  /** E-mail address from the directory (not a key: the directory's issuer and subject are). */
  email: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** Department from the directory. */
  department: z.string().nullable(),
  /** Job title from the directory. */
  jobTitle: z.string().nullable(),
  /** Preferred language. */
  locale: z.enum(['th', 'en']),
  /** Role in BTalk. */
  role: Role,
});
export type User = z.infer<typeof User>;

/**
 * What the signed-in person may do in BTalk as a whole, worked out by the server's rules, so the UI
 * shows only what is allowed (the server checks every action again).
 */
export const MeAbilities = z.object({
  /** Publish versions of the terms of use and see who accepted them (`/admin/terms`). */
  manageTerms: z.boolean(),
  /** See the notification outbox and send dead deliveries again (`/admin/notifications`). */
  manageDeliveries: z.boolean(),
  /** Manage people: their BTalk role, disabling them (the People screen, `/admin/people`). */
  managePeople: z.boolean(),
  /** Choose which file types uploads refuse (File uploads, `/admin/uploads`). */
  manageUploads: z.boolean(),
  /** Build new call trees. */
  createCallTrees: z.boolean(),
});
export type MeAbilities = z.infer<typeof MeAbilities>;

/** The signed-in person (`GET /api/me`, and the sign-in answer): who they are and what they may do. */
export const Me = User.extend({
  /** What the person may do in BTalk as a whole. */
  abilities: MeAbilities,
});
export type Me = z.infer<typeof Me>;

/** `:userId` in a path. */
export const UserParams = z.object({
  /** The person's BTalk id. */
  userId: z.string().min(1).max(64),
});

/** A person's manager on a profile card: a name to show and to open their own card. */
export const ProfileManager = z.object({
  /** BTalk's id of the manager. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** E-mail address (their photo derives from it). */
  email: z.string(),
});
export type ProfileManager = z.infer<typeof ProfileManager>;

/** `GET /api/users/:userId`: a person's profile card, as the directory last said. */
export const UserProfile = z.object({
  /** BTalk's id of the person. */
  id: z.string(),
  /** Name to show (the directory's display name: Thai script for Thai speakers). */
  displayName: z.string(),
  /** Given name from the directory (Latin script), or null when it has none. */
  givenName: z.string().nullable(),
  /** Surname from the directory (Latin script), or null when it has none. */
  surname: z.string().nullable(),
  /** E-mail address (also the Teams chat link's address). */
  email: z.string(),
  /** Job title from the directory. */
  jobTitle: z.string().nullable(),
  /** Department from the directory. */
  department: z.string().nullable(),
  /** Mobile or business phone number from the directory. */
  phone: z.string().nullable(),
  /** Their manager in the directory, when BTalk knows them. */
  manager: ProfileManager.nullable(),
  /** Whether the account is disabled (no longer in the directory, or disabled in BTalk). */
  disabled: z.boolean(),
});
export type UserProfile = z.infer<typeof UserProfile>;
