/**
 * strtotime: a PHP `strtotime`-compatible parser. The original validates and interprets every
 * date argument with PHP's strtotime, so this is how date query parameters and event dates are
 * read (parseDateInput, isValidDateInput) and how unix timestamps are accepted.
 *
 * Pure domain code: no HTTP, no GraphQL, no storage. Everything takes an explicit `now` so callers
 * (and tests) control the clock.
 *
 * The forms of PHP's grammar are read, business days (`+3 weekdays`), `first monday of …`, ISO
 * weeks (`2018-W01-3`), days of the year (`2018-130`), `back of 7pm`, roman-numeral months and
 * Apache's log format included; only zone abbreviations beyond the common ones are left out (they
 * parse as null, → 400).
 *
 * test/unit/strtotime-corpus.test.ts runs the port over PHP 8.2's own results for ~3,000 strings
 * at fixed clocks in five zones (test/unit/fixtures/strtotime-corpus.json, written by
 * scripts/strtotime-corpus.php). The results agree, but for a few known differences the test
 * lists with their reasons (e.g. an ambiguous wall time at a DST fall-back east of UTC, where PHP
 * takes the later occurrence).
 */
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { isIanaZone, toZone, UTC } from './zones.js';
import { normalizeWall, wallAsUtcMillis, wallToDateTime, type Wall } from './wall-times.js';
import { PHP_NUMERIC } from '../../php/casts.js';

// A port of the parts of PHP's timelib (parse_date.re, tm2unixtime.c) that matter here. The
// string is scanned into tokens; each sets absolute fields (date, time, zone) or relative ones
// (+N units, weekday moves). At every position all token rules are tried and the longest match
// wins, ties going to the rule listed first — as timelib's re2c scanner does, so the rule order
// below follows timelib's. Then (timelib_fill_holes + timelib_update_ts): unset fields come from
// `now`, "first/last day of" and weekday moves apply, relative units are added field-wise with
// mktime-style overflow (Jan 31 + 1 month = Mar 3), and the wall time is resolved in the zone.
// Hours/minutes are wall-clock arithmetic as well, as in PHP 8.2.

interface Relative extends Wall {
  /** Microseconds: below our resolution, but a negative amount borrows a second, as in PHP. */
  us: number;
}

interface ParseState {
  y: number | null;
  m: number | null;
  d: number | null;
  h: number | null;
  i: number | null;
  s: number | null;
  haveDate: boolean;
  /** 0 none, 1 a time was given, 2 a bare "HHMM" after a time was read as the year (timelib quirk). */
  haveTime: number;
  zone: Zone | null;
  zoneCount: number;
  rel: Relative;
  /** Relative weekday (0 = Sunday … 6; negative after "ago"), with timelib's behaviour flag. */
  weekday: number | null;
  behavior: number;
  firstLast: 'first' | 'last' | null;
  /**
   * timelib's relative.special: business days ("+3 weekdays", applied last), or the n-th / last
   * weekday of a month ("first monday of", "last friday of", applied first).
   */
  special: { type: 'weekday' | 'weekdayInMonth' | 'lastWeekdayInMonth'; amount: number } | null;
}

/**
 * Case-insensitive spelling of a literal word list: "jan|feb" → "[jJ][aA][nN]|[fF]…". The rules
 * are compiled without the `i` flag because a few of timelib's classes are case-sensitive (the
 * day suffixes and the [,.stndrh\t ] separators: "Jan 5 sunday" fails in PHP, "Jan 5 Sunday" not).
 */
function ci(words: string): string {
  return words.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

// Grammar pieces, named after timelib's. Alternatives list the longer spelling first so that
// the regex engine, which takes the first alternative that fits, finds the longest token.
const MONTHS = ci(
  'january|february|march|april|may|june|july|august|september|october|november|december|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec',
);
/** timelib's monthtext: names, and upper-case roman numerals ("5 IX 2018"), which only date rules read. */
const ROMAN_MONTHS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];
const MONTH_TEXT = `${MONTHS}|${[...ROMAN_MONTHS].sort((a, b) => b.length - a.length).join('|')}`;
const MONTH_ABBR = ci('sept|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec');
const DAYS = ci(
  'sundays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tue|wed|thu|fri|sat',
);
/** dayspecial: business days as a unit ("+3 weekdays"); alone, timelib reads it as Monday. */
const WEEKDAY_SPECIAL = ci('weekdays|weekday');
const UNITS = `${ci('(?:msec|millisecond|µsec|microsecond|usec|sec|second|min|minute|hour|day|fortnight|forthnight|month|year)s?|ms|µs|weeks')}|${WEEKDAY_SPECIAL}|${DAYS}`;
const REL_TEXT = ci('next|last|previous|this');
const REL_NUMBER = ci('first|second|third|fourth|fifth|sixth|seventh|eighth|eight|ninth|tenth|eleventh|twelfth');
/**
 * The end of a word: no letter follows, except the "T" of a time ("tomorrowT14:30:00" is tomorrow,
 * then T14:30:00, as timelib's longest-match scanner reads it).
 */
