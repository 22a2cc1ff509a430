// Runs as the API sees them: lookup (the latest when no run id is given), stop, tool input, steps.
// State changes are conditional UPDATEs, so a stop racing a worker (or two inputs racing each
// other) has exactly one winner; the loser gets a conflict.
import type { Prisma } from '../db/client.js';
import { TaskError } from './errors.js';
import { taskSignals } from './events.js';
import { ending, UNFINISHED } from './statuses.js';
import { findTask, ownedBy, type Owner } from './tasks.js';

export const MAX_TOOL_INPUT = 100_000;

export async function listRuns(prisma: Prisma, taskId: string, page: number, limit: number) {
  const where = { taskId };
  const [items, total] = await Promise.all([
    prisma.taskRun.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (page - 1) * limit, take: limit }),
    prisma.taskRun.count({ where }),
  ]);
  return { items, total };
}

/** The run `runId` of the owner's task, or its latest run when runId is absent; null if either is unknown. */
export async function findRun(prisma: Prisma, owner: Owner, taskId: string, runId?: string | null) {
  const task = await findTask(prisma, owner, taskId);
  if (!task) return null;
  if (runId) return prisma.taskRun.findFirst({ where: { id: runId, taskId } });
  return prisma.taskRun.findFirst({ where: { taskId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** Those of the runs `ids` whose task belongs to the owner (one statement). */
export function findRuns(prisma: Prisma, owner: Owner, ids: string[]) {
  return prisma.taskRun.findMany({ where: { id: { in: ids }, task: ownedBy(owner) } });
}

export async function requireRun(prisma: Prisma, owner: Owner, taskId: string, runId?: string | null) {
  const run = await findRun(prisma, owner, taskId, runId);
  if (run) return run;
  if (!(await findTask(prisma, owner, taskId))) throw new TaskError('not_found', `No task with id "${taskId}".`);
  throw new TaskError('not_found', runId ? `No run "${runId}" in task "${taskId}".` : `Task "${taskId}" has no runs.`);
}

export async function stopRun(prisma: Prisma, owner: Owner, taskId: string, runId?: string | null) {
  const run = await requireRun(prisma, owner, taskId, runId);
  const { count } = await prisma.taskRun.updateMany({
    where: { id: run.id, status: { in: UNFINISHED } },
    data: ending('stopped', 'stopped'),
  });
  if (count !== 1) {
    const now = await prisma.taskRun.findUniqueOrThrow({ where: { id: run.id } });
    throw new TaskError(
      'conflict',
      `The run has already ended (status "${now.status}", ${now.detailedStatus}); only a scheduled or running run can be stopped.`,
    );
  }
  taskSignals.emit('ended', run.id);
  return prisma.taskRun.findUniqueOrThrow({ where: { id: run.id } });
}

export function pendingToolCall(prisma: Prisma, runId: string) {
  return prisma.toolCall.findFirst({ where: { runId, input: null }, orderBy: { createdAt: 'desc' } });
}

export async function submitToolInput(
  prisma: Prisma,
  owner: Owner,
  args: { taskId: string; runId?: string | null; input: string; toolCallId?: string | null },
) {
  if (typeof args.input !== 'string') throw new TaskError('invalid', 'input must be a string', 'input');
  if (args.input.length > MAX_TOOL_INPUT) throw new TaskError('invalid', `input must be at most ${MAX_TOOL_INPUT} characters`, 'input');
  const run = await requireRun(prisma, owner, args.taskId, args.runId);
  const waiting = run.status === 'running' && run.detailedStatus === 'tool_call';
  const pending = waiting ? await pendingToolCall(prisma, run.id) : null;
  if (!pending) {
    throw new TaskError('conflict', `The run is not waiting for tool input (status "${run.status}", ${run.detailedStatus}).`);
  }
  if (args.toolCallId && args.toolCallId !== pending.id) {
    throw new TaskError('conflict', `toolCallId "${args.toolCallId}" is not the call the run waits for ("${pending.id}").`);
  }
  await prisma.$transaction(async (tx) => {
    const answered = await tx.toolCall.updateMany({
      where: { id: pending.id, input: null },
      data: { input: args.input, answeredAt: new Date() },
    });
    const resumed = await tx.taskRun.updateMany({
      where: { id: run.id, status: 'running', detailedStatus: 'tool_call' },
      data: { detailedStatus: 'queued', liveStatus: 'Input received; waiting for a worker' },
    });
    if (answered.count !== 1 || resumed.count !== 1)
      throw new TaskError('conflict', 'The run stopped waiting for input before the input arrived.');
  });
  taskSignals.emit('queued');
  return prisma.taskRun.findUniqueOrThrow({ where: { id: run.id } });
}

/** The run's steps in order, without their screenshots (which are served on their own). */
export async function listSteps(prisma: Prisma, runId: string) {
  const [steps, withScreenshot] = await Promise.all([
    prisma.taskStep.findMany({
      where: { runId },
      orderBy: { index: 'asc' },
      select: {
        id: true,
        runId: true,
        index: true,
        url: true,
        title: true,
        action: true,
        arguments: true,
        result: true,
        reasoning: true,
        tokens: true,
        costUsd: true,
        locator: true,
        replayed: true,
        createdAt: true,
      },
    }),
    prisma.taskStep.findMany({ where: { runId, screenshot: { not: null } }, select: { index: true } }),
  ]);
  const indexes = new Set(withScreenshot.map((s) => s.index));
  return steps.map((step) => ({ ...step, hasScreenshot: indexes.has(step.index) }));
}

export type StepView = Awaited<ReturnType<typeof listSteps>>[number];
