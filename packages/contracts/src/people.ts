import { z } from 'zod';
import { MAX_SEARCH_LENGTH } from './limits.ts';
import { PageQuery, page } from './topics.ts';
import { Role } from './users.ts';

/**
 * Where a person's role or disabled state was decided: `directory` (sign-in and directory sync
 * follow the directory) or `btalk` (an administrator in the People screen; sync keeps it).
 */
export const AccessSource = z.enum(['directory', 'btalk']);
export type AccessSource = z.infer<typeof AccessSource>;

/** What the caller may do to one person in the People screen (the server checks again). */
export const AdminPersonAbilities = z.object({
  /** Give the admin role. */
  makeAdmin: z.boolean(),
  /** Take the admin role away (refused with 409 when they are the last enabled administrator). */
  removeAdmin: z.boolean(),
  /** Disable the person: they cannot sign in, and every session of theirs ends. */
  disable: z.boolean(),
  /** Enable the person again (not when the directory disabled them: enable them there). */
  enable: z.boolean(),
});
export type AdminPersonAbilities = z.infer<typeof AdminPersonAbilities>;

/** A person as administrators see them in the People screen. */
export const AdminPerson = z.object({
  /** BTalk's id of the person. */
  id: z.string(),
  /** E-mail address from the directory. */
  email: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** Department from the directory. */
  department: z.string().nullable(),
  /** Job title from the directory. */
  jobTitle: z.string().nullable(),
  /** Role in BTalk. */
  role: Role,
  /** Who decided the role: the directory's app role, or an administrator in BTalk (sync keeps it). */
  roleSource: AccessSource,
  /** Whether the person is disabled (cannot sign in, no sessions). */
  disabled: z.boolean(),
  /** Who disabled them, null while enabled. */
  disabledSource: AccessSource.nullable(),
  /** What the caller may do to this person. */
  abilities: AdminPersonAbilities,
});
export type AdminPerson = z.infer<typeof AdminPerson>;

/** `GET /api/admin/people`: everyone, by name, disabled people included. */
export const AdminPeopleQuery = PageQuery.extend({
  /** Part of a name, e-mail or department (Thai or English); empty lists everyone. */
  search: z.string().trim().max(MAX_SEARCH_LENGTH).default(''),
});
export type AdminPeopleQuery = z.infer<typeof AdminPeopleQuery>;

/** `GET /api/admin/people` answer. */
export const AdminPeoplePage = page(AdminPerson);
export type AdminPeoplePage = z.infer<typeof AdminPeoplePage>;

/** `/api/admin/people/:personId`. */
export const AdminPersonParams = z.object({
  /** The person's id. */
  personId: z.string().min(1).max(64),
});
export type AdminPersonParams = z.infer<typeof AdminPersonParams>;

/** `PATCH /api/admin/people/:personId`: change a person's role, disabled state, or both. */
export const AdminPersonUpdate = z
  .strictObject({
    /** The new role; set here, it is BTalk's from then on and directory sync keeps it. */
    role: Role.optional(),
    /** True disables the person and ends every session of theirs; false enables them again. */
    disabled: z.boolean().optional(),
  })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, {
    message: 'give role, disabled, or both',
    path: ['role'],
  });
export type AdminPersonUpdate = z.infer<typeof AdminPersonUpdate>;