const WORD_END = '(?![a-su-zA-SU-Z]|[tT](?!\\d))';
const DAY = '(3[01]|[0-2]?\\d)(?:st|nd|rd|th)?'; // one group
const DAY_LZ = '(3[01]|[12]\\d|0\\d)';
const MONTH_NUM = '(1[0-2]|0?\\d)';
const MONTH_LZ = '(1[0-2]|0\\d)';
const HOUR24 = '(2[0-4]|[01]?\\d)';
const HOUR24_LZ = '(2[0-4]|[01]\\d)';
const MINUTE = '([0-5]?\\d)';
const MINUTE_LZ = '([0-5]\\d)';
const SECOND = '(60|[0-5]?\\d)';
const SECOND_LZ = '(60|[0-5]\\d)';
const HOUR12 = '(1[0-2]|0?[1-9])';
/** am/pm, which must end the string or be followed by a space or tab. */
const MERIDIAN = '([aApP])\\.?[mM]\\.?(?=$|[ \\t])';
/** timeshort12 | timelong12 (minutes required) — 4 groups: h, m, s, meridian. */
const TIME12_MINUTES = `${HOUR12}[:.]${MINUTE_LZ}(?:[:.]${SECOND_LZ})?[ \\t]*${MERIDIAN}`;
/** datenoyear's prefix: month name and day, then separators — 2 groups. */
const DATE_NO_YEAR_SEP = `(${MONTH_TEXT})${WORD_END}[ .\\t-]*${DAY}[,.stndrh\\t ]+`;
/** A signed UTC offset: +5, +05, +0530, +05:30, +053000, +05:30:00 — 2 groups. */
const TZ_CORRECTION = '(?:GMT)?([+-])((?:2[0-4]|[01]\\d):?[0-5]\\d:?(?:60|[0-5]\\d)|(?:2[0-4]|[01]?\\d)(?::?[0-5]?\\d)?)';
/** A zone name: tz identifier as timelib spells it ("America/New_York"; not "europe/berlin", and "Etc/GMT+5" is "Etc/GMT" then an offset) or abbreviation ("EST", "(UTC)") — 2 groups. */
const TZ_NAME = '([A-Z][a-z]+(?:[_/-][A-Za-z]+)+)|\\(?([A-Za-z]{1,6})\\)?';

const MONTH_INDEX: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const DAY_INDEX: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const REL_TEXT_AMOUNT: Record<string, number> = {
  next: 1,
  last: -1,
  previous: -1,
  this: 0,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eight: 8,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
};

/**
 * Offsets (minutes) of the zone abbreviations accepted inside date strings: the common ones of
 * PHP's table plus the military letters (which PHP accepts too: "16:00 a" is 16:00 at +01:00).
 * Unknown abbreviations fail, as in PHP.
 */
const TZ_ABBR_OFFSET: Record<string, number> = {
  utc: 0,
  gmt: 0,
  ut: 0,
  uct: 0,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  met: 60,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  sast: 120,
  ist: 120, // Israel, as in PHP's table (not Irish or Indian)
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  jst: 540,
  kst: 540,
  hkt: 480,
  sgt: 480,
  aest: 600,
  aedt: 660,
  acst: 570,
  acdt: 630,
  awst: 480,
  nzst: 720,
  nzdt: 780,
  ...Object.fromEntries([...'abcdefghiklm'].map((c, n) => [c, (n + 1) * 60]).concat([...'nopqrstuvwxy'].map((c, n) => [c, -(n + 1) * 60]))),
  z: 0,
};

const monthOf = (name: string): number => MONTH_INDEX[name.slice(0, 3).toLowerCase()] ?? ROMAN_MONTHS.indexOf(name) + 1;
/** A day name's number; "weekday(s)" is 1, the multiplier timelib's lookup table gives it. */
const dayOf = (name: string): number => DAY_INDEX[name.slice(0, 3).toLowerCase()] ?? 1;

/** timelib's TIMELIB_PROCESS_YEAR: a year written with fewer than 4 digits: 0–69 → 20xx, 70–99 → 19xx. */
function fullYear(digits: string): number {
  const y = Number(digits);
  return digits.length < 4 && y < 100 ? y + (y < 70 ? 2000 : 1900) : y;
}

