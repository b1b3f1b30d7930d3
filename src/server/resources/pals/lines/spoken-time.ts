// Dates and times as the PAL says them: in the visitor's time zone (the page's, sent with the join
// frame) and written the way the reply language writes them (Intl.DateTimeFormat), e.g. "Tuesday,
// November 24 at 11:00 AM" or "Dienstag, 24. November um 11:00" — never "2026-11-24 at 10:00 UTC".
import { primaryLanguage } from './language.js';

export interface VisitorClock {
  /** An IANA zone the runtime knows, e.g. 'Europe/Berlin'. */
  timeZone?: string;
  /** The page's language tag, e.g. 'en-GB', used when it is a variant of the reply language. */
  locale?: string;
}

/** The visitor's clock from what the page sent; a zone or tag the runtime does not know is dropped. */
export function visitorClock(timeZone: string | undefined, locale: string | undefined): VisitorClock {
  const clock: VisitorClock = {};
  if (typeof timeZone === 'string' && timeZone.length <= 64) {
    try {
      clock.timeZone = new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone;
    } catch {
      // not a zone: times stay in UTC and say so
    }
  }
  if (typeof locale === 'string' && locale.length <= 35) {
    try {
      const [canonical] = Intl.getCanonicalLocales(locale);
      if (canonical) clock.locale = canonical;
    } catch {
      // not a language tag
    }
  }
  return clock;
}

/** `iso` said as a person would, in `lang` (the page's variant of it when it is one) and the visitor's zone. */
export function spokenTime(iso: string, lang: string, clock: VisitorClock = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const locale = clock.locale && primaryLanguage(clock.locale) === primaryLanguage(lang) ? clock.locale : lang;
  const format = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: clock.timeZone ?? 'UTC',
    // Without the visitor's zone the time must say which zone it is in.
    ...(clock.timeZone ? {} : { timeZoneName: 'short' as const }),
  });
  return format.format(d);
}

/** A calendar date (`2026-11-21`) said as a person would in `lang`, e.g. "Saturday, November 21" or "Samstag, 21. November". */
export function spokenDate(date: string, lang: string, clock: VisitorClock = {}): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  const locale = clock.locale && primaryLanguage(clock.locale) === primaryLanguage(lang) ? clock.locale : lang;
  return new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(d);
}
