// In-process signals between the API and this process's workers. The database stays the truth: a
// signal only makes a worker act now rather than at its next poll or heartbeat (other processes
// learn the same through polling and heartbeats).
import { EventEmitter } from 'node:events';

interface Signals {
  /** A run became claimable (created, or its tool input arrived). */
  queued: [];
  /** A run was ended from outside its worker (stopped). */
  ended: [runId: string];
  /** A task's details changed (renamed): live lists should look again. */
  changed: [];
}

export const taskSignals = new EventEmitter<Signals>();
taskSignals.setMaxListeners(0);
