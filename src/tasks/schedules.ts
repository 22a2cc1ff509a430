// Task schedules: a cron pattern in an IANA time zone (croner computes the times). Every server
// process looks for due schedules in rounds. A due time is claimed with a compare-and-set on the
// task's scheduleNextRunAt (from the due time to the next one), in one transaction with what became
// of it: a run started, skipped (the task's previous run is still going) or refused (a run limit or
// the key's daily budget). So with any number of processes on one database each due time is taken
// once, and one occurrence row (unique per task and due time) records it.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Prisma } from '../db/client.js';
import type { Logger } from '../http/logger.js';
import { everyInterval, type Rounds } from '../rounds.js';
import { TaskError } from './errors.js';
import { taskSignals } from './events.js';
import { UNFINISHED } from './statuses.js';
import { checkRunLimits, newRunRow, requireTask, type Owner } from './tasks.js';
import { nextAfter, scheduleColumns, scheduleOf, validateSchedule, type ScheduleInput, type ValidSchedule } from './cron.js';

export type OccurrenceOutcome = 'started' | 'skipped' | 'refused';

/** Due tasks one process takes in one round at most (the rest wait for the next round, or another process). */
const DUE_PER_ROUND = 20;

/** Sets (or with null removes) the schedule of the owner's task; it is due next from now, unpaused. */
export async function setTaskSchedule(prisma: Prisma, owner: Owner, id: string, input: ScheduleInput | null) {
  const schedule = input === null ? null : validateSchedule(input);
  await requireTask(prisma, owner, id);
  await prisma.task.updateMany({ where: { id, ownerId: owner.userId }, data: scheduleColumns(schedule) });
  return requireTask(prisma, owner, id);
}

/** Pauses (no due times until resumed) or resumes (due next from now) the schedule of the owner's task. */
export async function pauseTaskSchedule(prisma: Prisma, owner: Owner, id: string, paused: boolean) {
  const task = await requireTask(prisma, owner, id);
  const schedule = scheduleOf(task);
  if (!schedule) throw new TaskError('conflict', `Task "${id}" has no schedule to ${paused ? 'pause' : 'resume'}.`);
  const data = paused
    ? { schedulePaused: true, scheduleNextRunAt: null }
    : { schedulePaused: false, scheduleNextRunAt: task.schedulePaused ? nextAfter(schedule, new Date()) : task.scheduleNextRunAt };
  await prisma.task.updateMany({ where: { id, ownerId: owner.userId }, data });
  return requireTask(prisma, owner, id);
}

/** What the schedule's due times became, newest first. */
export function listOccurrences(prisma: Prisma, taskId: string, limit: number) {
  return prisma.taskScheduleOccurrence.findMany({ where: { taskId }, orderBy: [{ dueAt: 'desc' }], take: limit });
}

type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];
type DueTask = { id: string; ownerId: number; keyId: number | null; scheduleNextRunAt: Date | null } & ValidSchedule;

class ClaimLost extends Error {}

/** Claims one due time of the task and acts on it; null when another process claimed it first. */
async function takeDueTime(prisma: Prisma, config: Config, task: DueTask, now: Date): Promise<OccurrenceOutcome | null> {
  const dueAt = task.scheduleNextRunAt!;
  try {
    return await prisma.$transaction(async (tx) => {
      // Due times missed while no process ran are not made up: the next is the first after now.
      const claimed = await tx.task.updateMany({
        where: { id: task.id, scheduleNextRunAt: dueAt, schedulePaused: false },
        data: { scheduleNextRunAt: nextAfter(task, now) },
      });
      if (claimed.count !== 1) throw new ClaimLost();
      const { outcome, runId, reason } = await startOrSkip(tx, config, task);
      await tx.taskScheduleOccurrence.create({ data: { id: randomUUID(), taskId: task.id, dueAt, outcome, runId, reason } });
      return outcome;
    });
  } catch (error) {
    if (error instanceof ClaimLost) return null;
    throw error;
  }
}

async function startOrSkip(
  tx: Tx,
  config: Config,
  task: DueTask,
): Promise<{ outcome: OccurrenceOutcome; runId: string | null; reason: string | null }> {
  const going = await tx.taskRun.findFirst({ where: { taskId: task.id, status: { in: UNFINISHED } }, select: { id: true } });
  if (going) return { outcome: 'skipped', runId: null, reason: `the run ${going.id} was still going` };
  try {
    await checkRunLimits(tx, config, { userId: task.ownerId }, task.keyId ?? undefined);
  } catch (error) {
    if (error instanceof TaskError && error.code === 'limit') return { outcome: 'refused', runId: null, reason: error.message };
    throw error;
  }
  const run = await tx.taskRun.create({ data: { ...newRunRow(config), taskId: task.id } });
  await tx.task.update({ where: { id: task.id }, data: { status: 'active' } });
  return { outcome: 'started', runId: run.id, reason: null };
}

/** Takes the schedules due at `now`; returns what became of each due time this process claimed. */
export async function runDueSchedules(prisma: Prisma, config: Config, now = new Date()): Promise<OccurrenceOutcome[]> {
  const due = await prisma.task.findMany({
    where: { scheduleNextRunAt: { lte: now }, schedulePaused: false, scheduleCron: { not: null } },
    select: { id: true, ownerId: true, keyId: true, scheduleCron: true, scheduleTimeZone: true, scheduleNextRunAt: true },
    orderBy: { scheduleNextRunAt: 'asc' },
    take: DUE_PER_ROUND,
  });
  const outcomes: OccurrenceOutcome[] = [];
  for (const row of due) {
    const task = { ...row, ...scheduleOf(row)! };
    const outcome = await takeDueTime(prisma, config, task, now);
    if (outcome) outcomes.push(outcome);
  }
  if (outcomes.includes('started') && config.tasks.llmBaseUrl) taskSignals.emit('queued');
  return outcomes;
}

/** The rounds every server process runs: due schedules every TASK_SCHEDULE_CHECK_MS. */
export function startTaskSchedules(deps: { prisma: Prisma; config: Config; logger: Logger }): Rounds {
  return everyInterval(
    deps.config.tasks.scheduleCheckMs,
    async () => {
      const outcomes = await runDueSchedules(deps.prisma, deps.config);
      if (outcomes.length) deps.logger.info({ outcomes }, 'task schedules: due times taken');
    },
    (error) => deps.logger.warn({ err: error }, 'task schedules: a round failed; retrying'),
  );
}
