/**
 * Time zones (spec §0.6, §3.1): which timezone strings the API accepts (IANA ids, `UTC±N`
 * WordPress offsets, `±HH:MM`), the luxon zone each maps to, and the abbreviation shown for an
 * instant (`timezone_abbr`). Split out of the former calendar/dates.ts; the wall-time, strtotime
 * and schedule modules all build on it.
 *
 * Pure domain code: no HTTP, no GraphQL, no storage.
 *
 * Deliberate simplifications:
 *  - `UTC±N` zones are fixed offsets everywhere. (The original sometimes maps them to a named
 *    zone with DST, e.g. UTC-5 → America/New_York, which shifts summer times by an hour.)
 *  - Accepted timezone strings are slightly stricter than the original's "starts with UTC".
 */
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';

export const UTC = FixedOffsetZone.utcInstance;

/** WordPress-style offset zones: UTC+5, UTC-3:30, UTC+5.5, UTC+5.75, UTC+0. */
const UTC_OFFSET_RE = /^UTC([+-])(\d{1,2})(?::([0-5]\d)|\.(\d{1,2}))?$/i;
/** Plain ISO offsets, which PHP's DateTimeZone also accepts: +05:00, -0330. */
const ISO_OFFSET_RE = /^([+-])(\d{2}):?([0-5]\d)$/;

/** Offset in minutes of a `UTC±N…` / `±HH:MM` zone string, or null if it is not one. */
function offsetMinutes(tz: string): number | null {
  const t = tz.trim();
  let m = UTC_OFFSET_RE.exec(t);
  if (m) {
    const hours = Number(m[2]);
    // "UTC+5.5" is WordPress's decimal-hours notation (gmt_offset); ".5" means 30 minutes.
    const minutes = m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? Math.round(Number(`0.${m[4]}`) * 60) : 0;
    if (hours > 14) return null;
    return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  m = ISO_OFFSET_RE.exec(t);
  if (m) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return null;
}

function isUtcOffsetString(tz: string): boolean {
  return offsetMinutes(tz) !== null;
}

/** Is this a timezone the API accepts: "", an IANA id (America/New_York, UTC), or UTC±N style offsets. */
export function isValidTimezone(tz: string): boolean {
  if (typeof tz !== 'string') return false;
  if (tz === '') return true;
  return isUtcOffsetString(tz) || isIanaZone(tz);
}

const ianaZones = new Map<string, boolean>();
const IANA_ZONES_KEPT = 1000;

/**
 * Luxon's IANAZone.isValidZone, remembered per name: Luxon builds an Intl.DateTimeFormat for each
 * call, a tenth of an import's time (three calls per event written). Any name can come in, so
 * only the first IANA_ZONES_KEPT are kept.
 */
export function isIanaZone(tz: string): boolean {
  let valid = ianaZones.get(tz);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(tz);
    if (ianaZones.size < IANA_ZONES_KEPT) ianaZones.set(tz, valid);
  }
  return valid;
}

/** Luxon zone for a stored timezone string ("" → the given fallback; unknown → fallback, then UTC). */
export function toZone(tz: string, fallback: string): Zone {
  return zoneOrNull(tz) ?? zoneOrNull(fallback) ?? UTC;
}

function zoneOrNull(tz: string | undefined): Zone | null {
  if (typeof tz !== 'string' || tz.trim() === '') return null;
  const offset = offsetMinutes(tz);
  if (offset !== null) return offset === 0 ? UTC : FixedOffsetZone.instance(offset);
  if (/^(utc|gmt|z)$/i.test(tz.trim())) return UTC;
  return isIanaZone(tz) ? IANAZone.create(tz) : null;
}

/**
 * tzdb abbreviations ([standard, daylight]) for common zones where Node's ICU has no English
 * abbreviation (it prints "GMT+9") or prints a different one than PHP would. PHP's `T` format
 * reads tzdb, so this table follows tzdb.
 */
