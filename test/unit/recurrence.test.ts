/**
 * Recurrence rules: parse/format round trips, every rejection message, structured validation,
 * expansion across DST in three zones, EXDATE/RDATE, the from/before/limit bounds, impossible
 * rules, and the English descriptions. All dates are fixed; nothing depends on today.
 */
import { describe, it, expect } from 'vitest';
import {
  describeRule,
  expandOccurrences,
  formatRrule,
  isBounded,
  neverMatches,
  parseRrule,
  RecurrenceError,
  validateRule,
  type ExpandOptions,
  type RecurrenceRule,
} from '../../src/calendar/recurrence/index.ts';
import { wallToUtc } from '../../src/calendar/dates/wall-times.ts';

const PARIS = 'Europe/Paris';
const NY = 'America/New_York';
const SYDNEY = 'Australia/Sydney';

function expand(rrule: string, startLocal: string, rest: Partial<ExpandOptions> = {}, timezone = PARIS): string[] {
  return expandOccurrences({
    rule: parseRrule(rrule, timezone, false),
    startLocal,
    timezone,
    before: '2100-01-01 00:00:00',
    limit: 1000,
    ...rest,
  });
}

function parseError(text: string, timezone = PARIS, allDay = false): string {
  try {
    parseRrule(text, timezone, allDay);
  } catch (e) {
    expect(e).toBeInstanceOf(RecurrenceError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${text}`);
}

function validateError(rule: unknown): string {
  try {
    validateRule(rule as RecurrenceRule);
  } catch (e) {
    expect(e).toBeInstanceOf(RecurrenceError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(rule)}`);
}

describe('parseRrule', () => {
  it('reads a rule with or without "RRULE:", keys and values in any case, and normalizes it', () => {
    const expected: RecurrenceRule = { frequency: 'WEEKLY', interval: 2, byDay: ['MO', 'TH'], weekStart: 'SU' };
    expect(parseRrule('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,MO;WKST=SU', PARIS, false)).toEqual(expected);
    expect(parseRrule('freq=weekly;interval=2;byday=th,mo,TH;wkst=su;', PARIS, false)).toEqual(expected);
    expect(parseRrule('rrule:Freq=Daily', PARIS, false)).toEqual({ frequency: 'DAILY', interval: 1, weekStart: 'MO' });
  });

  it('sorts and deduplicates lists, positives before negatives', () => {
    const rule = parseRrule('FREQ=MONTHLY;BYMONTHDAY=-1,15,1,15,-3;BYMONTH=6,1,6;BYDAY=-1SU,1SU,MO,1SU', NY, false);
    expect(rule.byMonthDay).toEqual([1, 15, -3, -1]);
    expect(rule.byMonth).toEqual([1, 6]);
    expect(rule.byDay).toEqual(['MO', '1SU', '-1SU']);
  });

  it('converts a UTC UNTIL to the event-local wall time', () => {
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630T170000Z', PARIS, false).until).toBe('2027-06-30 19:00:00');
    expect(parseRrule('FREQ=DAILY;UNTIL=20270130T170000Z', PARIS, false).until).toBe('2027-01-30 18:00:00');
    expect(parseRrule('FREQ=DAILY;UNTIL=19971224T000000Z', NY, false).until).toBe('1997-12-23 19:00:00');
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630T170000Z', 'UTC+2', false).until).toBe('2027-06-30 19:00:00');
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630T170000Z', 'UTC-5:30', false).until).toBe('2027-06-30 11:30:00');
  });

  it('keeps a floating UNTIL as is and reads a DATE UNTIL as the end of that day', () => {
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630T170000', PARIS, false).until).toBe('2027-06-30 17:00:00');
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630', PARIS, false).until).toBe('2027-06-30 23:59:59');
  });

  it('gives all-day events the whole last day', () => {
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630', PARIS, true).until).toBe('2027-06-30 23:59:59');
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630T100000Z', PARIS, true).until).toBe('2027-06-30 23:59:59');
    expect(parseRrule('FREQ=DAILY;UNTIL=20270630T100000', PARIS, true).until).toBe('2027-06-30 23:59:59');
  });

  it('rejects what it cannot accept, naming the part', () => {
    const cases: [string, string][] = [
      ['', 'The recurrence rule is empty: it needs at least FREQ, e.g. "FREQ=WEEKLY".'],
      ['RRULE:', 'The recurrence rule is empty: it needs at least FREQ, e.g. "FREQ=WEEKLY".'],
      ['INTERVAL=2', 'FREQ is missing: a rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.'],
      ['FREQ=FORTNIGHTLY', 'FREQ: "FORTNIGHTLY" is not a frequency (DAILY, WEEKLY, MONTHLY or YEARLY).'],
      ['FREQ=HOURLY', 'FREQ=HOURLY is not supported: events can repeat daily, weekly, monthly or yearly.'],
      ['FREQ=MINUTELY', 'FREQ=MINUTELY is not supported: events can repeat daily, weekly, monthly or yearly.'],
      ['FREQ=secondly', 'FREQ=SECONDLY is not supported: events can repeat daily, weekly, monthly or yearly.'],
      ['FREQ=DAILY;BYHOUR=9', 'BYHOUR is not supported: an event repeats at its own start time.'],
      ['FREQ=DAILY;BYMINUTE=0', 'BYMINUTE is not supported: an event repeats at its own start time.'],
      ['FREQ=DAILY;BYSECOND=0', 'BYSECOND is not supported: an event repeats at its own start time.'],
      ['FREQ=YEARLY;BYWEEKNO=20', 'BYWEEKNO is not supported: use BYMONTH, BYMONTHDAY or BYDAY to pick the days.'],
      ['FREQ=YEARLY;BYYEARDAY=100', 'BYYEARDAY is not supported: use BYMONTH with BYMONTHDAY or BYDAY to pick the days.'],
      ['FREQ=DAILY;X-NAME=1', 'X-NAME is not a recurrence rule part this server understands.'],
      ['FREQ=DAILY;COUNT', '"COUNT" is not a NAME=VALUE part of a recurrence rule.'],
      ['FREQ=DAILY;COUNT=', 'COUNT has no value.'],
      ['FREQ=DAILY;FREQ=WEEKLY', 'FREQ appears twice: each part may be given only once.'],
      ['FREQ=DAILY;COUNT=2;count=3', 'COUNT appears twice: each part may be given only once.'],
      ['FREQ=DAILY;COUNT=5;UNTIL=20270630', 'COUNT and UNTIL cannot both be given: use one of them.'],
      ['FREQ=DAILY;INTERVAL=two', 'INTERVAL: "two" is not a whole number.'],
      ['FREQ=DAILY;INTERVAL=1.5', 'INTERVAL: "1.5" is not a whole number.'],
      ['FREQ=DAILY;INTERVAL=0', 'INTERVAL must be between 1 and 1000, not 0.'],
      ['FREQ=DAILY;INTERVAL=1001', 'INTERVAL must be between 1 and 1000, not 1001.'],
      ['FREQ=DAILY;COUNT=x', 'COUNT: "x" is not a whole number.'],
      ['FREQ=DAILY;COUNT=0', 'COUNT must be between 1 and 10000, not 0.'],
      ['FREQ=DAILY;COUNT=10001', 'COUNT must be between 1 and 10000, not 10001.'],
      ['FREQ=DAILY;UNTIL=2027-06-30', 'UNTIL: "2027-06-30" is not a date like 20270630 or a date-time like 20270630T170000Z.'],
      ['FREQ=DAILY;UNTIL=20270230', 'UNTIL: "20270230" is not a date like 20270630 or a date-time like 20270630T170000Z.'],
      ['FREQ=DAILY;UNTIL=20270630T250000Z', 'UNTIL: "20270630T250000Z" is not a date like 20270630 or a date-time like 20270630T170000Z.'],
      [
        'FREQ=WEEKLY;BYDAY=MO,XX',
        'BYDAY: "XX" is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal like 2SA or -1FR).',
      ],
      ['FREQ=WEEKLY;BYDAY=2MO', 'BYDAY: ordinals like "2MO" only work with FREQ=MONTHLY or FREQ=YEARLY.'],
      ['FREQ=DAILY;BYDAY=-1FR', 'BYDAY: ordinals like "-1FR" only work with FREQ=MONTHLY or FREQ=YEARLY.'],
      ['FREQ=MONTHLY;BYDAY=6MO', 'BYDAY: "6MO" is out of range; a month has at most 5 of each weekday, so use 1 to 5 or -1 to -5.'],
      ['FREQ=MONTHLY;BYDAY=0MO', 'BYDAY: "0MO" is out of range; a month has at most 5 of each weekday, so use 1 to 5 or -1 to -5.'],
      [
        'FREQ=YEARLY;BYMONTH=3;BYDAY=-6SU',
        'BYDAY: "-6SU" is out of range; a month has at most 5 of each weekday, so use 1 to 5 or -1 to -5.',
      ],
      ['FREQ=YEARLY;BYDAY=54MO', 'BYDAY: "54MO" is out of range; a year has at most 53 of each weekday, so use 1 to 53 or -1 to -53.'],
      ['FREQ=MONTHLY;BYMONTHDAY=0', 'BYMONTHDAY: 0 is out of range; use 1 to 31, or -1 to -31 counting from the end of the month.'],
      ['FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY: 32 is out of range; use 1 to 31, or -1 to -31 counting from the end of the month.'],
      ['FREQ=MONTHLY;BYMONTHDAY=1,,2', 'BYMONTHDAY: "" is not a whole number.'],
      ['FREQ=WEEKLY;BYMONTHDAY=1', 'BYMONTHDAY cannot be used with FREQ=WEEKLY.'],
      ['FREQ=YEARLY;BYMONTH=13', 'BYMONTH: 13 is out of range; use 1 to 12.'],
      ['FREQ=YEARLY;BYMONTH=jan', 'BYMONTH: "jan" is not a whole number.'],
      ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', 'BYSETPOS: 0 is out of range; use 1 to 366 or -1 to -366.'],
      ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367', 'BYSETPOS: 367 is out of range; use 1 to 366 or -1 to -366.'],
      ['FREQ=MONTHLY;BYSETPOS=1', 'BYSETPOS needs another BY part (BYDAY, BYMONTHDAY or BYMONTH) to pick from.'],
      ['FREQ=WEEKLY;WKST=XX', 'WKST: "XX" is not a weekday (MO, TU, WE, TH, FR, SA or SU).'],
      ['FREQ=WEEKLY;WKST=1MO', 'WKST: "1MO" is not a weekday (MO, TU, WE, TH, FR, SA or SU).'],
    ];
    for (const [text, message] of cases) expect(parseError(text), text).toBe(message);
  });
});

describe('validateRule (structured input)', () => {
  it('fills defaults and normalizes lists', () => {
    expect(validateRule({ frequency: 'WEEKLY', interval: 1 })).toEqual({ frequency: 'WEEKLY', interval: 1, weekStart: 'MO' });
    expect(
      validateRule({
        frequency: 'monthly' as never,
        interval: undefined as never,
        byDay: ['-1fr', '2sa', '2SA'],
        byMonth: [12, 3],
        bySetPos: [-1, 1],
        weekStart: 'su',
      }),
    ).toEqual({ frequency: 'MONTHLY', interval: 1, byDay: ['-1FR', '2SA'], byMonth: [3, 12], bySetPos: [1, -1], weekStart: 'SU' });
  });

  it('treats null optional parts as absent', () => {
    const rule = { frequency: 'DAILY', interval: 1, count: null, until: null, byDay: null } as unknown as RecurrenceRule;
    expect(validateRule(rule)).toEqual({ frequency: 'DAILY', interval: 1, weekStart: 'MO' });
  });

  it('rejects the same things parseRrule rejects, and malformed values', () => {
    expect(validateError({ interval: 1 })).toBe('FREQ is missing: a rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.');
    expect(validateError({ frequency: 'HOURLY', interval: 1 })).toBe(
      'FREQ=HOURLY is not supported: events can repeat daily, weekly, monthly or yearly.',
    );
    expect(validateError({ frequency: 'DAILY', interval: 1.5 })).toBe('INTERVAL: 1.5 is not a whole number.');
    expect(validateError({ frequency: 'DAILY', interval: 0 })).toBe('INTERVAL must be between 1 and 1000, not 0.');
    expect(validateError({ frequency: 'DAILY', interval: 1, count: 10001 })).toBe('COUNT must be between 1 and 10000, not 10001.');
    expect(validateError({ frequency: 'DAILY', interval: 1, count: 2, until: '2027-06-30 23:59:59' })).toBe(
      'COUNT and UNTIL cannot both be given: use one of them.',
    );
    expect(validateError({ frequency: 'DAILY', interval: 1, until: '2027-06-30' })).toBe(
      'UNTIL: "2027-06-30" is not a date and time like "2027-06-30 19:00:00".',
    );
    expect(validateError({ frequency: 'DAILY', interval: 1, until: '2027-02-30 10:00:00' })).toBe(
      'UNTIL: "2027-02-30 10:00:00" is not a date and time like "2027-06-30 19:00:00".',
    );
    expect(validateError({ frequency: 'WEEKLY', interval: 1, byDay: ['XX'] })).toBe(
      'BYDAY: "XX" is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal like 2SA or -1FR).',
    );
    expect(validateError({ frequency: 'WEEKLY', interval: 1, byDay: [] })).toBe(
      'BYDAY is empty: give at least one weekday or leave it out.',
    );
    expect(validateError({ frequency: 'MONTHLY', interval: 1, byMonthDay: [] })).toBe(
      'BYMONTHDAY is empty: give at least one value or leave it out.',
    );
    expect(validateError({ frequency: 'MONTHLY', interval: 1, byMonthDay: [1.5] })).toBe('BYMONTHDAY: 1.5 is not a whole number.');
    expect(validateError({ frequency: 'YEARLY', interval: 1, byMonth: [0] })).toBe('BYMONTH: 0 is out of range; use 1 to 12.');
    expect(validateError({ frequency: 'YEARLY', interval: 1, bySetPos: [1] })).toBe(
      'BYSETPOS needs another BY part (BYDAY, BYMONTHDAY or BYMONTH) to pick from.',
    );
    expect(validateError({ frequency: 'WEEKLY', interval: 1, weekStart: 'XX' })).toBe(
      'WKST: "XX" is not a weekday (MO, TU, WE, TH, FR, SA or SU).',
    );
  });
});

describe('formatRrule', () => {
  it('writes the canonical part order, INTERVAL only if > 1 and WKST only if not MO', () => {
    const rule: RecurrenceRule = {
      frequency: 'MONTHLY',
      interval: 2,
      count: 10,
      byDay: ['TH', 'TU', 'WE'],
      byMonth: [3, 1],
      byMonthDay: [15, 1],
      bySetPos: [3],
      weekStart: 'SU',
    };
    expect(formatRrule(rule, PARIS, false)).toBe(
      'FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYMONTH=1,3;BYMONTHDAY=1,15;BYDAY=TU,WE,TH;BYSETPOS=3;WKST=SU',
    );
    expect(formatRrule({ frequency: 'WEEKLY', interval: 1, weekStart: 'MO' }, PARIS, false)).toBe('FREQ=WEEKLY');
  });

  it('writes UNTIL in UTC for timed events and as a DATE for all-day ones', () => {
    expect(formatRrule({ frequency: 'DAILY', interval: 1, until: '2027-06-30 19:00:00' }, PARIS, false)).toBe(
      'FREQ=DAILY;UNTIL=20270630T170000Z',
    );
    expect(formatRrule({ frequency: 'DAILY', interval: 1, until: '2027-01-30 19:00:00' }, PARIS, false)).toBe(
      'FREQ=DAILY;UNTIL=20270130T180000Z',
    );
    expect(formatRrule({ frequency: 'DAILY', interval: 1, until: '2027-06-30 19:00:00' }, 'UTC-5:30', false)).toBe(
      'FREQ=DAILY;UNTIL=20270701T003000Z',
    );
    expect(formatRrule({ frequency: 'DAILY', interval: 1, until: '2027-06-30 23:59:59' }, PARIS, true)).toBe('FREQ=DAILY;UNTIL=20270630');
  });

  it('round-trips: parse(format(rule)) returns the rule', () => {
    const rules: [RecurrenceRule, boolean][] = [
      [{ frequency: 'DAILY', interval: 1 }, false],
      [{ frequency: 'WEEKLY', interval: 2, byDay: ['MO', 'WE', 'FR'], until: '2027-12-24 19:00:00', weekStart: 'SU' }, false],
      [{ frequency: 'MONTHLY', interval: 1, byDay: ['1SU', '-1SU'], count: 10 }, false],
      [{ frequency: 'MONTHLY', interval: 18, byMonthDay: [10, 11, 12, -1], count: 10 }, false],
      [{ frequency: 'MONTHLY', interval: 1, byDay: ['MO', 'TU', 'WE', 'TH', 'FR'], bySetPos: [-2] }, false],
      [{ frequency: 'YEARLY', interval: 4, byMonth: [11], byDay: ['TU'], byMonthDay: [2, 3, 4, 5, 6, 7, 8] }, false],
      [{ frequency: 'YEARLY', interval: 1, byDay: ['20MO'] }, false],
      [{ frequency: 'YEARLY', interval: 1, byMonth: [3], byDay: ['2SU'], until: '2030-03-31 23:59:59' }, true],
      [{ frequency: 'WEEKLY', interval: 1, byDay: ['SA', 'SU'], until: '2027-06-30 23:59:59' }, true],
    ];
    for (const zone of [PARIS, NY, SYDNEY, 'UTC', 'UTC+5:30']) {
      for (const [rule, allDay] of rules) {
        const normalized = validateRule(rule);
        const text = formatRrule(rule, zone, allDay);
        expect(parseRrule(text, zone, allDay), `${zone} ${text}`).toEqual(normalized);
        expect(parseRrule(`RRULE:${text}`, zone, allDay)).toEqual(normalized);
        expect(formatRrule(parseRrule(text, zone, allDay), zone, allDay)).toBe(text);
      }
    }
  });
});

describe('isBounded', () => {
  it('is true with COUNT or UNTIL', () => {
    expect(isBounded({ frequency: 'DAILY', interval: 1 })).toBe(false);
    expect(isBounded({ frequency: 'DAILY', interval: 1, count: 3 })).toBe(true);
    expect(isBounded({ frequency: 'DAILY', interval: 1, until: '2027-06-30 23:59:59' })).toBe(true);
  });
});

describe('expandOccurrences: wall times across DST', () => {
  it('keeps a 19:00 Europe/Paris weekly event at 19:00 across the last Sundays of March and October', () => {
    const march = expand('FREQ=WEEKLY;COUNT=3', '2026-03-22 19:00:00');
    expect(march).toEqual(['2026-03-22 19:00:00', '2026-03-29 19:00:00', '2026-04-05 19:00:00']);
    expect(march.map((w) => wallToUtc(w, PARIS))).toEqual(['2026-03-22 18:00:00', '2026-03-29 17:00:00', '2026-04-05 17:00:00']);
    const october = expand('FREQ=WEEKLY;COUNT=3', '2026-10-18 19:00:00');
    expect(october).toEqual(['2026-10-18 19:00:00', '2026-10-25 19:00:00', '2026-11-01 19:00:00']);
    expect(october.map((w) => wallToUtc(w, PARIS))).toEqual(['2026-10-18 17:00:00', '2026-10-25 18:00:00', '2026-11-01 18:00:00']);
  });

  it('keeps a daily 02:30 America/New_York event at 02:30 across the spring-forward gap', () => {
    const days = expand('FREQ=DAILY;COUNT=3', '2026-03-07 02:30:00', {}, NY);
    expect(days).toEqual(['2026-03-07 02:30:00', '2026-03-08 02:30:00', '2026-03-09 02:30:00']);
    // 02:30 does not exist on 8 March; turning the wall time into an instant moves it to 03:30 EDT.
    expect(days.map((w) => wallToUtc(w, NY))).toEqual(['2026-03-07 07:30:00', '2026-03-08 07:30:00', '2026-03-09 06:30:00']);
  });

  it('keeps Australia/Sydney times constant across April and October', () => {
    const april = expand('FREQ=WEEKLY;COUNT=3', '2026-03-29 10:00:00', {}, SYDNEY);
    expect(april).toEqual(['2026-03-29 10:00:00', '2026-04-05 10:00:00', '2026-04-12 10:00:00']);
    expect(april.map((w) => wallToUtc(w, SYDNEY))).toEqual(['2026-03-28 23:00:00', '2026-04-05 00:00:00', '2026-04-12 00:00:00']);
    const october = expand('FREQ=DAILY;COUNT=3', '2026-10-03 02:30:00', {}, SYDNEY);
    expect(october).toEqual(['2026-10-03 02:30:00', '2026-10-04 02:30:00', '2026-10-05 02:30:00']);
  });

  it('converts UNTIL in the event zone, so a UTC UNTIL at the last instance keeps it', () => {
    // 19:00 Paris on 1 April 2026 is 17:00 UTC (CEST).
    expect(expand('FREQ=DAILY;UNTIL=20260401T170000Z', '2026-03-28 19:00:00')).toEqual([
      '2026-03-28 19:00:00',
      '2026-03-29 19:00:00',
      '2026-03-30 19:00:00',
      '2026-03-31 19:00:00',
      '2026-04-01 19:00:00',
    ]);
    expect(expand('FREQ=DAILY;UNTIL=20260401T165959Z', '2026-03-28 19:00:00')).toHaveLength(4);
  });
});

describe('expandOccurrences: month ends and odd days', () => {
  it('finds the last Friday of each month', () => {
    expect(expand('FREQ=MONTHLY;BYDAY=-1FR;COUNT=4', '2026-01-30 18:00:00')).toEqual([
      '2026-01-30 18:00:00',
      '2026-02-27 18:00:00',
      '2026-03-27 18:00:00',
      '2026-04-24 18:00:00',
    ]);
  });

  it('skips months without a 31st', () => {
    const expected = ['2026-01-31 10:00:00', '2026-03-31 10:00:00', '2026-05-31 10:00:00', '2026-07-31 10:00:00', '2026-08-31 10:00:00'];
    expect(expand('FREQ=MONTHLY;BYMONTHDAY=31;COUNT=5', '2026-01-31 10:00:00')).toEqual(expected);
    expect(expand('FREQ=MONTHLY;COUNT=5', '2026-01-31 10:00:00')).toEqual(expected);
  });

  it('repeats 29 February only in leap years', () => {
    expect(expand('FREQ=YEARLY;COUNT=3', '2024-02-29 10:00:00')).toEqual([
      '2024-02-29 10:00:00',
      '2028-02-29 10:00:00',
      '2032-02-29 10:00:00',
    ]);
  });

  it('works on all-day wall times', () => {
    const rule = parseRrule('FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20260315', PARIS, true);
    expect(
      expandOccurrences({ rule, startLocal: '2026-03-07 00:00:00', timezone: PARIS, before: '2027-01-01 00:00:00', limit: 100 }),
    ).toEqual(['2026-03-07 00:00:00', '2026-03-08 00:00:00', '2026-03-14 00:00:00', '2026-03-15 00:00:00']);
  });

  it('gives FREQ=DAILY with BY parts the same days as the equivalent weekly rule', () => {
    const range = { before: '2028-01-01 00:00:00' };
    expect(expand('FREQ=DAILY;BYDAY=MO,WE', '2026-01-05 08:00:00', range)).toEqual(
      expand('FREQ=WEEKLY;BYDAY=MO,WE', '2026-01-05 08:00:00', range),
    );
    expect(expand('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=1,-1', '2026-01-05 08:00:00', range)).toEqual([
      '2026-01-05 08:00:00',
      '2026-02-01 08:00:00',
      '2026-02-28 08:00:00',
      '2027-02-01 08:00:00',
      '2027-02-28 08:00:00',
    ]);
    expect(expand('FREQ=DAILY;BYDAY=MO;BYSETPOS=1', '2026-01-05 08:00:00', { before: '2026-01-20 00:00:00' })).toEqual([
      '2026-01-05 08:00:00',
      '2026-01-12 08:00:00',
      '2026-01-19 08:00:00',
    ]);
  });
});

describe('expandOccurrences: DTSTART, COUNT, EXDATE and RDATE', () => {
  it('includes a DTSTART that does not match the rule, and counts it', () => {
    expect(expand('FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13;COUNT=3', '1997-09-02 09:00:00')).toEqual([
      '1997-09-02 09:00:00',
      '1998-02-13 09:00:00',
      '1998-03-13 09:00:00',
    ]);
    expect(expand('FREQ=DAILY;COUNT=1', '2026-05-01 10:00:00')).toEqual(['2026-05-01 10:00:00']);
  });

  it('counts excluded instances towards COUNT, but not RDATEs', () => {
    const out = expand('FREQ=DAILY;COUNT=4', '2026-05-01 10:00:00', {
      exdates: ['2026-05-02 10:00:00', '2026-05-01 10:00:00'],
      rdates: ['2026-05-10 09:00:00', '2026-05-03 12:00:00'],
    });
    expect(out).toEqual(['2026-05-03 10:00:00', '2026-05-03 12:00:00', '2026-05-04 10:00:00', '2026-05-10 09:00:00']);
  });

  it('merges an RDATE equal to an instance, and lets EXDATE remove an RDATE', () => {
    const out = expand('FREQ=WEEKLY;COUNT=2', '2026-05-01 10:00:00', {
      rdates: ['2026-05-08 10:00:00', '2026-06-01 10:00:00', '2026-06-02 10:00:00'],
      exdates: ['2026-06-02 10:00:00', '2026-07-01 10:00:00'],
    });
    expect(out).toEqual(['2026-05-01 10:00:00', '2026-05-08 10:00:00', '2026-06-01 10:00:00']);
  });

  it('ignores an EXDATE that is not an instance', () => {
    expect(expand('FREQ=DAILY;COUNT=2', '2026-05-01 10:00:00', { exdates: ['2026-05-01 11:00:00'] })).toEqual([
      '2026-05-01 10:00:00',
      '2026-05-02 10:00:00',
    ]);
  });

  it('rejects malformed wall times', () => {
    const base = { rule: { frequency: 'DAILY', interval: 1 } as RecurrenceRule, timezone: PARIS, before: '2027-01-01 00:00:00', limit: 5 };
    expect(() => expandOccurrences({ ...base, startLocal: '2026-05-01T10:00:00' })).toThrow(RecurrenceError);
    expect(() => expandOccurrences({ ...base, startLocal: '2026-05-01 10:00:00', exdates: ['yesterday'] })).toThrow(
      'EXDATE: "yesterday" is not a wall time like "2027-06-30 19:00:00".',
    );
    expect(() => expandOccurrences({ ...base, startLocal: '2026-05-01 10:00:00', before: '2027' })).toThrow(RecurrenceError);
  });
});

describe('expandOccurrences: from, before and limit', () => {
  const weekly = 'FREQ=WEEKLY;BYDAY=TU';
  const start = '2026-01-06 19:00:00';

  it('returns only instances >= from and < before', () => {
    expect(expand(weekly, start, { from: '2026-03-03 19:00:00', before: '2026-03-24 19:00:00' })).toEqual([
      '2026-03-03 19:00:00',
      '2026-03-10 19:00:00',
      '2026-03-17 19:00:00',
    ]);
    expect(expand(weekly, start, { from: '2026-03-03 19:00:01', before: '2026-03-24 19:00:01' })).toEqual([
      '2026-03-10 19:00:00',
      '2026-03-17 19:00:00',
      '2026-03-24 19:00:00',
    ]);
  });

  it('leaves DTSTART out when it is before from, and returns nothing when DTSTART is at or after before', () => {
    expect(expand(weekly, start, { from: '2026-01-07 00:00:00', before: '2026-01-21 00:00:00' })).toEqual([
      '2026-01-13 19:00:00',
      '2026-01-20 19:00:00',
    ]);
    expect(expand(weekly, start, { before: start })).toEqual([]);
    expect(expand(weekly, start, { before: start, rdates: ['2025-12-31 10:00:00'] })).toEqual(['2025-12-31 10:00:00']);
  });

  it('keeps COUNT counted from DTSTART when from is later', () => {
    expect(expand('FREQ=WEEKLY;COUNT=5', start, { from: '2026-01-20 00:00:00' })).toEqual([
      '2026-01-20 19:00:00',
      '2026-01-27 19:00:00',
      '2026-02-03 19:00:00',
    ]);
  });

  it('cuts an unbounded rule with a far horizon at limit', () => {
    const out = expand('FREQ=DAILY', '2026-01-01 09:00:00', { before: '9999-12-31 23:59:59', limit: 500 });
    expect(out).toHaveLength(500);
    expect(out[0]).toBe('2026-01-01 09:00:00');
    expect(out[499]).toBe('2027-05-15 09:00:00');
    expect(expand('FREQ=DAILY', '2026-01-01 09:00:00', { limit: 0 })).toEqual([]);
  });

  it('limits the union of DTSTART, instances and RDATEs', () => {
    expect(expand('FREQ=DAILY', '2026-01-10 09:00:00', { rdates: ['2026-01-01 09:00:00'], limit: 2 })).toEqual([
      '2026-01-01 09:00:00',
      '2026-01-10 09:00:00',
    ]);
  });

  it('handles wall times at both ends of the representable years', () => {
    expect(expand('FREQ=YEARLY', '9997-06-01 10:00:00', { before: '9999-12-31 23:59:59' })).toEqual([
      '9997-06-01 10:00:00',
      '9998-06-01 10:00:00',
      '9999-06-01 10:00:00',
    ]);
    expect(expand('FREQ=MONTHLY;BYDAY=-1SU;COUNT=3', '0001-01-28 10:00:00', { before: '0002-01-01 00:00:00' })).toEqual([
      '0001-01-28 10:00:00',
      '0001-02-25 10:00:00',
      '0001-03-25 10:00:00',
    ]);
  });
});

describe('expandOccurrences: impossible and sparse rules terminate with what exists', () => {
  const start = '2026-01-31 10:00:00';
  const far = { before: '9999-12-31 23:59:59', limit: 100 };

  it.each([
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6',
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=DAILY;INTERVAL=2;BYMONTH=4;BYMONTHDAY=-31',
    'FREQ=DAILY;INTERVAL=7;BYDAY=MO',
    'FREQ=DAILY;BYDAY=MO;BYSETPOS=2',
    'FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2',
    'FREQ=MONTHLY;INTERVAL=12;BYMONTH=3',
    'FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=20',
    'FREQ=YEARLY;BYMONTH=2',
    'FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29',
    'FREQ=WEEKLY;INTERVAL=3;BYMONTH=2;BYDAY=SA;BYSETPOS=3',
  ])('%s yields only DTSTART', (rule) => {
    expect(expand(rule, start, far)).toEqual([start]);
    expect(expand(rule, start, { before: '2030-01-01 00:00:00' })).toEqual([start]);
  });

  it('recognizes the impossible ones without scanning', () => {
    const rule = (text: string) => parseRrule(text, PARIS, false);
    expect(neverMatches(rule('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'), start)).toBe(true);
    expect(neverMatches(rule('FREQ=MONTHLY;INTERVAL=2;BYMONTH=2,4'), '2026-01-15 10:00:00')).toBe(true);
    expect(neverMatches(rule('FREQ=MONTHLY;INTERVAL=2;BYMONTH=3'), '2026-01-15 10:00:00')).toBe(false);
    expect(neverMatches(rule('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'), start)).toBe(false);
    expect(neverMatches(rule('FREQ=MONTHLY;BYDAY=5FR;BYMONTH=2'), start)).toBe(false);
  });

  it('finds rare but possible instances', () => {
    expect(expand('FREQ=MONTHLY;BYDAY=5FR;BYMONTH=2', start, { before: '2100-01-01 00:00:00' })).toEqual([
      start,
      '2036-02-29 10:00:00',
      '2064-02-29 10:00:00',
      '2092-02-29 10:00:00',
    ]);
    expect(expand('FREQ=DAILY;INTERVAL=2;BYMONTH=2;BYMONTHDAY=29', '2026-01-01 10:00:00', { before: '2050-01-01 00:00:00' })).toEqual([
      '2026-01-01 10:00:00',
      '2032-02-29 10:00:00',
      '2040-02-29 10:00:00',
      '2048-02-29 10:00:00',
    ]);
  });
});

describe('describeRule', () => {
  const tuesday = '2026-03-03 19:00:00';
  const d = (text: string) => describeRule(parseRrule(text, PARIS, false), tuesday);

  it('describes the common rules', () => {
    expect(d('FREQ=WEEKLY;BYDAY=TU,TH')).toBe('Every week on Tuesday and Thursday');
    expect(d('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO')).toBe('Every 2 weeks on Monday');
    expect(d('FREQ=DAILY')).toBe('Every day');
    expect(d('FREQ=MONTHLY;BYDAY=2SA;UNTIL=20270630T170000Z')).toBe('Every month on the 2nd Saturday until 30 June 2027');
    expect(d('FREQ=MONTHLY;BYDAY=-1FR')).toBe('Every month on the last Friday');
    expect(d('FREQ=YEARLY;BYMONTH=3;BYDAY=2SU')).toBe('Every year in March on the 2nd Sunday');
    expect(d('FREQ=MONTHLY;BYMONTHDAY=15')).toBe('Every month on day 15');
    expect(d('FREQ=WEEKLY;BYDAY=TU;COUNT=10')).toBe('Weekly on Tuesday, 10 times');
  });

  it('takes the day from DTSTART when the rule has none', () => {
    expect(d('FREQ=WEEKLY')).toBe('Every week on Tuesday');
    expect(d('FREQ=MONTHLY')).toBe('Every month on day 3');
    expect(d('FREQ=YEARLY')).toBe('Every year on 3 March');
    expect(d('FREQ=YEARLY;BYMONTH=6,7')).toBe('Every year in June and July on day 3');
  });

  it('says something sensible for the rarer parts', () => {
    expect(d('FREQ=MONTHLY;INTERVAL=2;BYDAY=1SU,-1SU;COUNT=10')).toBe('Every 2 months on the 1st and last Sunday, 10 times');
    expect(d('FREQ=MONTHLY;BYMONTHDAY=1,-1')).toBe('Every month on day 1 and the last day');
    expect(d('FREQ=MONTHLY;BYMONTHDAY=-3')).toBe('Every month on the third-to-last day');
    expect(d('FREQ=MONTHLY;BYMONTHDAY=2,15')).toBe('Every month on days 2 and 15');
    expect(d('FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13')).toBe('Every month on Friday falling on day 13');
    expect(d('FREQ=MONTHLY;BYDAY=TU,WE,TH;BYSETPOS=3')).toBe('Every month on the 3rd Tuesday, Wednesday or Thursday');
    expect(d('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2')).toBe('Every month on the second-to-last weekday');
    expect(d('FREQ=YEARLY;BYDAY=20MO')).toBe('Every year on the 20th Monday');
    expect(d('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR')).toBe('Every week on weekdays');
    expect(d('FREQ=DAILY;BYMONTH=1')).toBe('Every day in January');
    expect(d('FREQ=DAILY;COUNT=1')).toBe('Daily, once');
    expect(d('FREQ=DAILY;INTERVAL=3;UNTIL=20261231')).toBe('Every 3 days until 31 December 2026');
    expect(d('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU')).toBe('Every 2 weeks on Tuesday and Sunday, weeks starting on Sunday');
    expect(d('FREQ=YEARLY;BYDAY=-1MO;BYMONTH=5')).toBe('Every year in May on the last Monday');
  });

  it('never throws', () => {
    expect(describeRule({ frequency: 'HOURLY' } as unknown as RecurrenceRule, tuesday)).toBe('Repeats');
    expect(describeRule({ frequency: 'WEEKLY', interval: 1 }, 'not a date')).toBe('Every week');
  });
});
