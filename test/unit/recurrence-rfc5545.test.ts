/**
 * Every example of RFC 5545 §3.8.5.3 (pages 131–135), with the RFC's DTSTART;TZID=America/New_York
 * and the dates it lists. Expansion runs on event-local wall times, so every instance is 09:00
 * local whether EDT or EST. Unbounded rules are compared on the first instances the RFC lists.
 * Examples using parts we do not support (BYYEARDAY, BYWEEKNO, BYHOUR, BYMINUTE, FREQ=HOURLY or
 * MINUTELY) are asserted to be rejected with a clear message.
 */
import { describe, it, expect } from 'vitest';
import { expandOccurrences, parseRrule, RecurrenceError } from '../../src/calendar/recurrence/index.ts';

const TZ = 'America/New_York';
const FAR = '2100-01-01 00:00:00';

const pad = (n: number) => String(n).padStart(2, '0');
/** The listed days of a month at 09:00. */
const days = (y: number, m: number, ...ds: number[]) => ds.map((d) => `${y}-${pad(m)}-${pad(d)} 09:00:00`);
/** Days a..b of a month (inclusive), every `step` days. */
const span = (y: number, m: number, a: number, b: number, step = 1) =>
  days(y, m, ...Array.from({ length: Math.floor((b - a) / step) + 1 }, (_, i) => a + i * step));
/** "19970902" → "1997-09-02 09:00:00" */
const start = (ymd: string) => `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)} 09:00:00`;

/** Expands an RFC example: all of a bounded rule, the first `expected.length` of an unbounded one. */
function expand(dtstart: string, rrule: string, expected: string[], exdates: string[] = []): string[] {
  const rule = parseRrule(rrule, TZ, false);
  const bounded = rule.count !== undefined || rule.until !== undefined;
  return expandOccurrences({
    rule,
    startLocal: start(dtstart),
    timezone: TZ,
    exdates,
    before: FAR,
    limit: bounded ? 10_000 : expected.length,
  });
}

function rejects(rrule: string, message: RegExp): void {
  expect(() => parseRrule(rrule, TZ, false)).toThrow(RecurrenceError);
  expect(() => parseRrule(rrule, TZ, false)).toThrow(message);
}

