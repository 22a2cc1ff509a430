import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { parseDateInput } from '../../src/calendar/dates/strtotime.ts';

/**
 * The strtotime port against PHP's own results: test/unit/fixtures/strtotime-corpus.json holds
 * strtotime($input, $base) from PHP 8.2 for ~3,000 strings, each at 4 fixed clocks in 5 default
 * zones (made by scripts/strtotime-corpus.php; no PHP needed here, no dependence on today).
 * Every result must agree, except the known differences listed below.
 */
interface Corpus {
  php: string;
  combos: [base: string, zone: string][];
  cases: [input: string, results: (number | null)[]][];
}
const corpus = JSON.parse(readFileSync(new URL('./fixtures/strtotime-corpus.json', import.meta.url), 'utf8')) as Corpus;

/** Real differences from PHP, kept: rare inputs whose PHP reading is accidental. */
const KNOWN: Record<string, string> = {};
const known = (reason: string, ...inputs: string[]) => inputs.forEach((s) => (KNOWN[s] = reason));
known(
  'ambiguous wall time at a DST fall-back east of UTC: PHP takes the second (standard-time) occurrence in Europe/Berlin and Australia/Sydney but the first in America/Chicago; the port always takes the first (wallToMillis)',
  '2026-10-25 02:00',
  '2026-10-25 02:30',
  '2026-10-25 01:30 +1 hour',
  '2026-04-05 02:00',
  '2026-04-05 02:30',
  '2026-04-05 01:30 +1 hour',
);
known(
  'a unit with a stray letter after it ("1 dayss", "1 fris"): PHP reads the letter as a military zone; the port rejects the string',
  ...[
    'seconds',
    'mins',
    'minutes',
    'hours',
    'days',
    'weeks',
    'fortnights',
    'months',
    'years',
    'ms',
    'µs',
    'microseconds',
    'weekdays',
    'tuesdays',
    'fri',
  ].map((u) => `1 ${u}s`),
);
known(
  'a zone before "@timestamp": PHP gives a year-0 result (the zone resets the fields the timestamp set); the port keeps the timestamp',
  'UTC @1514764800',
  '+01:00 @1514764800',
  'EST @1514764800',
  'Europe/Paris @1514764800',
);

const instant = (base: string) => new Date(`${base.replace(' ', 'T')}Z`);

describe(`strtotime port against PHP ${corpus.php} (fixtures/strtotime-corpus.json)`, () => {
  it('has a corpus of a few thousand strings at several clocks and zones', () => {
    expect(corpus.cases.length).toBeGreaterThan(2500);
    expect(corpus.combos.length).toBeGreaterThanOrEqual(20);
  });

  it('agrees with PHP except for the known differences', () => {
    const unexpected: string[] = [];
    let agree = 0;
    for (const [input, results] of corpus.cases) {
      results.forEach((php, k) => {
        const [base, zone] = corpus.combos[k]!;
        const dt = parseDateInput(input, zone, instant(base));
        const port = dt ? Math.floor(dt.toSeconds()) : null;
        if (port === php) agree += 1;
        else if (!(input in KNOWN)) unexpected.push(`${JSON.stringify(input)} at ${base} UTC in ${zone}: PHP ${php}, port ${port}`);
      });
    }
    expect(unexpected).toEqual([]);
    // 59,636 of 60,040 (input, clock, zone) results agree when this was written (57,776 before
    // business days, weekday-of-month, ISO weeks, days of the year, back/front of, roman months,
    // clf and exif were read, and a word could run into the "T" of a time).
    expect(agree).toBeGreaterThanOrEqual(59_636);
  });

  it('has every known difference in the corpus, and each still differs', () => {
    const byInput = new Map(corpus.cases);
    for (const input of Object.keys(KNOWN)) {
      const results = byInput.get(input);
      expect(results, input).toBeDefined();
      const differs = results!.some((php, k) => {
        const [base, zone] = corpus.combos[k]!;
        const dt = parseDateInput(input, zone, instant(base));
        return (dt ? Math.floor(dt.toSeconds()) : null) !== php;
      });
      expect(differs, input).toBe(true);
    }
  });
});