/** timelib_parse_tz_cor: offset minutes of "5", "05", "530", "0530", "05:30", "053000"… */
function tzCorrectionMinutes(sign: string, body: string): number | null {
  const hm = (h: string, m: string) => Number(h) * 60 + Number(m);
  let minutes: number | null = null;
  if (body.length <= 2) minutes = Number(body) * 60;
  else if (body.length <= 4) {
    if (body[1] === ':') minutes = hm(body.slice(0, 1), body.slice(2));
    else if (body[2] === ':') minutes = hm(body.slice(0, 2), body.slice(3));
    else minutes = hm(String(Math.floor(Number(body) / 100)), String(Number(body) % 100));
  } else if (body.length === 5 && body[2] === ':') minutes = hm(body.slice(0, 2), body.slice(3));
  else if (body.length === 6 && !body.includes(':')) minutes = hm(body.slice(0, 2), body.slice(2, 4));
  else if (body.length === 8 && body[2] === ':' && body[5] === ':') minutes = hm(body.slice(0, 2), body.slice(3, 5));
  if (minutes === null) return null;
  return sign === '-' ? -minutes : minutes;
}

const offsetZone = (minutes: number): Zone => (minutes === 0 ? UTC : FixedOffsetZone.instance(minutes));

function setDate(st: ParseState, y: number | null, m: number | null, d: number | null): boolean {
  if (st.haveDate) return false; // "Double date specification"
  st.haveDate = true;
  if (y !== null) st.y = y;
  if (m !== null) st.m = m;
  if (d !== null) st.d = d;
  return true;
}

function setTime(st: ParseState, h: number, i: number, s: number): boolean {
  if (st.haveTime) return false; // "Double time specification"
  st.haveTime = 1;
  st.h = h;
  st.i = i;
  st.s = s;
  return true;
}

/** timelib's TIMELIB_UNHAVE_TIME: today/tomorrow/weekday names reset the time read so far to 00:00. */
function unsetTime(st: ParseState): void {
  st.haveTime = 0;
  st.h = 0;
  st.i = 0;
  st.s = 0;
}

/**
 * timelib's TIMELIB_HAVE_TZ: the first zone counts; a second is ignored unread (a warning in
 * PHP); a third is an error. `resolve` is only called for the first.
 */
function setZone(st: ParseState, resolve: () => Zone | null): boolean {
  st.zoneCount += 1;
  if (st.zoneCount > 2) return false;
  if (st.zoneCount === 2) return true;
  st.zone = resolve();
  return st.zone !== null; // "The timezone could not be found in the database"
}

function zoneFromName(id: string | undefined, abbr: string | undefined): Zone | null {
  if (abbr !== undefined) {
    const minutes = TZ_ABBR_OFFSET[abbr.toLowerCase()];
    return minutes === undefined ? null : offsetZone(minutes);
  }
  return id !== undefined && isIanaZone(id) ? IANAZone.create(id) : null;
}

function hour12(h: string, meridian: string): number {
  return (Number(h) % 12) + (meridian.toLowerCase() === 'p' ? 12 : 0);
}

/**
 * What timelib's meridian adds to an hour where the back/front-of rule applies it: unlike hour12 it
 * does not fold hours outside 1-12 ("front of 0am" is 23:45 the day before).
 */
function meridianShift(h: number, meridian: string): number {
  return meridian.toLowerCase() === 'a' ? (h === 12 ? -12 : 0) : h !== 12 ? 12 : 0;
}

const WEEKDAY_UNIT = new RegExp(`^(?:${DAYS})$`);

/** timelib_set_relative: "+N unit", "next unit", "last <weekday>"… */
function addRelative(st: ParseState, amount: number, unitText: string, behavior: number, keepTime: boolean): boolean {
  const unit = unitText.toLowerCase();
  if (unit.startsWith('weekday')) {
    // TIMELIB_SPECIAL: the amount is assigned, not added; business days apply after everything else.
    st.special = { type: 'weekday', amount };
    if (!keepTime) unsetTime(st);
    return true;
  }
  if (WEEKDAY_UNIT.test(unit)) {
    st.rel.d += (amount > 0 ? amount - 1 : amount) * 7;
    st.weekday = dayOf(unit);
    st.behavior = behavior;
    if (!keepTime) unsetTime(st);
    return true;
  }
  if (/^(ms|msec|milli)/.test(unit)) st.rel.us += amount * 1000;
  else if (/^(µ|usec|micro)/.test(unit)) st.rel.us += amount;
  else if (unit.startsWith('sec')) st.rel.s += amount;
  else if (unit.startsWith('min')) st.rel.i += amount;
  else if (unit.startsWith('hour')) st.rel.h += amount;
  else if (unit.startsWith('day')) st.rel.d += amount;
  else if (unit.startsWith('week')) st.rel.d += amount * 7;
  else if (unit.startsWith('fort') || unit.startsWith('forth')) st.rel.d += amount * 14;
  else if (unit.startsWith('month')) st.rel.m += amount;
  else if (unit.startsWith('year')) st.rel.y += amount;
  else return false;
  return true;
}

interface Rule {
  re: RegExp;
  apply: (g: RegExpExecArray, st: ParseState) => boolean;
}

