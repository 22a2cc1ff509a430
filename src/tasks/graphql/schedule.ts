// A task's schedule: Task.schedule (its pattern, next times and what became of its due times) and
// the owner's mutations setTaskSchedule, pauseTaskSchedule and resumeTaskSchedule.
import { builder, closedSet } from '../../graphql/builder.js';
import type { Task as TaskRow, TaskScheduleOccurrence as OccurrenceRow } from '../../generated/sqlite/client.js';
import { MAX_NEXT_RUN_TIMES, SCHEDULE_DOC, scheduleOf, upcomingTimes } from '../cron.js';
import { TaskError } from '../errors.js';
import { listOccurrences, pauseTaskSchedule, setTaskSchedule } from '../schedules.js';
import { ownerOf } from './resolve.js';
import { Task } from './refs.js';

const MAX_OCCURRENCES = 100;

export const TaskScheduleInput = builder.inputType('TaskScheduleInput', {
  description: SCHEDULE_DOC,
  fields: (t) => ({
    cron: t.string({
      required: true,
      description: 'minute hour day-of-month month day-of-week (e.g. "0 8 * * 1-5"), or @daily, @hourly, @weekly, @monthly, @yearly.',
    }),
    timeZone: t.string({ description: 'The IANA time zone the pattern is read in, e.g. "Europe/Paris" (default "UTC").' }),
  }),
});

const OutcomeEnum = closedSet('TaskScheduleOutcome', 'What became of a due time of a schedule.', {
  started: 'A run was started (runId).',
  skipped: 'Not started: the previous run of the task was still going.',
  refused: 'Not started: a run limit or the API key’s daily token budget was reached (reason).',
});

const TaskScheduleOccurrence = builder.objectRef<OccurrenceRow>('TaskScheduleOccurrence').implement({
  description: 'One due time of a schedule and what became of it.',
  fields: (t) => ({
    dueAt: t.field({ type: 'DateTime', description: 'The time the schedule was due.', resolve: (o) => o.dueAt }),
    outcome: t.field({ type: OutcomeEnum, description: 'Started, skipped or refused.', resolve: (o) => o.outcome as 'started' }),
    runId: t.exposeID('runId', { nullable: true, description: 'The run it started; null when skipped or refused.' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it was skipped or refused; null when started.' }),
    at: t.field({ type: 'DateTime', description: 'When a server process took the due time.', resolve: (o) => o.createdAt }),
  }),
});

const TaskSchedule = builder.objectRef<TaskRow>('TaskSchedule').implement({
  description: 'When a task runs on its own: a cron pattern in a time zone, run by the server in rounds (TASK_SCHEDULE_CHECK_MS).',
  fields: (t) => ({
    cron: t.string({ description: 'The cron pattern.', resolve: (task) => scheduleOf(task)!.cron }),
    timeZone: t.string({ description: 'The IANA time zone it is read in.', resolve: (task) => scheduleOf(task)!.timeZone }),
    paused: t.exposeBoolean('schedulePaused', { description: 'Paused: no run starts until resumed.' }),
    nextRunAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it next starts a run; null while paused.',
      resolve: (task) => task.scheduleNextRunAt,
    }),
    nextRunTimes: t.field({
      type: ['DateTime'],
      description: `The next times it starts a run, soonest first (none while paused).`,
      args: { count: t.arg.int({ defaultValue: 5, description: `How many, 1 to ${MAX_NEXT_RUN_TIMES}.` }) },
      resolve: (task, args) => {
        const count = args.count ?? 5;
        if (count < 1 || count > MAX_NEXT_RUN_TIMES)
          throw new TaskError('invalid', `count must be an integer from 1 to ${MAX_NEXT_RUN_TIMES}`, 'count');
        return upcomingTimes(task, count);
      },
    }),
    occurrences: t.field({
      type: [TaskScheduleOccurrence],
      description: 'What became of its due times (started, skipped, refused), newest first.',
      args: { first: t.arg.int({ defaultValue: 20, description: `How many, 1 to ${MAX_OCCURRENCES}.` }) },
      resolve: (task, args, ctx) => {
        const first = args.first ?? 20;
        if (first < 1 || first > MAX_OCCURRENCES)
          throw new TaskError('invalid', `first must be an integer from 1 to ${MAX_OCCURRENCES}`, 'first');
        return listOccurrences(ctx.prisma, task.id, first);
      },
    }),
  }),
});

builder.objectFields(Task, (t) => ({
  schedule: t.field({
    type: TaskSchedule,
    nullable: true,
    description: 'Its schedule (setTaskSchedule); null: it runs only when created or re-run.',
    resolve: (task) => (task.scheduleCron ? task : null),
  }),
}));

builder.mutationFields((t) => ({
  setTaskSchedule: t.field({
    type: Task,
    description: `Sets the schedule of one of the caller's tasks (null removes it); it is due next from now, not paused. Errors: NOT_FOUND, INVALID_INPUT (a bad cron pattern or time zone). ${SCHEDULE_DOC}`,
    args: {
      id: t.arg.id({ required: true, description: 'The task id.' }),
      schedule: t.arg({ type: TaskScheduleInput, required: false, description: 'The schedule; null removes it.' }),
    },
    resolve: (_root, args, ctx) => setTaskSchedule(ctx.prisma, ownerOf(ctx), String(args.id), args.schedule ?? null),
  }),
  pauseTaskSchedule: t.field({
    type: Task,
    description:
      "Pauses the schedule of one of the caller's tasks: no run starts until it is resumed. Errors: NOT_FOUND, CONFLICT (no schedule).",
    args: { id: t.arg.id({ required: true, description: 'The task id.' }) },
    resolve: (_root, args, ctx) => pauseTaskSchedule(ctx.prisma, ownerOf(ctx), String(args.id), true),
  }),
  resumeTaskSchedule: t.field({
    type: Task,
    description:
      "Resumes the paused schedule of one of the caller's tasks: due next from now (times missed while paused are not made up). Errors: NOT_FOUND, CONFLICT (no schedule).",
    args: { id: t.arg.id({ required: true, description: 'The task id.' }) },
    resolve: (_root, args, ctx) => pauseTaskSchedule(ctx.prisma, ownerOf(ctx), String(args.id), false),
  }),
}));