const ABBR_TABLE: Record<string, [string, string]> = {
  UTC: ['UTC', 'UTC'],
  'Etc/UTC': ['UTC', 'UTC'],
  'Etc/UCT': ['UTC', 'UTC'],
  UCT: ['UTC', 'UTC'],
  Universal: ['UTC', 'UTC'],
  'Etc/Universal': ['UTC', 'UTC'],
  Zulu: ['UTC', 'UTC'],
  'Etc/Zulu': ['UTC', 'UTC'],
  GMT: ['GMT', 'GMT'],
  'Etc/GMT': ['GMT', 'GMT'],
  'Etc/GMT0': ['GMT', 'GMT'],
  Greenwich: ['GMT', 'GMT'],
  'Europe/London': ['GMT', 'BST'],
  'Europe/Dublin': ['GMT', 'IST'],
  'Europe/Lisbon': ['WET', 'WEST'],
  'Europe/Moscow': ['MSK', 'MSD'],
  'Europe/Simferopol': ['MSK', 'MSK'],
  'Africa/Johannesburg': ['SAST', 'SAST'],
  'Africa/Lagos': ['WAT', 'WAT'],
  'Africa/Nairobi': ['EAT', 'EAT'],
  'Africa/Cairo': ['EET', 'EEST'],
  'Asia/Kolkata': ['IST', 'IST'],
  'Asia/Calcutta': ['IST', 'IST'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Asia/Tel_Aviv': ['IST', 'IDT'],
  Israel: ['IST', 'IDT'],
  'Asia/Karachi': ['PKT', 'PKST'],
  'Asia/Dubai': ['+04', '+04'],
  'Asia/Muscat': ['+04', '+04'],
  'Asia/Tokyo': ['JST', 'JDT'],
  Japan: ['JST', 'JDT'],
  'Asia/Seoul': ['KST', 'KDT'],
  'Asia/Pyongyang': ['KST', 'KST'],
  'Asia/Shanghai': ['CST', 'CDT'],
  'Asia/Chongqing': ['CST', 'CDT'],
  'Asia/Harbin': ['CST', 'CDT'],
  PRC: ['CST', 'CDT'],
  'Asia/Taipei': ['CST', 'CDT'],
  'Asia/Macau': ['CST', 'CDT'],
  'Asia/Hong_Kong': ['HKT', 'HKST'],
  'Asia/Manila': ['PST', 'PDT'],
  'Asia/Jakarta': ['WIB', 'WIB'],
  'Asia/Pontianak': ['WIB', 'WIB'],
  'Asia/Makassar': ['WITA', 'WITA'],
  'Asia/Jayapura': ['WIT', 'WIT'],
  'Australia/Sydney': ['AEST', 'AEDT'],
  'Australia/Melbourne': ['AEST', 'AEDT'],
  'Australia/Hobart': ['AEST', 'AEDT'],
  'Australia/Canberra': ['AEST', 'AEDT'],
  'Australia/ACT': ['AEST', 'AEDT'],
  'Australia/NSW': ['AEST', 'AEDT'],
  'Australia/Brisbane': ['AEST', 'AEST'],
  'Australia/Adelaide': ['ACST', 'ACDT'],
  'Australia/Broken_Hill': ['ACST', 'ACDT'],
  'Australia/Darwin': ['ACST', 'ACST'],
  'Australia/Perth': ['AWST', 'AWST'],
  'Pacific/Auckland': ['NZST', 'NZDT'],
  NZ: ['NZST', 'NZDT'],
  'America/St_Johns': ['NST', 'NDT'],
  'Pacific/Honolulu': ['HST', 'HST'],
  'Pacific/Guam': ['ChST', 'ChST'],
  'Pacific/Saipan': ['ChST', 'ChST'],
  'Europe/Guernsey': ['GMT', 'BST'],
  'Europe/Isle_of_Man': ['GMT', 'BST'],
  'Europe/Jersey': ['GMT', 'BST'],
  'Europe/Kirov': ['MSK', 'MSK'],
  'Europe/Volgograd': ['MSK', 'MSK'],
  'America/Havana': ['CST', 'CDT'],
  'America/Hermosillo': ['MST', 'MST'],
  'America/Mazatlan': ['MST', 'MDT'],
  'America/Whitehorse': ['MST', 'MST'],
  'America/Dawson': ['MST', 'MST'],
  'America/Adak': ['HST', 'HDT'],
  'Pacific/Pago_Pago': ['SST', 'SST'],
  'Pacific/Midway': ['SST', 'SST'],
  // tzdb has no letters for these, though ICU invents some
  'America/Miquelon': ['-03', '-02'],
  'Australia/Eucla': ['+0845', '+0845'],
  'Australia/Lord_Howe': ['+1030', '+11'],
  'Antarctica/Casey': ['+08', '+08'],
  'Antarctica/Troll': ['+00', '+02'],
};

/**
 * Locales whose ICU data carries the English abbreviations tzdb uses for the Americas (en-US, en-CA),
 * Europe (en-GB: CET, EET, WET…), Australia and Africa (en-ZA: CAT, WAT, EAT). Only alphabetic answers are taken: ICU prints "GMT+11"
 * where it has no abbreviation, and that is never what PHP prints.
 */
const ABBR_LOCALES = ['en-US', 'en-CA', 'en-GB', 'en-AU', 'en-ZA'];
const shortNameFormats = new Map<string, Intl.DateTimeFormat>();

function intlShortName(locale: string, zone: string, at: Date): string | undefined {
  const key = `${locale}|${zone}`;
  let fmt = shortNameFormats.get(key);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
    shortNameFormats.set(key, fmt);
  }
  return fmt.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
}

/** tzdb's numeric form for zones without a letter abbreviation: +04, +0545, -03. */
function numericAbbr(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = abs % 60;
  return mm === 0 ? `${sign}${hh}` : `${sign}${hh}${String(mm).padStart(2, '0')}`;
}

/**
 * Abbreviation at an instant, as the original's `timezone_abbr`: "EST"/"EDT"/"CST"/"AEDT"/"UTC";
 * for UTC±N (and ±HH:MM) zones the zone string itself; "" for "" or an unknown zone.
 *
 * Source order: the tzdb table above, then ICU's English short names (alphabetic only), then
 * tzdb's numeric form ("+04"). (The original, for zones whose tzdb abbreviation is numeric,
 * substitutes an arbitrary historical abbreviation from PHP's list — e.g. "BMT" for Bangkok; we
 * keep tzdb's numeric form instead.)
 */
export function timezoneAbbr(tz: string, at: Date): string {
  if (typeof tz !== 'string' || tz === '') return '';
  if (isUtcOffsetString(tz)) return tz;
  const zone = zoneOrNull(tz);
  if (!zone) return '';
  const dt = DateTime.fromJSDate(at, { zone });
  const known = ABBR_TABLE[tz] ?? ABBR_TABLE[zone.name];
  if (known) return dt.isInDST ? known[1] : known[0];
  for (const locale of ABBR_LOCALES) {
    const name = intlShortName(locale, zone.name, at);
    if (name && /^[A-Z]{2,5}$/.test(name)) return name;
  }
  return numericAbbr(dt.offset);
}