const rule = (source: string, apply: Rule['apply']): Rule => ({ re: new RegExp(source, 'y'), apply });
const num = (s: string | undefined): number => Number(s ?? 0);

/** Token rules, in timelib's order (which breaks ties between equally long matches). */
const RULES: Rule[] = [
  rule(`${ci('yesterday')}${WORD_END}`, (_g, st) => {
    unsetTime(st);
    st.rel.d = -1; // assigned, not added, as in timelib
    return true;
  }),
  rule(`${ci('now')}${WORD_END}`, () => true),
  rule(`${ci('noon')}${WORD_END}`, (_g, st) => {
    unsetTime(st);
    return setTime(st, 12, 0, 0);
  }),
  rule(`${ci('(?:midnight|today)')}${WORD_END}`, (_g, st) => {
    unsetTime(st);
    return true;
  }),
  rule(`${ci('tomorrow')}${WORD_END}`, (_g, st) => {
    unsetTime(st);
    st.rel.d = 1;
    return true;
  }),
  // @1514764800 — epoch seconds, in UTC
  rule('@(-?\\d+)(?:\\.\\d{0,6})?', (g, st) => {
    st.haveDate = false;
    st.haveTime = 0;
    Object.assign(st, { y: 1970, m: 1, d: 1, h: 0, i: 0, s: 0 });
    st.rel.s += Number(g[1]);
    return setZone(st, () => UTC);
  }),
  // "first day of" / "last day of" (the time is kept, as in PHP)
  rule(`${ci('(first|last) day of')}${WORD_END}`, (g, st) => {
    st.firstLast = g[1]!.toLowerCase() === 'first' ? 'first' : 'last';
    return true;
  }),
  // backof | frontof: "back of 7pm" is 19:15, "front of 7pm" 18:45 (the hour less one, then the
  // meridian read against that hour, as timelib does; "Back of" capitalised reads as front of)
  rule(`${ci('(back|front) of ')}${HOUR24}(?:[ \\t]*${MERIDIAN})?`, (g, st) => {
    unsetTime(st);
    st.haveTime = 1;
    const back = g[1]![0] === 'b'; // timelib tests the first letter in lower case: "Back of 7" is front of 7
    let h = Number(g[2]) - (back ? 0 : 1);
    if (g[3] !== undefined) h += meridianShift(h, g[3]);
    Object.assign(st, { h, i: back ? 15 : 45, s: 0 });
    return true;
  }),
  // weekdayof: "first monday of", "last friday of" (then the month, else this month); time 00:00
  rule(`(${REL_NUMBER}|${REL_TEXT})[ \\t]+(${DAYS})[ \\t]+${ci('of')}`, (g, st) => {
    const word = g[1]!.toLowerCase();
    const amount = REL_TEXT_AMOUNT[word]!;
    st.special = { type: amount > 0 ? 'weekdayInMonth' : 'lastWeekdayInMonth', amount };
    return addRelative(st, amount, g[2]!, amount > 0 || word === 'this' ? 1 : 0, false);
  }),
  // timetiny12 | timeshort12 | timelong12: 4pm, 4 pm, 4:30pm, 4:30:15 p.m.
  rule(`${HOUR12}(?:[:.]${MINUTE_LZ}|[:.]${MINUTE}[:.]${SECOND_LZ})?[ \\t]*${MERIDIAN}`, (g, st) =>
    setTime(st, hour12(g[1]!, g[5]!), num(g[2] ?? g[3]), num(g[4])),
  ),
  // mssqltime: 1:30:00.123pm (SQL Server's form)
  rule(`${HOUR12}:${MINUTE_LZ}:${SECOND_LZ}[:.]\\d+${MERIDIAN}`, (g, st) => setTime(st, hour12(g[1]!, g[4]!), Number(g[2]), Number(g[3]))),
  // timetiny24: t16
  rule(`[tT]${HOUR24}(?![:.\\d])`, (g, st) => setTime(st, Number(g[1]), 0, 0)),
  // timeshort24 | timelong24 | iso8601long: 16:00, T16:00:00, 16:00:00.123
  rule(`[tT]?${HOUR24}[:.]${MINUTE}(?:[:.]${SECOND}(?:\\.\\d+)?)?`, (g, st) => setTime(st, Number(g[1]), Number(g[2]), num(g[3]))),
  // gnunocolon: 1600 — a time; or the year, when a time was already given ("10:00 2018")
  rule(`[tT]?${HOUR24_LZ}${MINUTE_LZ}`, (g, st) => {
    if (st.haveTime === 0) {
      st.h = Number(g[1]);
      st.i = Number(g[2]);
      st.s = 0;
    } else if (st.haveTime === 1) {
      st.y = Number(`${g[1]}${g[2]}`);
    } else {
      return false;
    }
    st.haveTime += 1;
    return true;
  }),
  // iso8601nocolon: 160000
  rule(`[tT]?${HOUR24_LZ}${MINUTE_LZ}${SECOND_LZ}`, (g, st) => setTime(st, Number(g[1]), Number(g[2]), Number(g[3]))),
  // american: 12/25/2026, 12/25
  rule(`${MONTH_NUM}/${DAY}(?:/(\\d{1,4}))?`, (g, st) =>
    setDate(st, g[3] !== undefined ? fullYear(g[3]) : null, Number(g[1]), Number(g[2])),
  ),
  // iso8601datex: years of five digits or more, signed (+10000-01-01)
  rule(`([+-]\\d{5,19})-${MONTH_LZ}-${DAY_LZ}`, (g, st) => setDate(st, Number(g[1]), Number(g[2]), Number(g[3]))),
  // iso8601date4 | iso8601dateslash | dateslash: 2018-01-05, 2018/01/05, 2018/1/5
  rule(`([+-]?\\d{4})-${MONTH_LZ}-${DAY_LZ}`, (g, st) => setDate(st, Number(g[1]), Number(g[2]), Number(g[3]))),
  rule(`(\\d{4})/${MONTH_LZ}/${DAY_LZ}/?`, (g, st) => setDate(st, Number(g[1]), Number(g[2]), Number(g[3]))),
  rule(`(\\d{4})/${MONTH_NUM}/${DAY}`, (g, st) => setDate(st, Number(g[1]), Number(g[2]), Number(g[3]))),
  // gnudateshorter: 2018-01 (day 1)
  rule(`(\\d{4})-${MONTH_NUM}`, (g, st) => setDate(st, Number(g[1]), Number(g[2]), 1)),
  // gnudateshort: 2018-1-5, 18-01-05
  rule(`(\\d{1,4})-${MONTH_NUM}-${DAY}`, (g, st) => setDate(st, fullYear(g[1]!), Number(g[2]), Number(g[3]))),
  // datefull: 5 January 2018, 05-Jan-2018 (no time-combined form: PHP rejects "5 January 10:00")
  rule(`${DAY}[ \\t.-]*(${MONTH_TEXT})${WORD_END}[ \\t.-]*(\\d{1,4})`, (g, st) =>
    setDate(st, fullYear(g[3]!), monthOf(g[2]!), Number(g[1])),
  ),
  // pointeddate4 | pointeddate2: 25-12-2026, 25.12.2026, 25.12.26
  rule(`${DAY}[.\\t-]${MONTH_NUM}[.-](\\d{4})`, (g, st) => setDate(st, Number(g[3]), Number(g[2]), Number(g[1]))),
  rule(`${DAY}[.\\t]${MONTH_NUM}\\.(\\d{2})`, (g, st) => setDate(st, fullYear(g[3]!), Number(g[2]), Number(g[1]))),
  // datenoday: January 2018 (day 1)
  rule(`(${MONTH_TEXT})${WORD_END}[ .\\t-]*(\\d{4})`, (g, st) => setDate(st, Number(g[2]), monthOf(g[1]!), 1)),
  // datenodayrev: 2018 January (day 1)
  rule(`(\\d{4})[ .\\t-]*(${MONTH_TEXT})${WORD_END}`, (g, st) => setDate(st, Number(g[1]), monthOf(g[2]!), 1)),
  // datetextual: January 5 2018, Jan 5th, 2018
  rule(`(${MONTH_TEXT})${WORD_END}[ .\\t-]*${DAY}[,.stndrh\\t ]+(\\d{1,4})`, (g, st) =>
    setDate(st, fullYear(g[3]!), monthOf(g[1]!), Number(g[2])),
  ),
  // datenoyear: January 5 — the day must end the string or be followed by [,.stndrh\t ], which
  // greedily eat letters of a following word: PHP rejects "Jan 5 sunday" and "Jan 5 noon".
  rule(`(${MONTH_TEXT})${WORD_END}[ .\\t-]*${DAY}(?:[,.stndrh\\t ]+|$)`, (g, st) => setDate(st, null, monthOf(g[1]!), Number(g[2]))),
  // datenoyearrev: 5 January
  rule(`${DAY}[ .\\t-]*(${MONTH_TEXT})${WORD_END}`, (g, st) => setDate(st, null, monthOf(g[2]!), Number(g[1]))),
  // datenocolon: 20181231
  rule(`(\\d{4})${MONTH_LZ}${DAY_LZ}`, (g, st) => setDate(st, Number(g[1]), Number(g[2]), Number(g[3]))),
  // exif: 2018:01:05 14:30:00
  rule(
    `(\\d{4}):${MONTH_LZ}:${DAY_LZ} ${HOUR24_LZ}:${MINUTE_LZ}:${SECOND_LZ}`,
    (g, st) => setDate(st, Number(g[1]), Number(g[2]), Number(g[3])) && setTime(st, Number(g[4]), Number(g[5]), Number(g[6])),
  ),
  // pgydotd: 2018-130, 2018.130, 2018130 (day 130 of 2018)
  rule('(\\d{4})[.-]?(00[1-9]|0[1-9]\\d|[12]\\d\\d|3[0-5]\\d|36[0-6])', (g, st) => setDate(st, Number(g[1]), 1, Number(g[2]))),
  // isoweekday | isoweek: 2018-W01-3, 2018W013 (Wednesday of ISO week 1), 2018-W01 (its Monday)
  rule('(\\d{4})-?W(0[1-9]|[1-4]\\d|5[0-3])(?:-?([0-7]))?', (g, st) => {
    if (!setDate(st, Number(g[1]), 1, 1)) return false;
    st.rel.d = isoWeekDayNumber(Number(g[1]), Number(g[2]), num(g[3] ?? '1')); // assigned, as in timelib
    return true;
  }),
  // pgtextshort | pgtextreverse: jan-05-2018, 2018-jan-05
  rule(`(${MONTH_ABBR})-${DAY_LZ}-(\\d{1,4})`, (g, st) => setDate(st, fullYear(g[3]!), monthOf(g[1]!), Number(g[2]))),
  rule(`(\\d{1,4})-(${MONTH_ABBR})-${DAY_LZ}`, (g, st) => setDate(st, fullYear(g[1]!), monthOf(g[2]!), Number(g[3]))),
  // clf: 05/Jan/2018:14:30:00 +0100 (Apache's log format)
  rule(`${DAY}/(${MONTH_ABBR})/(\\d{4}):${HOUR24_LZ}:${MINUTE_LZ}:${SECOND_LZ}[ \\t]+${TZ_CORRECTION}`, (g, st) => {
    if (!setDate(st, Number(g[3]), monthOf(g[2]!), Number(g[1])) || !setTime(st, Number(g[4]), Number(g[5]), Number(g[6]))) return false;
    // Set without counting as a zone (timelib's clf has no TIMELIB_HAVE_TZ): a later zone still wins.
    const minutes = tzCorrectionMinutes(g[7]!, g[8]!);
    st.zone = minutes === null ? null : offsetZone(minutes);
    return st.zone !== null;
  }),
  // year4: a lone year ("June 5 16:00 1999")
  rule('(\\d{4})', (g, st) => {
    st.y = Number(g[1]);
    return true;
  }),
  rule(`${ci('ago')}${WORD_END}`, (_g, st) => {
    const r = st.rel;
    st.rel = { y: -r.y, m: -r.m, d: -r.d, h: -r.h, i: -r.i, s: -r.s, us: r.us }; // timelib leaves microseconds as they are
    if (st.weekday !== null) st.weekday = st.weekday === 0 ? -7 : -st.weekday;
    if (st.special?.type === 'weekday') st.special.amount = -st.special.amount;
    return true;
  }),
  // daytext: a bare weekday is today if it is that day, else the next one; time reset to 00:00
  rule(`(${WEEKDAY_SPECIAL}|${DAYS})${WORD_END}`, (g, st) => {
    unsetTime(st);
    st.weekday = dayOf(g[1]!);
    if (st.behavior !== 2) st.behavior = 1;
    return true;
  }),
  // relativetextweek: "next week", "this week" — move within Monday-based weeks, keeping the time
  rule(`(${REL_TEXT})[ \\t]+${ci('week')}${WORD_END}`, (g, st) => {
    st.rel.d += REL_TEXT_AMOUNT[g[1]!.toLowerCase()]! * 7;
    st.behavior = 2;
    if (st.weekday === null) st.weekday = 1;
    return true;
  }),
  // relativetext: "next month", "last monday", "this friday", "second day"
  rule(`(${REL_NUMBER}|${REL_TEXT})[ \\t]+(${UNITS})${WORD_END}`, (g, st) => {
    const word = g[1]!.toLowerCase();
    return addRelative(st, REL_TEXT_AMOUNT[word]!, g[2]!, word === 'this' ? 1 : 0, false);
  }),
  // monthfull | monthabbr: "January" (day and year from now)
  rule(`(${MONTHS})${WORD_END}`, (g, st) => setDate(st, null, monthOf(g[1]!), null)),
  // tzcorrection | tz
  rule(TZ_CORRECTION, (g, st) =>
    setZone(st, () => {
      const minutes = tzCorrectionMinutes(g[1]!, g[2]!);
      return minutes === null ? null : offsetZone(minutes);
    }),
  ),
  rule(`(?:${TZ_NAME})${WORD_END}`, (g, st) => setZone(st, () => zoneFromName(g[1], g[2]))),
  // dateshortwithtimeshort12 | dateshortwithtimelong12: January 5 4:30pm
  rule(
    `${DATE_NO_YEAR_SEP}${TIME12_MINUTES}`,
    (g, st) => setDate(st, null, monthOf(g[1]!), Number(g[2])) && setTime(st, hour12(g[3]!, g[6]!), Number(g[4]), num(g[5])),
  ),
  // dateshortwithtimeshort | dateshortwithtimelong: January 5 10:00
  rule(
    `${DATE_NO_YEAR_SEP}[tT]?${HOUR24}[:.]${MINUTE}(?:[:.]${SECOND})?`,
    (g, st) => setDate(st, null, monthOf(g[1]!), Number(g[2])) && setTime(st, Number(g[3]), Number(g[4]), num(g[5])),
  ),
  // dateshortwithtimelongtz: January 5 10:00:00 EST — any word there is read as a zone
  rule(
    `${DATE_NO_YEAR_SEP}[tT]?${HOUR24}[:.]${MINUTE}[:.]${SECOND_LZ}[ \\t]*(?:${TZ_CORRECTION}|(?:${TZ_NAME})${WORD_END})`,
    (g, st) =>
      setDate(st, null, monthOf(g[1]!), Number(g[2])) &&
      setTime(st, Number(g[3]), Number(g[4]), Number(g[5])) &&
      setZone(st, () => {
        if (g[6] !== undefined) {
          const minutes = tzCorrectionMinutes(g[6], g[7]!);
          return minutes === null ? null : offsetZone(minutes);
        }
        return zoneFromName(g[8], g[9]);
      }),
  ),
  // relative: "+5 days", "-1 week", "2 hours", "+1 monday" (keeps the time)
  rule(`([+-]*)[ \\t]*(\\d{1,13})[ \\t]*(${UNITS}|${ci('week')})${WORD_END}`, (g, st) => {
    const negative = (g[1]!.match(/-/g)?.length ?? 0) % 2 === 1;
    return addRelative(st, (negative ? -1 : 1) * Number(g[2]), g[3]!, 1, true);
  }),
];

