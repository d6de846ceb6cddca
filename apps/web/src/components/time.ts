import { currentLanguage } from '../i18n/index.ts';

/** When something happened, short: the time today, else the date (and year when it differs). */
export function shortTime(iso: string, now = new Date()): string {
  const at = new Date(iso);
  const locale = currentLanguage() === 'th' ? 'th-TH' : 'en-GB';
  if (at.toDateString() === now.toDateString()) {
    return at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  }
  return at.toLocaleDateString(locale, {
    day: 'numeric',
    month: 'short',
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** The full date and time, for a tooltip or `<time title>`. */
export function fullTime(iso: string): string {
  const locale = currentLanguage() === 'th' ? 'th-TH' : 'en-GB';
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
