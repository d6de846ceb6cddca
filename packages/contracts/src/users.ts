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