/** Skipped between tokens: spaces, tabs, dots and commas (timelib's `[.,]` and `space`). */
const SEPARATORS = /[ \t\n.,]+/y;

function scan(input: string): ParseState | null {
  const st: ParseState = {
    y: null,
    m: null,
    d: null,
    h: null,
    i: null,
    s: null,
    haveDate: false,
    haveTime: 0,
    zone: null,
    zoneCount: 0,
    rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0, us: 0 },
    weekday: null,
    behavior: 0,
    firstLast: null,
    special: null,
  };
  const text = input.trim(); // PHP trims surrounding whitespace
  let pos = 0;
  while (pos < text.length) {
    SEPARATORS.lastIndex = pos;
    if (SEPARATORS.test(text)) {
      pos = SEPARATORS.lastIndex;
      continue;
    }
    let best: { rule: Rule; match: RegExpExecArray } | null = null;
    for (const r of RULES) {
      r.re.lastIndex = pos;
      const match = r.re.exec(text);
      if (match && match[0].length > 0 && (!best || match[0].length > best.match[0].length)) best = { rule: r, match };
    }
    if (!best || !best.rule.apply(best.match, st)) return null; // unparseable or contradictory
    pos += best.match[0].length;
  }
  return st;
}

/** timelib's do_adjust_for_weekday. */
function adjustWeekday(w: Wall, weekday: number, behavior: number, relDays: number): Wall {
  const dow = new Date(wallAsUtcMillis(w)).getUTCDay();
  if (behavior === 2) {
    let target = weekday;
    if (dow === 0 && target !== 0) target -= 7; // a Sunday belongs to the week that began 6 days before
    if (target === 0 && dow !== 0) target = 7; // "sunday this week" is the week's last day
    return { ...w, d: w.d - dow + target };
  }
  let diff = weekday - dow;
  if ((relDays < 0 && diff < 0) || (relDays >= 0 && diff <= -behavior)) diff += 7;
  return { ...w, d: weekday >= 0 ? w.d + diff : w.d - (7 - (Math.abs(weekday) - dow)) };
}

