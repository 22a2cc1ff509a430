// Which protected records a field may show in full. A `password` (or `editContext`) argument applies
// to the root field it is given on and to everything under it, never to a sibling root field:
// `{ a: event(id: 1, password: "pw") { … } b: events { … } }` unmasks only `a`. Kept per request,
// under the response key of the root field.
import type { GraphQLResolveInfo } from 'graphql';
import type { ArgsOf } from './builder.js';
import type { GraphQLContext } from './context.js';

export interface Unlock {
  password?: string;
  editContext?: boolean;
  /** Everything shown (a write's own result). */
  showAll?: boolean;
}

/** The response key (alias or name) of the root field `info` runs under. */
function rootKey(info: Pick<GraphQLResolveInfo, 'path'>): string {
  let path = info.path;
  while (path.prev) path = path.prev;
  return String(path.key);
}

export function setUnlock(ctx: GraphQLContext, info: Pick<GraphQLResolveInfo, 'path'>, unlock: Unlock): Unlock {
  ctx.unlocks.set(rootKey(info), unlock);
  return unlock;
}

/** The unlock of the root field `info` runs under (none given: nothing unlocked). */
export function unlockOf(ctx: GraphQLContext, info: Pick<GraphQLResolveInfo, 'path'>): Unlock {
  return ctx.unlocks.get(rootKey(info)) ?? {};
}

/** The arguments of a root field that reads protected records: what unlocks them. */
export const unlockArgs = (t: ArgsOf, what: string) => ({
  password: t.arg.string({ description: `Unlocks password-protected ${what} with this password.` }),
  editContext: t.arg.boolean({ description: `Unlocks protected ${what} the caller may edit (REST context=edit).` }),
});

/** Records, for the root field `info` runs under, what its unlockArgs unlock. */
export function unlockFromArgs(
  ctx: GraphQLContext,
  info: Pick<GraphQLResolveInfo, 'path'>,
  args: { password?: unknown; editContext?: unknown },
): Unlock {
  const password = typeof args.password === 'string' ? args.password : undefined;
  return setUnlock(ctx, info, { password, editContext: typeof args.editContext === 'boolean' ? args.editContext : undefined });
}
