/** A moment as a clock on the wall of a time zone shows it (24-hour, zero-padded). */
export interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

/** One formatter per time zone: making them is slow, and a dispatch or a report asks thousands of times. */
const clocks = new Map<string, Intl.DateTimeFormat>();

/** `at` on the wall clock of `timeZone` (an IANA zone, checked by the caller's configuration). */
export function wallClock(at: Date, timeZone: string): WallClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(timeZone, clock);
  }
  const part = Object.fromEntries(clock.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: part.year ?? '',
    month: part.month ?? '',
    day: part.day ?? '',
    hour: part.hour ?? '00',
    minute: part.minute ?? '00',
    second: part.second ?? '00',
  };
}
