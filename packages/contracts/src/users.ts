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