describe('RFC 5545 §3.8.5.3 recurrence rule examples', () => {
  it('Daily for 10 occurrences', () => {
    const expected = span(1997, 9, 2, 11);
    expect(expand('19970902', 'RRULE:FREQ=DAILY;COUNT=10', expected)).toEqual(expected);
  });

  it('Daily until December 24, 1997', () => {
    const expected = [
      ...span(1997, 9, 2, 30),
      ...span(1997, 10, 1, 25),
      ...span(1997, 10, 26, 31),
      ...span(1997, 11, 1, 30),
      ...span(1997, 12, 1, 23),
    ];
    expect(expand('19970902', 'RRULE:FREQ=DAILY;UNTIL=19971224T000000Z', expected)).toEqual(expected);
  });

  it('Every other day - forever', () => {
    const expected = [
      ...span(1997, 9, 2, 30, 2),
      ...span(1997, 10, 2, 24, 2),
      ...days(1997, 10, 26, 28, 30),
      ...span(1997, 11, 1, 29, 2),
      ...days(1997, 12, 1, 3),
    ];
    expect(expand('19970902', 'RRULE:FREQ=DAILY;INTERVAL=2', expected)).toEqual(expected);
  });

  it('Every 10 days, 5 occurrences', () => {
    const expected = [...days(1997, 9, 2, 12, 22), ...days(1997, 10, 2, 12)];
    expect(expand('19970902', 'RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5', expected)).toEqual(expected);
  });

  it('Every day in January, for 3 years (FREQ=YEARLY form)', () => {
    const expected = [...span(1998, 1, 1, 31), ...span(1999, 1, 1, 31), ...span(2000, 1, 1, 31)];
    expect(expand('19980101', 'RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA', expected)).toEqual(expected);
  });

  it('Every day in January, for 3 years (FREQ=DAILY form)', () => {
    const expected = [...span(1998, 1, 1, 31), ...span(1999, 1, 1, 31), ...span(2000, 1, 1, 31)];
    expect(expand('19980101', 'RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1', expected)).toEqual(expected);
  });

  it('Weekly for 10 occurrences', () => {
    const expected = [...days(1997, 9, 2, 9, 16, 23, 30), ...days(1997, 10, 7, 14, 21), ...days(1997, 10, 28), ...days(1997, 11, 4)];
    expect(expand('19970902', 'RRULE:FREQ=WEEKLY;COUNT=10', expected)).toEqual(expected);
  });

  it('Weekly until December 24, 1997', () => {
    const expected = [
      ...days(1997, 9, 2, 9, 16, 23, 30),
      ...days(1997, 10, 7, 14, 21),
      ...days(1997, 10, 28),
      ...days(1997, 11, 4, 11, 18, 25),
      ...days(1997, 12, 2, 9, 16, 23),
    ];
    expect(expand('19970902', 'RRULE:FREQ=WEEKLY;UNTIL=19971224T000000Z', expected)).toEqual(expected);
  });

  it('Every other week - forever', () => {
    const expected = [
      ...days(1997, 9, 2, 16, 30),
      ...days(1997, 10, 14),
      ...days(1997, 10, 28),
      ...days(1997, 11, 11, 25),
      ...days(1997, 12, 9, 23),
      ...days(1998, 1, 6, 20),
      ...days(1998, 2, 3, 17),
    ];
    expect(expand('19970902', 'RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU', expected)).toEqual(expected);
  });

  it('Weekly on Tuesday and Thursday for five weeks (UNTIL form)', () => {
    const expected = [...days(1997, 9, 2, 4, 9, 11, 16, 18, 23, 25, 30), ...days(1997, 10, 2)];
    expect(expand('19970902', 'RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH', expected)).toEqual(expected);
  });

  it('Weekly on Tuesday and Thursday for five weeks (COUNT form)', () => {
    const expected = [...days(1997, 9, 2, 4, 9, 11, 16, 18, 23, 25, 30), ...days(1997, 10, 2)];
    expect(expand('19970902', 'RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH', expected)).toEqual(expected);
  });

  it('Every other week on Monday, Wednesday, and Friday until December 24, 1997, starting on Monday, September 1, 1997', () => {
    const expected = [
      ...days(1997, 9, 1, 3, 5, 15, 17, 19, 29),
      ...days(1997, 10, 1, 3, 13, 15, 17),
      ...days(1997, 10, 27, 29, 31),
      ...days(1997, 11, 10, 12, 14, 24, 26, 28),
      ...days(1997, 12, 8, 10, 12, 22),
    ];
    expect(expand('19970901', 'RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR', expected)).toEqual(expected);
  });

  it('Every other week on Tuesday and Thursday, for 8 occurrences', () => {
    const expected = [...days(1997, 9, 2, 4, 16, 18, 30), ...days(1997, 10, 2, 14, 16)];
    expect(expand('19970902', 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH', expected)).toEqual(expected);
  });

  it('Monthly on the first Friday for 10 occurrences', () => {
    const expected = [
      ...days(1997, 9, 5),
      ...days(1997, 10, 3),
      ...days(1997, 11, 7),
      ...days(1997, 12, 5),
      ...days(1998, 1, 2),
      ...days(1998, 2, 6),
      ...days(1998, 3, 6),
      ...days(1998, 4, 3),
      ...days(1998, 5, 1),
      ...days(1998, 6, 5),
    ];
    expect(expand('19970905', 'RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR', expected)).toEqual(expected);
  });

  it('Monthly on the first Friday until December 24, 1997', () => {
    const expected = [...days(1997, 9, 5), ...days(1997, 10, 3), ...days(1997, 11, 7), ...days(1997, 12, 5)];
    expect(expand('19970905', 'RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR', expected)).toEqual(expected);
  });

  it('Every other month on the first and last Sunday of the month for 10 occurrences', () => {
    const expected = [
      ...days(1997, 9, 7, 28),
      ...days(1997, 11, 2, 30),
      ...days(1998, 1, 4, 25),
      ...days(1998, 3, 1, 29),
      ...days(1998, 5, 3, 31),
    ];
    expect(expand('19970907', 'RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU', expected)).toEqual(expected);
  });

  it('Monthly on the second-to-last Monday of the month for 6 months', () => {
    const expected = [
      ...days(1997, 9, 22),
      ...days(1997, 10, 20),
      ...days(1997, 11, 17),
      ...days(1997, 12, 22),
      ...days(1998, 1, 19),
      ...days(1998, 2, 16),
    ];
    expect(expand('19970922', 'RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO', expected)).toEqual(expected);
  });

  it('Monthly on the third-to-the-last day of the month, forever', () => {
    const expected = [
      ...days(1997, 9, 28),
      ...days(1997, 10, 29),
      ...days(1997, 11, 28),
      ...days(1997, 12, 29),
      ...days(1998, 1, 29),
      ...days(1998, 2, 26),
    ];
    expect(expand('19970928', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-3', expected)).toEqual(expected);
  });

  it('Monthly on the 2nd and 15th of the month for 10 occurrences', () => {
    const expected = [
      ...days(1997, 9, 2, 15),
      ...days(1997, 10, 2, 15),
      ...days(1997, 11, 2, 15),
      ...days(1997, 12, 2, 15),
      ...days(1998, 1, 2, 15),
    ];
    expect(expand('19970902', 'RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15', expected)).toEqual(expected);
  });

  it('Monthly on the first and last day of the month for 10 occurrences', () => {
    const expected = [
      ...days(1997, 9, 30),
      ...days(1997, 10, 1),
      ...days(1997, 10, 31),
      ...days(1997, 11, 1, 30),
      ...days(1997, 12, 1, 31),
      ...days(1998, 1, 1, 31),
      ...days(1998, 2, 1),
    ];
    expect(expand('19970930', 'RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1', expected)).toEqual(expected);
  });

  it('Every 18 months on the 10th thru 15th of the month for 10 occurrences', () => {
    const expected = [...days(1997, 9, 10, 11, 12, 13, 14, 15), ...days(1999, 3, 10, 11, 12, 13)];
    expect(expand('19970910', 'RRULE:FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15', expected)).toEqual(expected);
  });

  it('Every Tuesday, every other month', () => {
    const expected = [
      ...days(1997, 9, 2, 9, 16, 23, 30),
      ...days(1997, 11, 4, 11, 18, 25),
      ...days(1998, 1, 6, 13, 20, 27),
      ...days(1998, 3, 3, 10, 17, 24, 31),
    ];
    expect(expand('19970902', 'RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=TU', expected)).toEqual(expected);
  });

  it('Yearly in June and July for 10 occurrences', () => {
    const expected = [1997, 1998, 1999, 2000, 2001].flatMap((y) => [...days(y, 6, 10), ...days(y, 7, 10)]);
    expect(expand('19970610', 'RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7', expected)).toEqual(expected);
  });

  it('Every other year on January, February, and March for 10 occurrences', () => {
    const expected = [
      ...days(1997, 3, 10),
      ...[1999, 2001, 2003].flatMap((y) => [...days(y, 1, 10), ...days(y, 2, 10), ...days(y, 3, 10)]),
    ];
    expect(expand('19970310', 'RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3', expected)).toEqual(expected);
  });

  it('Every third year on the 1st, 100th, and 200th day for 10 occurrences (BYYEARDAY: rejected)', () => {
    rejects('RRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200', /^BYYEARDAY is not supported/);
  });

  it('Every 20th Monday of the year, forever', () => {
    const expected = [...days(1997, 5, 19), ...days(1998, 5, 18), ...days(1999, 5, 17)];
    expect(expand('19970519', 'RRULE:FREQ=YEARLY;BYDAY=20MO', expected)).toEqual(expected);
  });

  it('Monday of week number 20 (where the default start of the week is Monday), forever (BYWEEKNO: rejected)', () => {
    rejects('RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO', /^BYWEEKNO is not supported/);
  });

  it('Every Thursday in March, forever', () => {
    const expected = [...days(1997, 3, 13, 20, 27), ...days(1998, 3, 5, 12, 19, 26), ...days(1999, 3, 4, 11, 18, 25)];
    expect(expand('19970313', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH', expected)).toEqual(expected);
  });

  it('Every Thursday, but only during June, July, and August, forever', () => {
    const expected = [
      ...days(1997, 6, 5, 12, 19, 26),
      ...days(1997, 7, 3, 10, 17, 24, 31),
      ...days(1997, 8, 7, 14, 21, 28),
      ...days(1998, 6, 4, 11, 18, 25),
      ...days(1998, 7, 2, 9, 16, 23, 30),
      ...days(1998, 8, 6, 13, 20, 27),
      ...days(1999, 6, 3, 10, 17, 24),
      ...days(1999, 7, 1, 8, 15, 22, 29),
      ...days(1999, 8, 5, 12, 19, 26),
    ];
    expect(expand('19970605', 'RRULE:FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8', expected)).toEqual(expected);
  });

  it('Every Friday the 13th, forever (EXDATE removes the DTSTART)', () => {
    const expected = [...days(1998, 2, 13), ...days(1998, 3, 13), ...days(1998, 11, 13), ...days(1999, 8, 13), ...days(2000, 10, 13)];
    expect(expand('19970902', 'RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13', expected, [start('19970902')])).toEqual(expected);
  });

  it('The first Saturday that follows the first Sunday of the month, forever', () => {
    const expected = [
      ...days(1997, 9, 13),
      ...days(1997, 10, 11),
      ...days(1997, 11, 8),
      ...days(1997, 12, 13),
      ...days(1998, 1, 10),
      ...days(1998, 2, 7),
      ...days(1998, 3, 7),
      ...days(1998, 4, 11),
      ...days(1998, 5, 9),
      ...days(1998, 6, 13),
    ];
    expect(expand('19970913', 'RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13', expected)).toEqual(expected);
  });

  it('Every 4 years, the first Tuesday after a Monday in November, forever (U.S. Presidential Election day)', () => {
    const expected = [...days(1996, 11, 5), ...days(2000, 11, 7), ...days(2004, 11, 2)];
    expect(expand('19961105', 'RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8', expected)).toEqual(expected);
  });

  it('The third instance into the month of one of Tuesday, Wednesday, or Thursday, for the next 3 months', () => {
    const expected = [...days(1997, 9, 4), ...days(1997, 10, 7), ...days(1997, 11, 6)];
    expect(expand('19970904', 'RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3', expected)).toEqual(expected);
  });

  it('The second-to-last weekday of the month', () => {
    const expected = [
      ...days(1997, 9, 29),
      ...days(1997, 10, 30),
      ...days(1997, 11, 27),
      ...days(1997, 12, 30),
      ...days(1998, 1, 29),
      ...days(1998, 2, 26),
      ...days(1998, 3, 30),
    ];
    expect(expand('19970929', 'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2', expected)).toEqual(expected);
  });

  it('Every 3 hours from 9:00 AM to 5:00 PM on a specific day (FREQ=HOURLY: rejected)', () => {
    rejects('RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z', /^FREQ=HOURLY is not supported/);
  });

  it('Every 15 minutes for 6 occurrences (FREQ=MINUTELY: rejected)', () => {
    rejects('RRULE:FREQ=MINUTELY;INTERVAL=15;COUNT=6', /^FREQ=MINUTELY is not supported/);
  });

  it('Every hour and a half for 4 occurrences (FREQ=MINUTELY: rejected)', () => {
    rejects('RRULE:FREQ=MINUTELY;INTERVAL=90;COUNT=4', /^FREQ=MINUTELY is not supported/);
  });

  it('Every 20 minutes from 9:00 AM to 4:40 PM every day (BYHOUR/BYMINUTE and FREQ=MINUTELY forms: rejected)', () => {
    rejects('RRULE:FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40', /^BYHOUR is not supported/);
    rejects('RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16', /not supported/);
  });

  it('An example where the days generated makes a difference because of WKST (WKST=MO)', () => {
    const expected = days(1997, 8, 5, 10, 19, 24);
    expect(expand('19970805', 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO', expected)).toEqual(expected);
  });

  it('Changing only WKST from MO to SU, yields different results', () => {
    const expected = days(1997, 8, 5, 17, 19, 31);
    expect(expand('19970805', 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU', expected)).toEqual(expected);
  });

  it('An example where an invalid date (i.e., February 30) is ignored', () => {
    const expected = [...days(2007, 1, 15, 30), ...days(2007, 2, 15), ...days(2007, 3, 15, 30)];
    expect(expand('20070115', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5', expected)).toEqual(expected);
  });
});
