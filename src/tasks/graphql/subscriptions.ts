// Live task updates: the Subscription type, served by graphql-yoga over server-sent events
// (POST /graphql with `Accept: text/event-stream`).
//
// Runs may be executed by another server process on the same database, so a subscription watches the
// database rather than this process's events: each one reads a small fingerprint of what it
// watches every TASK_POLL_MS (at most every second), and sends the full value only when the
// fingerprint changed. In-process signals (a stop, a tool input arriving here) only make it look
// sooner. It ends when the client disconnects (the stream's cancel returns the iterator, which stops
// the Repeater and its timer) or, for a run, after sending the run's final state.
import { keyIsActive } from '../../auth/key-management.js';
import { keySignals } from '../../auth/key-signals.js';
import type { TaskRun as RunRow } from '../../generated/sqlite/client.js';
import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { AppError } from '../../graphql/errors.js';
import { pollingStream } from '../../graphql/polling-stream.js';
import { taskSignals } from '../events.js';
import { findRun } from '../runs.js';
import { UNFINISHED, type RunStatus } from '../statuses.js';
import { MAX_PAGE_SIZE } from '../tasks.js';
import { ownerOf, runArgs, runNamed } from './resolve.js';
import { Task, TaskRun } from './refs.js';

const MAX_INTERVAL_MS = 1000;
let watching = 0;

/** How many subscriptions are watching the database right now (for tests and diagnostics). */
export function activeTaskSubscriptions(): number {
  return watching;
}

interface Look<T> {
  /** Changes whenever the value a client would see changes. */
  fingerprint: string;
  /** The full value, read only when the fingerprint changed. */
  load: () => Promise<T>;
  /** Nothing will change any more: send this value and end. */
  final: boolean;
}

/**
 * Sends `look()`'s value at once, then again each time its fingerprint changes, until `look` says
 * the value is final (or returns null: gone), the consumer stops listening, or the API key the
 * subscription was opened with is revoked.
 */
function watch<T>(ctx: GraphQLContext, look: () => Promise<Look<T> | null>): AsyncIterable<T> {
  const intervalMs = Math.min(ctx.config.tasks.pollMs, MAX_INTERVAL_MS);
  const keyId = ctx.viewer?.keyId;
  const keyAlive = () => (keyId === undefined ? Promise.resolve(true) : keyIsActive(ctx.prisma, keyId));
  let last: string | undefined;
  return pollingStream<T>({
    intervalMs,
    listen: (soon) => {
      watching++;
      taskSignals.on('queued', soon);
      taskSignals.on('ended', soon);
      taskSignals.on('changed', soon);
      keySignals.on('revoked', soon);
      return () => {
        watching--;
        taskSignals.off('queued', soon);
        taskSignals.off('ended', soon);
        taskSignals.off('changed', soon);
        keySignals.off('revoked', soon);
      };
    },
    round: async (push) => {
      if (!(await keyAlive())) return 'end';
      const seen = await look();
      if (!seen) return 'end';
      if (seen.fingerprint !== last) {
        last = seen.fingerprint;
        await push(await seen.load());
      }
      return seen.final ? 'end' : 'wait';
    },
  });
}

builder.subscriptionType({
  description:
    'Live updates, over server-sent events (POST /graphql with `Accept: text/event-stream`). Each subscription sends the current value at once, then again whenever it changes.',
});

builder.subscriptionFields((t) => ({
  taskRun: t.field({
    type: TaskRun,
    description:
      "A run of one of the caller's tasks, sent at once and again whenever its status, live status, steps or tool calls change (including changes made by other server processes); the subscription ends after the run's final state. NOT_FOUND when the caller has no such run.",
    args: runArgs(t, 'The run id (default: the latest run when the subscription starts).'),
    subscribe: async (_root, args, ctx) => {
      const { taskId, runId } = runNamed(args);
      const run = await findRun(ctx.prisma, ownerOf(ctx), taskId, runId);
      if (!run)
        throw new AppError(
          'NOT_FOUND',
          runId ? `No run "${runId}" in task "${taskId}".` : `No task with id "${taskId}", or it has no runs.`,
        );
      return watch(ctx, async () => {
        // One statement: the columns clients see (not the agent's bulky resumable state) and the
        // number of steps and tool calls. What is sent is what was fingerprinted, so a change made
        // between the two can never be missed (at worst it is sent twice).
        const now = await ctx.prisma.taskRun.findUnique({
          where: { id: run.id },
          omit: { state: true },
          include: { _count: { select: { steps: true, toolCalls: true } } },
        });
        if (!now) return null;
        const { _count, ...row } = now;
        const { heartbeatAt: _alive, ...visible } = row; // the heartbeat ticks without anything to show
        return {
          fingerprint: JSON.stringify([visible, _count.steps, _count.toolCalls]),
          load: async (): Promise<RunRow> => ({ ...row, state: '' }),
          final: !UNFINISHED.includes(now.status as RunStatus),
        };
      });
    },
    resolve: (run) => run,
  }),
  tasks: t.field({
    type: [Task],
    description:
      "The caller's newest tasks (at most `limit`), sent at once and again whenever one is created, renamed or stopped or the state of one of their runs changes. Select `latestRun` for each task's live status.",
    args: {
      limit: t.arg.int({ defaultValue: MAX_PAGE_SIZE, description: `How many tasks, 1 to ${MAX_PAGE_SIZE}.` }),
    },
    subscribe: async (_root, args, ctx) => {
      const owner = ownerOf(ctx);
      const limit = args.limit ?? MAX_PAGE_SIZE;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
        throw new AppError('INVALID_INPUT', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, {
          params: { limit: `from 1 to ${MAX_PAGE_SIZE}` },
        });
      }
      const query = { where: { ownerId: owner.userId }, orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }], take: limit };
      return watch(ctx, async () => {
        const tasks = await ctx.prisma.task.findMany({
          ...query,
          select: {
            id: true,
            status: true,
            name: true,
            runs: { select: { id: true, status: true, detailedStatus: true, liveStatus: true } },
          },
        });
        return { fingerprint: JSON.stringify(tasks), load: () => ctx.prisma.task.findMany(query), final: false };
      });
    },
    resolve: (tasks) => tasks,
  }),
}));
