// Database faults at the HTTP edges (src/db/faults.ts): each API answers 503 with Retry-After in its
// own error shape and notes the fault on the request; the app's request logger then writes one line
// for it (the fault's reason and the driver's code: no stack, no driver message, no connection string).
import type { DatabaseUnavailable } from '../db/faults.js';

/** Where a request keeps the fault it met (Koa's ctx.state). */
export interface FaultNote {
  databaseFault?: DatabaseUnavailable;
}

/** The first fault a request met is the one its log line names. */
export function noteFault(state: FaultNote, fault: DatabaseUnavailable): void {
  state.databaseFault ??= fault;
}

/** The Retry-After header of a fault's answer. */
export const retryAfter = (fault: DatabaseUnavailable) => ({ 'Retry-After': String(fault.retryAfterSeconds) });

/** What a log line says of a fault. */
export const faultFields = (fault: DatabaseUnavailable) => ({ database: fault.reason, code: fault.driverCode });
