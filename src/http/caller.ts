// Who is calling: one resolution per request, whichever table asks (and however often), and one
// way to refuse a caller. Each table chooses when it asks and in which envelope it refuses.
import type { Context } from 'koa';
import type { Viewer } from '../auth/viewer.js';

/** The credentials' caller: a viewer, null (none sent) or 'invalid' (credentials that match nothing). */
export type ResolveCaller = (ctx: Context) => Viewer | null | 'invalid' | Promise<Viewer | null | 'invalid'>;

export interface CallerRule {
  /** A request without credentials is refused. */
  required?: boolean;
  /** The table's error for a caller it refuses. */
  refuse(reason: 'missing' | 'invalid'): Error;
}

export type Authenticate = (ctx: Context, rule: CallerRule) => Promise<Viewer | null>;

interface CallerState {
  caller?: Promise<Viewer | null | 'invalid'>;
}

export function authenticator(resolve: ResolveCaller): Authenticate {
  return async (ctx, rule) => {
    const state = ctx.state as CallerState;
    const caller = await (state.caller ??= Promise.resolve(resolve(ctx)));
    if (caller === 'invalid') throw rule.refuse('invalid');
    if (caller === null && rule.required) throw rule.refuse('missing');
    return caller;
  };
}
