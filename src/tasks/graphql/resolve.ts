// Glue between the task domain and GraphQL: who the caller is, which run the arguments name, and
// domain errors as GraphQL errors.
import type { ArgsOf } from '../../graphql/builder.js';
import { translateDomainErrors } from '../../graphql/errors.js';
import { requireViewer, type GraphQLContext } from '../../graphql/context.js';
import { TaskError } from '../errors.js';
import type { Owner } from '../tasks.js';

/** The caller as a task owner; browser tasks always need an API key. */
export function ownerOf(ctx: GraphQLContext): Owner {
  const { userId, keyId } = requireViewer(ctx, 'Browser tasks need an API key');
  return { userId, keyId };
}

const TASK_CODES = {
  invalid: 'INVALID_INPUT',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  limit: 'RATE_LIMITED',
  unauthenticated: 'UNAUTHENTICATED',
} as const;
translateDomainErrors(TaskError, (error) => ({
  code: TASK_CODES[error.code],
  extensions: error.code === 'invalid' ? { params: { [error.field ?? 'input']: error.message } } : {},
}));

/**
 * Batches loads made while one GraphQL list resolves (all in the same tick) into one query, per
 * request: `tasks { items { latestRun } }` costs two statements, not one per task.
 */
export function batchLoader<K, V>(
  ctx: GraphQLContext,
  name: string,
  load: (keys: K[]) => Promise<Map<K, V>>,
): (key: K) => Promise<V | undefined> {
  const cacheKey = `tasks:${name}`;
  let loader = ctx.cache.get(cacheKey) as ((key: K) => Promise<V | undefined>) | undefined;
  if (!loader) {
    let pending: Array<{ key: K; resolve: (v: V | undefined) => void; reject: (e: unknown) => void }> = [];
    loader = (key: K) =>
      new Promise<V | undefined>((resolve, reject) => {
        if (!pending.length) {
          // After the promise jobs of this tick (as DataLoader does), so every sibling has asked.
          void Promise.resolve().then(() =>
            process.nextTick(() => {
              const batch = pending;
              pending = [];
              load([...new Set(batch.map((p) => p.key))]).then(
                (found) => batch.forEach((p) => p.resolve(found.get(p.key))),
                (error) => batch.forEach((p) => p.reject(error)),
              );
            }),
          );
        }
        pending.push({ key, resolve, reject });
      });
    ctx.cache.set(cacheKey, loader);
  }
  return loader;
}

/** The arguments that name a run: its task, and the run (`runIdDescription`: what an omitted one means). */
export const runArgs = (t: ArgsOf, runIdDescription = 'The run id (default: the latest run).') => ({
  taskId: t.arg.id({ required: true, description: 'The task id.' }),
  runId: t.arg.id({ description: runIdDescription }),
});

/** The run those arguments name, as the domain takes it (runId null: the latest). */
export const runNamed = (args: { taskId: string | number; runId?: string | number | null }) => ({
  taskId: String(args.taskId),
  runId: args.runId == null ? null : String(args.runId),
});
