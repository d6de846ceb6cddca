import { z } from 'zod';
import { ClientKind } from './audit.ts';
import { MAX_TERMS_BODY_LENGTH, MAX_TERMS_TITLE_LENGTH } from './limits.ts';

/** A language the terms of use are written in. */
export const TermsLocale = z.enum(['th', 'en']);
export type TermsLocale = z.infer<typeof TermsLocale>;

/** A version number of the terms of use: 1 for the first, one more for each publication. */
export const TermsVersionNumber = z.number().int().positive();

/** The terms of use in one language. */
export const TermsText = z.object({
  /** The language of `title` and `body`. */
  locale: TermsLocale,
  /** Heading of the terms, plain text. */
  title: z.string(),
  /** The terms themselves, Markdown (the client renders it sanitised, without raw HTML). */
  body: z.string(),
});
export type TermsText = z.infer<typeof TermsText>;

/** Title and body of a new version in one language, as an administrator writes them. */
export const TermsTextInput = z.object({
  /** Heading of the terms, plain text, 1 to 200 characters. */
  title: z.string().trim().min(1).max(MAX_TERMS_TITLE_LENGTH),
  /** The terms in Markdown, 1 to 50,000 characters. */
  body: z.string().trim().min(1).max(MAX_TERMS_BODY_LENGTH),
});
export type TermsTextInput = z.infer<typeof TermsTextInput>;

/** `GET /api/terms/current` query. */
export const CurrentTermsQuery = z.object({
  /** Language to answer in; the caller's own language when absent. */
  locale: TermsLocale.optional(),
});
export type CurrentTermsQuery = z.infer<typeof CurrentTermsQuery>;

/** `GET /api/terms/current`: the version everyone must have accepted, and where the caller stands. */
export const CurrentTerms = z.object({
  /** Version number; `POST /api/terms/acceptances` takes it back. */
  version: TermsVersionNumber,
  /** When this version was published (ISO-8601). */
  publishedAt: z.string(),
  /** The terms in the caller's language (or the `locale` asked for). */
  text: TermsText,
  /** The same terms in the other available languages. */
  otherLanguages: z.array(TermsText),
  /** When the caller accepted this version (ISO-8601), or null when they have not yet. */
  acceptedAt: z.string().nullable(),
  /** What the caller may do: `accept` while they have not accepted, `publish` for administrators. */
  abilities: z.object({
    /** The caller has not accepted this version and may do so. */
    accept: z.boolean(),
    /** The caller may publish a new version (administrators). */
    publish: z.boolean(),
  }),
});
export type CurrentTerms = z.infer<typeof CurrentTerms>;

/** `POST /api/terms/acceptances`: the caller accepts a version. */
export const AcceptTermsRequest = z.object({
  /** The version the caller read; it must be the current one (else envelope code 4405). */
  version: TermsVersionNumber,
  /** Which client the caller uses, for the audit log. */
  client: ClientKind,
});
export type AcceptTermsRequest = z.infer<typeof AcceptTermsRequest>;

/** One acceptance of the terms by the caller. */
export const TermsAcceptance = z.object({
  /** The version accepted. */
  version: TermsVersionNumber,
  /** When it was accepted (ISO-8601). */
  acceptedAt: z.string(),
  /** The client it was accepted in. */
  client: ClientKind,
});
export type TermsAcceptance = z.infer<typeof TermsAcceptance>;

/** `GET /api/terms/acceptances`: the caller's acceptances, newest first. */
export const TermsAcceptanceList = z.object({
  /** Every version the caller accepted, newest first. */
  items: z.array(TermsAcceptance),
});
export type TermsAcceptanceList = z.infer<typeof TermsAcceptanceList>;

/** `POST /api/terms/versions` (administrators): publish a new version; everyone must accept it again. */
export const PublishTermsRequest = z.object({
  /** The Thai text. */
  th: TermsTextInput,
  /** The English text. */
  en: TermsTextInput,
  /** Which client the administrator uses, for the audit log. */
  client: ClientKind,
});
export type PublishTermsRequest = z.infer<typeof PublishTermsRequest>;

/** A published version as administrators see it, with how many people accepted it. */
export const TermsVersionSummary = z.object({
  /** Version number. */
  version: TermsVersionNumber,
  /** When it was published (ISO-8601). */
  publishedAt: z.string(),
  /** Who published it; null for the default version BTalk seeded on first start. */
  publishedBy: z.object({ id: z.string(), displayName: z.string() }).nullable(),
  /** Whether this is the version everyone must have accepted now. */
  current: z.boolean(),
  /** The text in every language. */
  texts: z.array(TermsText),
  /** How many people have accepted this version. */
  acceptedCount: z.number().int().nonnegative(),
});
export type TermsVersionSummary = z.infer<typeof TermsVersionSummary>;

/** `GET /api/terms/versions` (administrators): every version, newest first. */
export const TermsVersionList = z.object({
  /** Every published version, newest first. */
  items: z.array(TermsVersionSummary),
  /** How many people can use BTalk (not disabled): the whole an acceptance count is out of. */
  activePeople: z.number().int().nonnegative(),
});
export type TermsVersionList = z.infer<typeof TermsVersionList>;
