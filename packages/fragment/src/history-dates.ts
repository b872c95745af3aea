/**
 * Date cells of Fragment's history that carry no `datetime` attribute: the short form of a stored
 * mock of the history page (`<time class="short">Jan 12 at 14:05</time>`), the long one with a
 * year (`Dec 31, 2025 at 23:59`), the day-first form (`12 Jan 2025 at 14:05`) and `Today` /
 * `Yesterday at 14:05` (docs/fragment-protocol.md §17.2).
 *
 * Time zone: the text is read as UTC. Fragment renders these cells on its server and no setting of
 * a Fragment account names a time zone, so we assume the server's, UTC; a `datetime` attribute,
 * when present, is used instead and needs no assumption. A cell shows minutes: the stamp is the
 * start of that minute, never later than the delivery, so a row can look older than it is but never
 * newer (delivery checks already allow a minute of clock skew). A short date without a year is in
 * the year that puts it at most a day after `now` (a date further ahead is last year's). A date
 * read well ahead of now disproves the UTC assumption: history-parsing.ts refuses such a row.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DAY_MS = 86_400_000;

const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?`;
const SEPARATOR = String.raw`(?:,?\s+at\s+|,\s*|\s+)`;
/** `Jan 12[, 2025] at 14:05` */
const MONTH_FIRST = new RegExp(String.raw`^([a-z]{3,9})\.?\s+(\d{1,2})(?:,?\s+(\d{4}))?${SEPARATOR}${TIME}$`, 'i');
/** `12 Jan[ 2025] at 14:05` */
const DAY_FIRST = new RegExp(String.raw`^(\d{1,2})\s+([a-z]{3,9})\.?(?:,?\s+(\d{4}))?${SEPARATOR}${TIME}$`, 'i');
/** `Today at 14:05` */
const RELATIVE = new RegExp(String.raw`^(today|yesterday)${SEPARATOR}${TIME}$`, 'i');

/** `Jan`, `January`, `Sept` → its index; `Janitor` is not a month. */
function monthIndex(name: string): number | undefined {
  const lower = name.toLowerCase();
  const index = MONTHS.findIndex((month) => month === lower || month.slice(0, 3) === lower);
  if (index >= 0) return index;
  return lower === 'sept' ? 8 : undefined;
}

/** Hours and minutes of a time part, or undefined when out of range. */
function clock(hours: string, minutes: string, seconds: string | undefined, half: string | undefined) {
  let h = Number(hours);
  const m = Number(minutes);
  const s = seconds === undefined ? 0 : Number(seconds);
  if (half !== undefined) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  }
  if (h > 23 || m > 59 || s > 59) return undefined;
  return { h, m, s };
}

/** UTC ms of a calendar date and time, or undefined when the date does not exist (`Feb 30`). */
function utc(year: number, month: number, day: number, time: { h: number; m: number; s: number }) {
  const at = Date.UTC(year, month, day, time.h, time.m, time.s);
  const check = new Date(at);
  return check.getUTCFullYear() === year && check.getUTCMonth() === month && check.getUTCDate() === day
    ? at
    : undefined;
}

function withYear(
  year: string | undefined,
  month: number,
  day: number,
  time: { h: number; m: number; s: number },
  now: number,
): number | undefined {
  if (year !== undefined) return utc(Number(year), month, day, time);
  const thisYear = new Date(now).getUTCFullYear();
  const sameYear = utc(thisYear, month, day, time);
  if (sameYear !== undefined && sameYear <= now + DAY_MS) return sameYear;
  return utc(thisYear - 1, month, day, time);
}

/** A zone the cell names itself (`UTC`, `GMT+3`, `+05:30`): it replaces the UTC assumption. */
const ZONE = /\s*(?:(?:UTC|GMT)(?:\s*([+-])(\d{1,2})(?::?(\d{2}))?)?|([+-])(\d{2}):?(\d{2}))$/i;

/**
 * Unix ms of a history date cell's text, read as UTC unless it names its zone; undefined when it
 * is not one of the forms above.
 */
export function parseHistoryDateText(text: string, now: number): number | undefined {
  const spaced = text.replace(/\s+/g, ' ').trim();
  const zone = ZONE.exec(spaced);
  const sign = zone?.[1] ?? zone?.[4];
  const offsetMs =
    sign === undefined
      ? 0
      : (sign === '-' ? -1 : 1) * (Number(zone![2] ?? zone![5]) * 60 + Number(zone![3] ?? zone![6] ?? 0)) * 60_000;
  const local = parseLocalDateText(zone ? spaced.slice(0, zone.index) : spaced, now + offsetMs);
  return local === undefined ? undefined : local - offsetMs;
}

function parseLocalDateText(cell: string, now: number): number | undefined {
  const relative = RELATIVE.exec(cell);
  if (relative) {
    const time = clock(relative[2]!, relative[3]!, relative[4], relative[5]);
    if (!time) return undefined;
    const day = new Date(now - (relative[1]!.toLowerCase() === 'yesterday' ? DAY_MS : 0));
    return utc(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), time);
  }
  const monthFirst = MONTH_FIRST.exec(cell);
  const dayFirst = monthFirst ? undefined : DAY_FIRST.exec(cell);
  const parts = monthFirst
    ? { month: monthFirst[1]!, day: monthFirst[2]!, year: monthFirst[3], rest: monthFirst.slice(4) }
    : dayFirst
      ? { month: dayFirst[2]!, day: dayFirst[1]!, year: dayFirst[3], rest: dayFirst.slice(4) }
      : undefined;
  if (!parts) return undefined;
  const month = monthIndex(parts.month);
  const time = clock(parts.rest[0]!, parts.rest[1]!, parts.rest[2], parts.rest[3]);
  if (month === undefined || !time) return undefined;
  return withYear(parts.year, month, Number(parts.day), time, now);
}
