// Tells this process's live subscriptions that the calendar changed, whichever process wrote it:
// while anyone listens, one timer per database client reads the end of the change log as a reader
// may see it (one indexed row) and calls the listeners when it moved. Not the data version: on
// PostgreSQL a committed change is readable only once every older transaction has ended, which
// may be after the commit that moved the version. The log itself is then read by cursor
// (readChanges), so nothing depends on this process having seen the write.
import { changeLogHead } from './changes.js';

export const CHANGE_POLL_MS = 250;

interface Watch {
  listeners: Set<() => void>;
  timer: NodeJS.Timeout | null;
  head: string | null;
}

const watches = new WeakMap<object, Watch>();

type Db = Parameters<typeof changeLogHead>[0];

/** Calls `listener` soon after each committed change to the calendar; returns the function that stops it. */
export function onCalendarChange(prisma: Db, listener: () => void): () => void {
  let watch = watches.get(prisma);
  if (!watch) watches.set(prisma, (watch = { listeners: new Set(), timer: null, head: null }));
  const current = watch;
  current.listeners.add(listener);
  if (!current.timer) {
    let reading = false;
    current.timer = setInterval(() => {
      if (reading) return;
      reading = true;
      changeLogHead(prisma)
        .then((head) => {
          const moved = current.head !== null && head !== current.head;
          current.head = head;
          if (moved) for (const one of current.listeners) one();
        })
        // A failed read (the database restarting) is tried again at the next tick.
        .catch(() => undefined)
        .finally(() => (reading = false));
    }, CHANGE_POLL_MS);
    current.timer.unref();
  }
  return () => {
    current.listeners.delete(listener);
    if (!current.listeners.size && current.timer) {
      clearInterval(current.timer);
      current.timer = null;
      current.head = null;
    }
  };
}
