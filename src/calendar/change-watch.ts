// Tells this process's live subscriptions that the calendar changed, whichever process wrote it:
// while anyone listens, one timer per database client reads the calendar's data version (one
// indexed row; every committed write moves it) and calls the listeners when it moved. The log
// itself is then read by cursor (readChanges), so nothing depends on this process having seen
// the write.
import type { Prisma } from '../db/client.js';

export const CHANGE_POLL_MS = 250;

interface Watch {
  listeners: Set<() => void>;
  timer: NodeJS.Timeout | null;
  version: number | null;
}

const watches = new WeakMap<object, Watch>();

async function readVersion(prisma: Pick<Prisma, 'dataVersion'>): Promise<number | null> {
  const row = await prisma.dataVersion.findUnique({ where: { scope: 'calendar' }, select: { version: true } });
  return row?.version ?? null;
}

/** Calls `listener` soon after each committed change to the calendar; returns the function that stops it. */
export function onCalendarChange(prisma: Pick<Prisma, 'dataVersion'>, listener: () => void): () => void {
  let watch = watches.get(prisma);
  if (!watch) watches.set(prisma, (watch = { listeners: new Set(), timer: null, version: null }));
  const current = watch;
  current.listeners.add(listener);
  if (!current.timer) {
    let reading = false;
    current.timer = setInterval(() => {
      if (reading) return;
      reading = true;
      readVersion(prisma)
        .then((version) => {
          const moved = current.version !== null && version !== current.version;
          current.version = version;
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
      current.version = null;
    }
  };
}
