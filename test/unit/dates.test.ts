import { describe, it, expect } from 'vitest';
import { isValidTimezone, timezoneAbbr, toZone } from '../../src/calendar/dates/zones.ts';
import { dateDetails, formatWall, utcToWall, wallToUtc } from '../../src/calendar/dates/wall-times.ts';
import { isValidDateInput, parseDateInput } from '../../src/calendar/dates/strtotime.ts';
import { eventSchedule, isStrictFlag, listDateWindow } from '../../src/calendar/dates/schedule.ts';
import { DateTime } from 'luxon';

/** A Wednesday. */
const NOW = new Date('2026-11-25T14:30:15Z');
/** The clock of the recorded samples (spec/samples/13-events-list.http). */
const SAMPLE_NOW = new Date('2026-11-22T11:22:22Z');
/** 01:30 CST on the day America/Chicago springs forward (02:00 → 03:00). */
const CHICAGO_DST_DAY = new Date('2026-03-08T07:30:00Z');

const wallIn = (raw: unknown, zone: string, now: Date): string | null => {
  const dt = parseDateInput(raw, zone, now);
  return dt ? formatWall(dt) : null;
};

describe('parseDateInput — PHP strtotime compatibility', () => {
  // Expected values are PHP 8.2's strtotime() output for the same input, zone and clock.
  // [input, local wall time, UTC offset in minutes]
  const utcCases: [string, string, number][] = [
    ['now', '2026-11-25 14:30:15', 0],
    ['today', '2026-11-25 00:00:00', 0],
    ['tomorrow', '2026-11-26 00:00:00', 0],
    ['yesterday', '2026-11-24 00:00:00', 0],
    ['midnight', '2026-11-25 00:00:00', 0],
    ['noon', '2026-11-25 12:00:00', 0],
    ['tomorrow 9am', '2026-11-26 09:00:00', 0],
    ['tomorrow 23:59:59', '2026-11-26 23:59:59', 0],
    ['yesterday 23:59', '2026-11-24 23:59:00', 0],
    ['yesterday noon', '2026-11-24 12:00:00', 0],
    ['9am tomorrow', '2026-11-26 00:00:00', 0],
    ['next wednesday 4pm', '2026-12-02 16:00:00', 0],
    ['next wednesday', '2026-12-02 00:00:00', 0],
    ['wednesday', '2026-11-25 00:00:00', 0],
    ['thursday', '2026-11-26 00:00:00', 0],
    ['this wednesday', '2026-11-25 00:00:00', 0],
    ['last monday', '2026-11-23 00:00:00', 0],
    ['last wednesday', '2026-11-18 00:00:00', 0],
    ['next sat', '2026-11-28 00:00:00', 0],
    ['+1 monday', '2026-11-30 14:30:15', 0],
    ['+5 days 11am', '2026-11-30 11:00:00', 0],
    ['+24 months', '2028-11-25 14:30:15', 0],
    ['-1 week', '2026-11-18 14:30:15', 0],
    ['-1 weeks', '2026-11-18 14:30:15', 0],
    ['+1 day', '2026-11-26 14:30:15', 0],
    ['1 day', '2026-11-26 14:30:15', 0],
    ['+2 hours', '2026-11-25 16:30:15', 0],
    ['+90 minutes', '2026-11-25 16:00:15', 0],
    ['1 week ago', '2026-11-18 14:30:15', 0],
    ['2 days ago 3pm', '2026-11-23 15:00:00', 0],
    ['+1 week 2 days', '2026-12-04 14:30:15', 0],
    ['++1 day', '2026-11-26 14:30:15', 0],
    ['+-1 day', '2026-11-24 14:30:15', 0],
    ['next week', '2026-11-30 14:30:15', 0],
    ['this week', '2026-11-23 14:30:15', 0],
    ['last week', '2026-11-16 14:30:15', 0],
    ['monday next week', '2026-11-30 00:00:00', 0],
    ['sunday this week', '2026-11-29 00:00:00', 0],
    ['next month', '2026-12-25 14:30:15', 0],
    ['next year', '2027-11-25 14:30:15', 0],
    ['first day of next month', '2026-12-01 14:30:15', 0],
    ['last day of this month', '2026-11-30 14:30:15', 0],
    ['last day of february', '2026-02-28 00:00:00', 0],
    ['first day of january 2018', '2018-01-01 00:00:00', 0],
    ['2018-01-31 +1 month', '2018-03-03 00:00:00', 0],
    ['2018-02-30', '2018-03-02 00:00:00', 0],
    ['2024-02-29 +1 year', '2025-03-01 00:00:00', 0],
    ['2018-01-01', '2018-01-01 00:00:00', 0],
    ['2018-01-01 16:00:00', '2018-01-01 16:00:00', 0],
    ['2018-01-01T16:00:00', '2018-01-01 16:00:00', 0],
    ['2018-01-01 4pm', '2018-01-01 16:00:00', 0],
    ['2018-01-01 16:00', '2018-01-01 16:00:00', 0],
    ['2018-01-01T16:00:00Z', '2018-01-01 16:00:00', 0],
    ['2018-01-01T16:00:00+02:00', '2018-01-01 14:00:00', 0],
    ['2018-01-01T16:00:00.123Z', '2018-01-01 16:00:00', 0],
    ['2018-01-01 16:00:00 America/New_York', '2018-01-01 21:00:00', 0],
    ['2018-01-01 16:00 EST', '2018-01-01 21:00:00', 0],
    ['2018-01-01 16:00 GMT+5', '2018-01-01 11:00:00', 0],
    ['2018-01-01 16:00 UTC+5', '2018-01-01 16:00:00', 0],
    ['2018/01/05', '2018-01-05 00:00:00', 0],
    ['18-01-05', '2018-01-05 00:00:00', 0],
    ['January 5 2018', '2018-01-05 00:00:00', 0],
    ['5 January 2018', '2018-01-05 00:00:00', 0],
    ['Jan 5, 2018 10:00', '2018-01-05 10:00:00', 0],
    ['January 5th, 2018', '2018-01-05 00:00:00', 0],
    ['Jan. 5, 2018', '2018-01-05 00:00:00', 0],
    ['5-Jan-2018', '2018-01-05 00:00:00', 0],
    ['January 5 10:00', '2026-01-05 10:00:00', 0],
    ['January 5 4:30pm', '2026-01-05 16:30:00', 0],
    ['January 5', '2026-01-05 00:00:00', 0],
    ['5 January', '2026-01-05 00:00:00', 0],
    ['December 31', '2026-12-31 00:00:00', 0],
    ['January 2018', '2018-01-01 00:00:00', 0],
    ['January', '2026-01-25 00:00:00', 0],
    ['12/25/2026', '2026-12-25 00:00:00', 0],
    ['12/25', '2026-12-25 00:00:00', 0],
    ['1/2/3', '2003-01-02 00:00:00', 0],
    ['25-12-2026', '2026-12-25 00:00:00', 0],
    ['25.12.2026', '2026-12-25 00:00:00', 0],
    ['20180101 16:00', '2018-01-01 16:00:00', 0],
    ['4pm', '2026-11-25 16:00:00', 0],
    ['16:00', '2026-11-25 16:00:00', 0],
    ['4 pm', '2026-11-25 16:00:00', 0],
    ['4:30pm', '2026-11-25 16:30:00', 0],
    ['4 p.m.', '2026-11-25 16:00:00', 0],
    ['12am', '2026-11-25 00:00:00', 0],
    ['12pm', '2026-11-25 12:00:00', 0],
    ['T16:00', '2026-11-25 16:00:00', 0],
    ['t1600', '2026-11-25 16:00:00', 0],
    ['10:00 2018', '2018-11-25 10:00:00', 0],
    ['24:00', '2026-11-26 00:00:00', 0],
    ['Sat, 05 Jan 2018 10:00:00 GMT', '2018-01-06 10:00:00', 0],
    ['Monday, January 5 2026', '2026-01-05 00:00:00', 0],
    ['@1514764800', '2018-01-01 00:00:00', 0],
    ['@1514764800 +1 day', '2018-01-02 00:00:00', 0],
    ['16:00 tomorrow', '2026-11-26 00:00:00', 0],
    ['tomorrow noon', '2026-11-26 12:00:00', 0],
    ['NEXT MONDAY', '2026-11-30 00:00:00', 0],
    ['Tomorrow 4PM', '2026-11-26 16:00:00', 0],
  ];
  it.each(utcCases)('%s (UTC, Wednesday 2026-11-25 14:30:15)', (input, wall, offset) => {
    const dt = parseDateInput(input, 'UTC', NOW);
    expect(dt && formatWall(dt)).toBe(wall);
    expect(dt?.offset).toBe(offset);
  });

  // Chicago on the day DST starts: relative hours are wall-clock arithmetic, times in the gap
  // move forward, ambiguous times take the first (CDT) occurrence — as PHP does.
  const chicagoCases: [string, string, number][] = [
    ['now', '2026-03-08 01:30:00', -360],
    ['+1 hour', '2026-03-08 03:30:00', -300],
    ['+2 hours', '2026-03-08 03:30:00', -300],
    ['+90 minutes', '2026-03-08 03:00:00', -300],
    ['+1 day', '2026-03-09 01:30:00', -300],
    ['tomorrow', '2026-03-09 00:00:00', -300],
    ['2026-03-08 02:30:00', '2026-03-08 03:30:00', -300],
    ['2026-11-01 01:30:00', '2026-11-01 01:30:00', -300],
    ['2026-11-01 00:30:00 +2 hours', '2026-11-01 02:30:00', -360],
    ['16:00 America/New_York', '2026-03-08 15:00:00', -300],
    ['tomorrow UTC', '2026-03-08 19:00:00', -300],
    ['next monday 9:30', '2026-03-09 09:30:00', -300],
    ['1 hour ago', '2026-03-08 00:30:00', -360],
    ['2018-01-01T16:00:00Z', '2018-01-01 10:00:00', -360],
  ];
  it.each(chicagoCases)('%s (America/Chicago, 2026-03-08 01:30 CST)', (input, wall, offset) => {
    const dt = parseDateInput(input, 'America/Chicago', CHICAGO_DST_DAY);
    expect(dt && formatWall(dt)).toBe(wall);
    expect(dt?.offset).toBe(offset);
  });

  it.each([
    ['foo'],
    ['before my birthday'],
    ['not a strtotime parsable string'],
    ['4pm 5pm'],
    ['2018-01-01 2018-01-02'],
    ['2018-13-01'],
    ['5 January 10:00'],
    ['January 5 4pm'],
    ['Jan 5 sunday'],
    ['Jan 5 noon'],
    ['4pm,'],
    ['next'],
    ['day'],
    ['tomorrow foo'],
    ['16:00 +5 +3 +2'],
    [''],
  ])('rejects %j', (input) => {
    expect(parseDateInput(input, 'UTC', NOW)).toBeNull();
  });

  // NOW is Wednesday 2026-11-25 14:30:15 UTC.
  it.each([
    ['+3 weekdays', '2026-11-30 14:30:15'], // over the weekend, keeping the time
    ['-3 weekdays', '2026-11-20 14:30:15'],
    ['3 weekdays ago', '2026-11-20 14:30:15'],
    ['next weekday', '2026-11-26 00:00:00'],
    ['first monday of next month', '2026-12-07 00:00:00'],
    ['last friday of this month', '2026-11-27 00:00:00'],
    ['second tuesday of january 2027', '2027-01-12 00:00:00'],
    ['2026-W48-3', '2026-11-25 00:00:00'],
    ['2026W48', '2026-11-23 00:00:00'],
    ['2026-330', '2026-11-26 00:00:00'],
    ['back of 7pm', '2026-11-25 19:15:00'],
    ['front of 7pm', '2026-11-25 18:45:00'],
    ['back of 12am', '2026-11-25 00:15:00'],
    ['front of 0am', '2026-11-24 23:45:00'], // the meridian does not fold the hour (timelib): -1 is the day before
    ['5 IX 2026', '2026-09-05 00:00:00'],
    ['25/Dec/2026:10:00:00 +0100', '2026-12-25 09:00:00'],
    ['2026:12:25 10:00:00', '2026-12-25 10:00:00'],
    ['Back of 7pm', '2026-11-25 18:45:00'], // timelib tests for a lower-case "b": capitalised, it is "front of"
    ['25/Dec/2026:10:00:00 +0100 EST', '2026-12-25 15:00:00'], // the log form's zone does not count: a later one wins
    ['1:30:00.123pm', '2026-11-25 13:30:00'],
    ['0050-W01', '0050-01-03 00:00:00'], // a two-digit year's week, not 1950's
    ['tomorrowT10:00:00', '2026-11-26 10:00:00'], // a word may run into the T of a time
  ])('reads %j as PHP does', (input, wall) => {
    expect(wallIn(input, 'UTC', NOW)).toBe(wall);
  });

  it('treats whitespace alone as now, like PHP', () => {
    expect(wallIn('  ', 'UTC', NOW)).toBe('2026-11-25 14:30:15');
  });

  it('reads numbers and numeric strings as unix timestamps', () => {
    expect(wallIn(1514764800, 'UTC', NOW)).toBe('2018-01-01 00:00:00');
    expect(wallIn('1514764800', 'UTC', NOW)).toBe('2018-01-01 00:00:00');
    expect(wallIn(' 1514764800 ', 'UTC', NOW)).toBe('2018-01-01 00:00:00');
    expect(wallIn('1514764800.9', 'UTC', NOW)).toBe('2018-01-01 00:00:00');
    expect(wallIn('1600', 'UTC', NOW)).toBe('1970-01-01 00:26:40'); // numeric first, as the API does
    expect(wallIn(1514764800, 'America/Chicago', NOW)).toBe('2017-12-31 18:00:00');
  });

  it('rejects values that are neither numbers nor strings', () => {
    for (const v of [null, undefined, true, false, {}, [], ['2018-01-01'], Number.NaN]) {
      expect(parseDateInput(v, 'UTC', NOW)).toBeNull();
    }
  });

  it('returns the DateTime in the requested zone', () => {
    const dt = parseDateInput('2018-01-01T16:00:00Z', 'America/Chicago', NOW)!;
    expect(formatWall(dt)).toBe('2018-01-01 10:00:00');
    expect(dt.zoneName).toBe('America/Chicago');
    expect(formatWall(parseDateInput('2018-01-01 16:00', 'UTC+5', NOW)!)).toBe('2018-01-01 16:00:00');
    expect(parseDateInput('2018-01-01 16:00', 'UTC+5', NOW)!.toUTC().toISO()).toBe('2018-01-01T11:00:00.000Z');
    expect(parseDateInput('2018-01-01 16:00', 'UTC-3:30', NOW)!.toUTC().toISO()).toBe('2018-01-01T19:30:00.000Z');
  });

  it('resolves relative expressions against now in the given zone', () => {
    // 14:30 UTC is already the 26th in Auckland (UTC+13 in November). Values checked against PHP.
    expect(wallIn('today', 'Pacific/Auckland', NOW)).toBe('2026-11-26 00:00:00');
    expect(wallIn('tomorrow 9am', 'America/Los_Angeles', NOW)).toBe('2026-11-26 09:00:00');
    expect(wallIn('yesterday 23:59', 'Asia/Tokyo', NOW)).toBe('2026-11-24 23:59:00'); // 23:30 on the 25th there
  });

  it('defaults now to the current time', () => {
    const before = Date.now();
    const dt = parseDateInput('now', 'UTC')!;
    expect(dt.toMillis()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(dt.toMillis()).toBeLessThanOrEqual(Date.now());
  });

  it('gives up on absurd values instead of throwing', () => {
    expect(parseDateInput('+9999999999999 years', 'UTC', NOW)).toBeNull();
    expect(parseDateInput('@99999999999999999', 'UTC', NOW)).toBeNull();
    expect(parseDateInput('x'.repeat(1000), 'UTC', NOW)).toBeNull();
  });
});

describe('isValidDateInput', () => {
  it('accepts timestamps and strtotime strings', () => {
    for (const v of [1514764800, '1514764800', '2018-01-01', 'tomorrow 9am', '+24 months', 'next wednesday 4pm']) {
      expect(isValidDateInput(v)).toBe(true);
    }
  });
  it('rejects the values the spec lists as invalid', () => {
    for (const v of ['', 'foo', 'before my birthday', 'not a strtotime parsable string', null, undefined, true]) {
      expect(isValidDateInput(v)).toBe(false);
    }
  });
});

describe('isStrictFlag', () => {
  it.each(['1', 'true', 'on', 'yes', 'TRUE', 'Yes', ' on ', true, 1])('%j is strict', (v) => {
    expect(isStrictFlag(v)).toBe(true);
  });
  it.each(['0', 'false', 'off', 'no', '', 'y', 'enabled', '2', false, 0, 2, null, undefined, ['1']])('%j is not strict', (v) => {
    expect(isStrictFlag(v)).toBe(false);
  });
});

describe('timezones', () => {
  it('accepts "", IANA ids and UTC offsets', () => {
    for (const tz of [
      '',
      'UTC',
      'America/New_York',
      'Europe/London',
      'US/Eastern',
      'UTC+0',
      'UTC+5',
      'UTC-3:30',
      'UTC+5.5',
      'UTC+5.75',
      'UTC-12',
    ]) {
      expect(isValidTimezone(tz)).toBe(true);
    }
  });
  it('rejects anything else', () => {
    for (const tz of ['foo', 'Mars/Olympus', 'UTC+', 'UTCfoo', 'UTC+99', 'America/New York']) {
      expect(isValidTimezone(tz)).toBe(false);
    }
  });

  it('maps timezone strings to luxon zones', () => {
    expect(toZone('America/Chicago', 'UTC').name).toBe('America/Chicago');
    expect(toZone('UTC+5', 'UTC').offset(0)).toBe(300);
    expect(toZone('UTC-3:30', 'UTC').offset(0)).toBe(-210);
    expect(toZone('UTC+5.5', 'UTC').offset(0)).toBe(330);
    expect(toZone('UTC+5.75', 'UTC').offset(0)).toBe(345);
    expect(toZone('UTC+0', 'America/Chicago').offset(0)).toBe(0);
    expect(toZone('', 'America/Chicago').name).toBe('America/Chicago');
    expect(toZone('', '').name).toBe('UTC');
    expect(toZone('Mars/Olympus', 'Europe/Paris').name).toBe('Europe/Paris');
  });

  const at = (iso: string) => new Date(iso);
  it.each([
    ['America/Chicago', '2026-12-06T01:00:00Z', 'CST'], // sample 08-event-create-with-ids
    ['America/Chicago', '2026-07-01T12:00:00Z', 'CDT'],
    ['America/New_York', '2026-01-15T12:00:00Z', 'EST'],
    ['America/New_York', '2026-07-15T12:00:00Z', 'EDT'],
    ['Australia/Sydney', '2026-01-15T12:00:00Z', 'AEDT'],
    ['Australia/Sydney', '2026-07-15T12:00:00Z', 'AEST'],
    ['Europe/London', '2026-01-15T12:00:00Z', 'GMT'],
    ['Europe/London', '2026-07-15T12:00:00Z', 'BST'],
    ['Europe/Paris', '2026-07-15T12:00:00Z', 'CEST'],
    ['Asia/Tokyo', '2026-01-15T12:00:00Z', 'JST'],
    ['Asia/Kolkata', '2026-01-15T12:00:00Z', 'IST'],
    ['Africa/Lagos', '2026-01-15T12:00:00Z', 'WAT'],
    ['Africa/Maputo', '2026-01-15T12:00:00Z', 'CAT'],
    ['Asia/Bangkok', '2026-01-15T12:00:00Z', '+07'], // tzdb has no letters: its numeric form
    ['Asia/Kathmandu', '2026-01-15T12:00:00Z', '+0545'],
    ['America/Sao_Paulo', '2026-01-15T12:00:00Z', '-03'],
    ['UTC', '2026-01-15T12:00:00Z', 'UTC'],
    ['UTC+5', '2026-01-15T12:00:00Z', 'UTC+5'],
    ['UTC-3:30', '2026-01-15T12:00:00Z', 'UTC-3:30'],
    ['', '2026-01-15T12:00:00Z', ''],
    ['Mars/Olympus', '2026-01-15T12:00:00Z', ''],
  ])('abbreviation of %s at %s is %j', (tz, iso, abbr) => {
    expect(timezoneAbbr(tz, at(iso))).toBe(abbr);
  });
});

describe('wall times', () => {
  it('formats as YYYY-MM-DD HH:MM:SS', () => {
    expect(formatWall(DateTime.fromISO('2017-01-05T04:03:06', { zone: 'UTC' }))).toBe('2017-01-05 04:03:06');
  });

  it('splits into zero-padded string details', () => {
    expect(dateDetails('2017-01-05 14:23:36')).toEqual({ year: '2017', month: '01', day: '05', hour: '14', minutes: '23', seconds: '36' });
    expect(dateDetails('2026-12-20 00:00:00')).toEqual({ year: '2026', month: '12', day: '20', hour: '00', minutes: '00', seconds: '00' });
    expect(() => dateDetails('2026-12-20')).toThrow();
  });

  it('converts local walls to UTC and back (sample 08: Chicago 19:00 → 01:00 UTC next day)', () => {
    expect(wallToUtc('2026-12-05 19:00:00', 'America/Chicago')).toBe('2026-12-06 01:00:00');
    expect(wallToUtc('2026-12-05 22:00:00', 'America/Chicago')).toBe('2026-12-06 04:00:00');
    expect(utcToWall('2026-12-06 01:00:00', 'America/Chicago')).toBe('2026-12-05 19:00:00');
    expect(wallToUtc('2026-07-05 19:00:00', 'America/Chicago')).toBe('2026-07-06 00:00:00');
    expect(wallToUtc('2026-12-05 19:00:00', 'UTC+5')).toBe('2026-12-05 14:00:00');
    expect(utcToWall('2026-12-05 14:00:00', 'UTC-3:30')).toBe('2026-12-05 10:30:00');
    expect(wallToUtc('2026-12-05 19:00:00', '')).toBe('2026-12-05 19:00:00');
  });

  it('resolves DST gaps forward and overlaps to the first occurrence, like PHP', () => {
    expect(wallToUtc('2026-03-08 02:30:00', 'America/Chicago')).toBe('2026-03-08 08:30:00'); // = 03:30 CDT
    expect(wallToUtc('2026-11-01 01:30:00', 'America/Chicago')).toBe('2026-11-01 06:30:00'); // 01:30 CDT
    expect(wallToUtc('2026-10-04 02:30:00', 'Australia/Sydney')).toBe('2026-10-03 16:30:00'); // = 03:30 AEDT
  });

  it('rejects malformed walls', () => {
    expect(() => wallToUtc('2026-12-05T19:00:00', 'UTC')).toThrow();
    expect(() => utcToWall('tomorrow', 'UTC')).toThrow();
  });
});

describe('eventSchedule', () => {
  it('reads start/end in the event zone (sample 08: America/Chicago)', () => {
    expect(
      eventSchedule({
        start: '2026-12-05 19:00:00',
        end: '2026-12-05 22:00:00',
        timezone: 'America/Chicago',
        allDay: false,
        now: SAMPLE_NOW,
      }),
    ).toEqual({
      startLocal: '2026-12-05 19:00:00',
      endLocal: '2026-12-05 22:00:00',
      startUtc: '2026-12-06 01:00:00',
      endUtc: '2026-12-06 04:00:00',
    });
  });

  it('makes all-day events run from 00:00:00 of the first day to 23:59:59 of the last (sample 10)', () => {
    expect(eventSchedule({ start: '2026-12-20', end: '2026-12-21', timezone: 'UTC', allDay: true, now: SAMPLE_NOW })).toEqual({
      startLocal: '2026-12-20 00:00:00',
      endLocal: '2026-12-21 23:59:59',
      startUtc: '2026-12-20 00:00:00',
      endUtc: '2026-12-21 23:59:59',
    });
    expect(
      eventSchedule({ start: '2026-12-20 15:00', end: '2026-12-21 09:00', timezone: 'America/Chicago', allDay: true, now: SAMPLE_NOW }),
    ).toEqual({
      startLocal: '2026-12-20 00:00:00',
      endLocal: '2026-12-21 23:59:59',
      startUtc: '2026-12-20 06:00:00',
      endUtc: '2026-12-22 05:59:59',
    });
  });

  it('applies the multi-day cutoff to all-day events', () => {
    const s = eventSchedule({
      start: '2026-12-20',
      end: '2026-12-21',
      timezone: 'UTC',
      allDay: true,
      now: SAMPLE_NOW,
      multiDayCutoff: '04:30',
    });
    expect(s).toMatchObject({ startLocal: '2026-12-20 04:30:00', endLocal: '2026-12-22 04:29:59' });
  });

  it('sets the local end to the start when the end comes first (no error); the UTC end keeps the end given, as the original stores it', () => {
    expect(
      eventSchedule({
        start: '2026-12-05 19:00:00',
        end: '2026-12-01 10:00:00',
        timezone: 'America/Chicago',
        allDay: false,
        now: SAMPLE_NOW,
      }),
    ).toEqual({
      startLocal: '2026-12-05 19:00:00',
      endLocal: '2026-12-05 19:00:00',
      startUtc: '2026-12-06 01:00:00',
      endUtc: '2026-12-01 16:00:00',
    });
  });

  it('resolves relative dates against now in the event zone', () => {
    expect(
      eventSchedule({ start: 'tomorrow 9am', end: '+5 days 11am', timezone: 'America/Chicago', allDay: false, now: SAMPLE_NOW }),
    ).toEqual({
      startLocal: '2026-11-23 09:00:00',
      endLocal: '2026-11-27 11:00:00',
      startUtc: '2026-11-23 15:00:00',
      endUtc: '2026-11-27 17:00:00',
    });
  });

  it('keeps the wall time as parsed for timestamps (UTC) and strings with their own zone, like the original', () => {
    // PHP's DateTime('@ts', $tz) ignores $tz: the UTC wall time becomes the event's local time
    expect(eventSchedule({ start: 1796500000, end: '1796503600', timezone: 'America/Chicago', allDay: false, now: SAMPLE_NOW })).toEqual({
      startLocal: '2026-12-05 19:46:40',
      endLocal: '2026-12-05 20:46:40',
      startUtc: '2026-12-06 01:46:40',
      endUtc: '2026-12-06 02:46:40',
    });
    expect(
      eventSchedule({
        start: '2026-12-05T19:00:00-06:00',
        end: '2026-12-05T22:00:00Z',
        timezone: 'America/Chicago',
        allDay: false,
        now: SAMPLE_NOW,
      }),
    ).toMatchObject({ startLocal: '2026-12-05 19:00:00', endLocal: '2026-12-05 22:00:00', startUtc: '2026-12-06 01:00:00' });
  });

  it('handles UTC±N event zones as fixed offsets', () => {
    expect(
      eventSchedule({ start: '2026-07-05 10:00', end: '2026-07-05 12:00', timezone: 'UTC-5', allDay: false, now: SAMPLE_NOW }),
    ).toEqual({
      startLocal: '2026-07-05 10:00:00',
      endLocal: '2026-07-05 12:00:00',
      startUtc: '2026-07-05 15:00:00',
      endUtc: '2026-07-05 17:00:00',
    });
  });

  it('returns null when a date does not parse', () => {
    expect(eventSchedule({ start: 'foo', end: '2026-12-05', timezone: 'UTC', allDay: false, now: SAMPLE_NOW })).toBeNull();
    expect(eventSchedule({ start: '2026-12-05', end: undefined, timezone: 'UTC', allDay: true, now: SAMPLE_NOW })).toBeNull();
  });
});

describe('listDateWindow', () => {
  const base = { strict: false, include: false, siteTimezone: 'UTC', now: SAMPLE_NOW };

  it('defaults to yesterday 00:00 … now + 24 months 23:59:59 (sample 13-events-list)', () => {
    const w = listDateWindow(base);
    expect(w).toEqual({
      startGte: '2026-11-21 00:00:00',
      endLte: '2028-11-22 23:59:59',
      effective: { startDate: '2026-11-21 00:00:00', endDate: '2028-11-22 23:59:59' },
    });
  });

  it('rounds a given range to whole days (sample 17-events-list-date-range)', () => {
    const w = listDateWindow({ ...base, startDate: '2026-12-09', endDate: '2026-12-31' });
    expect(w.effective).toEqual({ startDate: '2026-12-09 00:00:00', endDate: '2026-12-31 23:59:59' });
  });

  it('takes the default start from the site-local date of "yesterday 23:59 UTC"', () => {
    // west of UTC: 2026-11-21 23:59 UTC is still the 21st in New York
    expect(listDateWindow({ ...base, siteTimezone: 'America/New_York' }).startGte).toBe('2026-11-21 00:00:00');
    // east of UTC: it is already the 22nd ("usually local today")
    expect(listDateWindow({ ...base, siteTimezone: 'Asia/Tokyo' }).startGte).toBe('2026-11-22 00:00:00');
    expect(listDateWindow({ ...base, siteTimezone: 'UTC+5' }).startGte).toBe('2026-11-22 00:00:00');
    // the end is the UTC date of now + 24 months, whatever the site zone
    expect(listDateWindow({ ...base, siteTimezone: 'Pacific/Auckland' }).endLte).toBe('2028-11-22 23:59:59');
  });

  it('uses the UTC calendar date of the raw value in inclusive mode, ignoring its time', () => {
    const w = listDateWindow({
      ...base,
      startDate: '2018-01-01 15:00:00',
      endDate: '1514840400', // 2018-01-01 21:00:00 UTC
      siteTimezone: 'America/New_York',
    });
    expect(w.effective).toEqual({ startDate: '2018-01-01 00:00:00', endDate: '2018-01-01 23:59:59' });
    // an explicit offset moves the instant, hence possibly the UTC date
    expect(listDateWindow({ ...base, startDate: '2017-12-31T22:00:00-05:00' }).startGte).toBe('2018-01-01 00:00:00');
  });

  it('uses the exact instant in strict mode, converted to the site zone', () => {
    const w = listDateWindow({ ...base, strict: true, startDate: '2018-01-01 15:00:00', endDate: '2018-01-01 18:00:00' });
    expect(w.effective).toEqual({ startDate: '2018-01-01 15:00:00', endDate: '2018-01-01 18:00:00' });
    const ny = listDateWindow({ ...base, strict: true, siteTimezone: 'America/New_York', startDate: '2017-12-21', endDate: '2017-12-22' });
    // the example in the original's source comment
    expect(ny.effective).toEqual({ startDate: '2017-12-20 19:00:00', endDate: '2017-12-21 19:00:00' });
  });

  it('in strict mode converts the already-local default start once more (faithful)', () => {
    expect(listDateWindow({ ...base, strict: true }).effective).toEqual({
      startDate: '2026-11-21 23:59:00',
      endDate: '2028-11-22 11:22:22',
    });
    expect(listDateWindow({ ...base, strict: true, siteTimezone: 'America/New_York' }).effective).toEqual({
      startDate: '2026-11-21 13:59:00', // 18:59 NY read as UTC, then converted again
      endDate: '2028-11-22 06:22:22',
    });
  });

  it('turns relative filters into end-of-day bounds in inclusive mode', () => {
    const w = listDateWindow({
      ...base,
      startsAfter: '2018-01-10',
      endsAfter: '2017-12-31',
      startsBefore: '2018-01-02',
      endsBefore: '2018-02-01 08:00',
    });
    expect(w).toEqual({
      startGt: '2018-01-10 23:59:59', // "starts on Jan 11 or later"
      endGt: '2017-12-31 23:59:59', // "ends after Dec 31 23:59:59"
      startLt: '2018-01-02 23:59:59',
      endLt: '2018-02-01 23:59:59',
      effective: {
        startsAfter: '2018-01-10 23:59:59',
        endsAfter: '2017-12-31 23:59:59',
        startsBefore: '2018-01-02 23:59:59',
        endsBefore: '2018-02-01 23:59:59',
      },
    });
  });

  it('uses the exact instants for relative filters in strict mode', () => {
    const w = listDateWindow({ ...base, strict: true, siteTimezone: 'America/Chicago', startsAfter: '2018-01-10 12:00:00' });
    expect(w.startGt).toBe('2018-01-10 06:00:00');
  });

  it('drops the default start/end when a relative filter is present, keeping explicit ones', () => {
    expect(listDateWindow({ ...base, endsAfter: '2017-12-31' })).toEqual({
      endGt: '2017-12-31 23:59:59',
      effective: { endsAfter: '2017-12-31 23:59:59' },
    });
    expect(listDateWindow({ ...base, startsBefore: '2018-01-02', startDate: '2017-12-01' })).toEqual({
      startGte: '2017-12-01 00:00:00',
      startLt: '2018-01-02 23:59:59',
      effective: { startDate: '2017-12-01 00:00:00', startsBefore: '2018-01-02 23:59:59' },
    });
  });

  it("with include, discards the caller's start/end and re-applies the raw default window (quirk §6.4)", () => {
    const w = listDateWindow({ ...base, include: true, startDate: '2010-01-01', endDate: '2030-01-01' });
    expect(w.effective).toEqual({ startDate: '2026-11-21 23:59:00', endDate: '2028-11-22 11:22:22' });
    expect(listDateWindow({ ...base, include: true, siteTimezone: 'America/New_York' }).startGte).toBe('2026-11-21 18:59:00');
  });

  it('applies the multi-day cutoff to inclusive bounds', () => {
    const w = listDateWindow({ ...base, startDate: '2018-01-01', endDate: '2018-01-01', multiDayCutoff: '06:00' });
    expect(w.effective).toEqual({ startDate: '2018-01-01 06:00:00', endDate: '2018-01-02 05:59:59' });
  });

  it('defaults now to the current time', () => {
    const w = listDateWindow({ strict: false, include: false, siteTimezone: 'UTC' });
    const today = new Date().toISOString().slice(0, 10);
    expect(w.startGte! < `${today} 00:00:00`).toBe(true);
  });
});
