import type {
  CurrentTerms,
  TermsAcceptance,
  TermsLocale,
  TermsText,
  TermsVersionSummary,
} from '@btalk/contracts';
import type { TermsAcceptanceRow, TermsVersionRow, UserRow } from '../db/schema.ts';
import { can } from '../policies/terms.ts';

/** A version's text in one language. */
export function presentTermsText(row: TermsVersionRow, locale: TermsLocale): TermsText {
  return locale === 'th'
    ? { locale, title: row.title_th, body: row.body_th }
    : { locale, title: row.title_en, body: row.body_en };
}

const LOCALES: readonly TermsLocale[] = ['th', 'en'];

/** The current terms for a person: in their language, the others beside, and where they stand. */
export function presentCurrentTerms(
  row: TermsVersionRow,
  viewer: UserRow,
  locale: TermsLocale,
  acceptance: TermsAcceptanceRow | undefined,
): CurrentTerms {
  return {
    version: row.version,
    publishedAt: row.published_at,
    text: presentTermsText(row, locale),
    otherLanguages: LOCALES.filter((l) => l !== locale).map((l) => presentTermsText(row, l)),
    acceptedAt: acceptance?.accepted_at ?? null,
    abilities: { accept: !acceptance && can(viewer, 'accept'), publish: can(viewer, 'publish') },
  };
}

/** One acceptance of the terms. */
export function presentTermsAcceptance(row: TermsAcceptanceRow): TermsAcceptance {
  return { version: row.version, acceptedAt: row.accepted_at, client: row.client_kind };
}

/** A version as administrators see it. */
export function presentTermsVersion(
  row: TermsVersionRow,
  extra: {
    current: boolean;
    acceptedCount: number;
    publisher: Pick<UserRow, 'id' | 'display_name'> | null;
  },
): TermsVersionSummary {
  return {
    version: row.version,
    publishedAt: row.published_at,
    publishedBy: extra.publisher
      ? { id: extra.publisher.id, displayName: extra.publisher.display_name }
      : null,
    current: extra.current,
    texts: LOCALES.map((l) => presentTermsText(row, l)),
    acceptedCount: extra.acceptedCount,
  };
}