/** timelib_daynr_from_weeknr: days from January 1 to day `d` (1 Monday … 7 Sunday, 0 the Sunday before) of ISO week `w`. */
function isoWeekDayNumber(y: number, w: number, d: number): number {
  const dow = new Date(wallAsUtcMillis({ y, m: 1, d: 1, h: 0, i: 0, s: 0 })).getUTCDay();
  return -(dow > 4 ? dow - 7 : dow) + (w - 1) * 7 + d;
}

/** do_adjust_special_early: "first monday of next month" starts from day 1 of that month ("last …" of the month after). */
function applyWeekdayInMonth(w: Wall, st: ParseState): Wall {
  const type = st.special?.type;
  if (type !== 'weekdayInMonth' && type !== 'lastWeekdayInMonth') return w;
  const months = st.rel.m + (type === 'lastWeekdayInMonth' ? 1 : 0);
  st.rel.m = 0;
  return { ...w, d: 1, m: w.m + months };
}

/** do_adjust_special_weekday: move `count` business days, skipping Saturdays and Sundays. */
function addBusinessDays(w: Wall, count: number): Wall {
  const dow = new Date(wallAsUtcMillis(w)).getUTCDay();
  let d = w.d + Math.trunc(count / 5) * 7; // whole weeks keep the day of the week
  const rem = count % 5;
  if (count > 0) {
    if (rem === 0)
      d -= dow === 0 ? 2 : dow === 6 ? 1 : 0; // back to Friday when stopping on a weekend
    else if (dow === 6) d += 1;
    else if (dow + rem > 5) d += 2; // past Friday: over the weekend
  } else if (rem === 0) d += dow === 6 ? 2 : dow === 0 ? 1 : 0;
  else if (dow === 0) d -= 1;
  else if (dow + rem < 1) d -= 2;
  return { ...w, d: d + rem };
}

