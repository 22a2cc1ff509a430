// The clock of suites that compare Almanac with the original's recorded answers. Those answers hold
// "now"-relative values (the default date window, `validFrom`, which events are upcoming) and
// events on fixed dates; replayed at any other moment they would change meaning. Such a suite runs
// its in-process servers at the moment of the recording, advancing in real time from there, so the
// same requests mean the same thing on any day. Every other suite runs on the real clock with dates
// relative to it (see `daysFromNow`).
import { afterAll, beforeAll, vi } from 'vitest';

/** When the original answered `shared/spec/samples` and the fixtures extracted from them (01-index's Date header). */
export const RECORDED_AT = '2026-11-22T11:22:19Z';

/** Runs the enclosing suite (and the servers it starts in-process) with `Date` at `moment`, ticking on. */
export function useClockAt(moment: string = RECORDED_AT): void {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(moment), shouldAdvanceTime: true });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
}

/** A UTC wall time `days` after today (real or faked clock), as the APIs take dates: "YYYY-MM-DD HH:MM:SS". */
export function daysFromNow(days: number, time = '10:00:00'): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10) + ' ' + time;
}
