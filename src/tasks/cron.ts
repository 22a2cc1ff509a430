// A task's schedule as times: a cron pattern in an IANA time zone, checked and turned into due
// times by croner (time-zone aware, daylight-saving changes included). No database here.
import { Cron } from 'croner';
import { TaskError } from './errors.js';

export interface ScheduleInput {
  cron?: unknown;
  timeZone?: unknown;
}

export interface ValidSchedule {
  cron: string;
  timeZone: string;
}

const MAX_CRON_LENGTH = 120;
export const MAX_NEXT_RUN_TIMES = 20;

export const SCHEDULE_DOC =
  'A schedule: {cron, timeZone}. cron: 5 fields (minute hour day-of-month month day-of-week, as crontab(5)) or @yearly, @monthly, @weekly, @daily, @hourly; timeZone: an IANA name (default "UTC"). Each due time starts a run; one due while the previous run is still going is skipped (recorded).';

const invalidSchedule = (field: 'cron' | 'timeZone', rule: string) =>
  new TaskError('invalid', `schedule.${field} ${rule}`, `schedule.${field}`);

function pattern({ cron, timeZone }: ValidSchedule): Cron {
  return new Cron(cron, { timezone: timeZone, paused: true });
}

/** The cron pattern and time zone, checked: a bad one is a TaskError naming the field, never a thrown library error. */
export function validateSchedule(input: ScheduleInput): ValidSchedule {
  if (typeof input.cron !== 'string') throw invalidSchedule('cron', 'is required (a string)');
  const cron = input.cron.trim().replace(/\s+/g, ' ');
  if (!cron || cron.length > MAX_CRON_LENGTH) throw invalidSchedule('cron', `must be 1 to ${MAX_CRON_LENGTH} characters`);
  // Minutes are the finest step: croner would take a sixth (seconds) field.
  if (!cron.startsWith('@') && cron.split(' ').length !== 5)
    throw invalidSchedule('cron', `must have 5 fields (minute hour day-of-month month day-of-week), got "${cron}"`);
  const timeZone = input.timeZone ?? 'UTC';
  if (typeof timeZone !== 'string' || !isTimeZone(timeZone))
    throw invalidSchedule('timeZone', `must be an IANA time zone name such as "Europe/Paris" (got ${JSON.stringify(timeZone)})`);
  let next: Date | null;
  try {
    next = pattern({ cron, timeZone }).nextRun();
  } catch (error) {
    throw invalidSchedule('cron', `is not a valid cron pattern: ${(error as Error).message.replace(/^CronPattern: /, '')}`);
  }
  if (!next) throw invalidSchedule('cron', `never comes round ("${cron}")`);
  return { cron, timeZone };
}

function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The schedule's next `count` times after `after`. */
export function nextTimes(schedule: ValidSchedule, after: Date, count: number): Date[] {
  return count > 0 ? pattern(schedule).nextRuns(count, after) : [];
}

export const nextAfter = (schedule: ValidSchedule, after: Date) => nextTimes(schedule, after, 1)[0] ?? null;

/** The task columns that set a schedule (null: none), due next from now. */
export function scheduleColumns(schedule: ValidSchedule | null, now = new Date()) {
  if (!schedule) return { scheduleCron: null, scheduleTimeZone: null, schedulePaused: false, scheduleNextRunAt: null };
  return {
    scheduleCron: schedule.cron,
    scheduleTimeZone: schedule.timeZone,
    schedulePaused: false,
    scheduleNextRunAt: nextAfter(schedule, now),
  };
}

/** A task row's schedule, or null when it has none. */
export function scheduleOf(task: { scheduleCron: string | null; scheduleTimeZone: string | null }): ValidSchedule | null {
  return task.scheduleCron ? { cron: task.scheduleCron, timeZone: task.scheduleTimeZone ?? 'UTC' } : null;
}

/** The times the schedule will start runs: none while paused. */
export function upcomingTimes(
  task: { scheduleCron: string | null; scheduleTimeZone: string | null; scheduleNextRunAt: Date | null },
  count: number,
): Date[] {
  const schedule = scheduleOf(task);
  if (!schedule || !task.scheduleNextRunAt || count < 1) return [];
  return [task.scheduleNextRunAt, ...nextTimes(schedule, task.scheduleNextRunAt, Math.min(count, MAX_NEXT_RUN_TIMES) - 1)];
}