/** "first day of" → day 1; "last day of" → day 0 of the next month. */
function applyFirstLast(w: Wall, firstLast: ParseState['firstLast']): Wall {
  if (firstLast === 'first') return { ...w, d: 1 };
  if (firstLast === 'last') return { ...w, d: 0, m: w.m + 1 };
  return w;
}

/**
 * strtotime proper. Returns the DateTime in its natural zone: the zone written in the string
 * (UTC for "@…"), else `zone`. PHP's DateTime keeps that zone too, which is observable in
 * event creation (§2.2: the parsed wall time is stored as the event's local time).
 */
function strtotime(input: string, zone: Zone, now: Date): DateTime | null {
  if (input === '') return null; // PHP: "Empty string"; whitespace alone means now
  if (input.length > 256) return null;
  const st = scan(input);
  if (!st) return null;
  // timelib_fill_holes: fields not given come from `now` (in the default zone, as PHP does even
  // when the string names another zone); a date without a time means 00:00:00.
  const nowLocal = DateTime.fromJSDate(now, { zone });
  const dateOnly = st.haveDate && !st.haveTime;
  let w: Wall = {
    y: st.y ?? nowLocal.year,
    m: st.m ?? nowLocal.month,
    d: st.d ?? nowLocal.day,
    h: dateOnly ? 0 : (st.h ?? nowLocal.hour),
    i: dateOnly ? 0 : (st.i ?? nowLocal.minute),
    s: dateOnly ? 0 : (st.s ?? nowLocal.second),
  };
  // timelib_update_ts: do_adjust_special_early, do_adjust_relative, then do_adjust_special.
  w = normalizeWall(applyFirstLast(applyWeekdayInMonth(w, st), st.firstLast));
  if (st.weekday !== null) w = normalizeWall(adjustWeekday(w, st.weekday, st.behavior, st.rel.d));
  const r = st.rel;
  w = { y: w.y + r.y, m: w.m + r.m, d: w.d + r.d, h: w.h + r.h, i: w.i + r.i, s: w.s + r.s + Math.floor(r.us / 1e6) };
  w = normalizeWall(applyFirstLast(w, st.firstLast));
  if (st.special?.type === 'weekday') w = normalizeWall(addBusinessDays(w, st.special.amount));
  return wallToDateTime(w, st.zone ?? zone);
}

