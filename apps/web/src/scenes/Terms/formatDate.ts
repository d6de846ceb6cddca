/** A date (ISO-8601) as people read it in `locale`: "21 November 2026, 14:05" or its Thai form. */
export function formatDate(iso: string, locale: 'th' | 'en'): string {
  return new Intl.DateTimeFormat(locale === 'th' ? 'th-TH' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(iso));
}