function timestampOf(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? Math.floor(raw) : null;
  if (typeof raw === 'string' && PHP_NUMERIC.test(raw)) {
    const n = Number(raw.trim());
    return Number.isFinite(n) ? Math.floor(n) : null;
  }
  return null;
}

/** Parse keeping the natural zone (see strtotime); timestamps are UTC like PHP's "@ts". */
export function parseNatural(raw: unknown, zone: Zone, now: Date): DateTime | null {
  const ts = timestampOf(raw);
  if (ts !== null) {
    const dt = DateTime.fromSeconds(ts, { zone: UTC });
    return dt.isValid ? dt : null;
  }
  if (typeof raw !== 'string') return null;
  const dt = strtotime(raw, zone, now);
  return dt && dt.isValid ? dt : null;
}

/**
 * PHP strtotime-compatible parse. `now` is the reference instant; `zone` is an IANA zone id or
 * "UTC+5"/"UTC-3:30" style offset in which relative and absolute wall times are interpreted.
 * Numeric strings/numbers are unix timestamps (seconds). Returns a luxon DateTime in `zone`, or
 * null when unparseable (e.g. "", "foo", "before my birthday", "not a strtotime parsable string").
 */
export function parseDateInput(raw: unknown, zone: string, now: Date = new Date()): DateTime | null {
  const z = toZone(zone, 'UTC');
  return parseNatural(raw, z, now)?.setZone(z) ?? null;
}

/** For validation (`is_time`): a number/numeric string, or a string strtotime parses (in UTC). */
export function isValidDateInput(raw: unknown): boolean {
  return parseDateInput(raw, 'UTC') !== null;
}
