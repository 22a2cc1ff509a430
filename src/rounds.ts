// A background job every server process runs in rounds: one round at a time (a slow round delays
// the next rather than stacking them), never keeping the process alive, and stopped by awaiting
// the round in progress.
export interface Rounds {
  stop(): Promise<void>;
}

/** Runs `round` every `intervalMs` (and at once when `immediately`); a round's failure goes to `failed` unless stopping. */
export function everyInterval(
  intervalMs: number,
  round: () => Promise<void>,
  failed: (error: unknown) => void,
  options: { immediately?: boolean } = {},
): Rounds {
  let stopped = false;
  let running: Promise<void> | null = null;
  const start = () => {
    if (running || stopped) return;
    running = round()
      .catch((error: unknown) => {
        if (!stopped) failed(error);
      })
      .finally(() => (running = null));
  };
  const timer = setInterval(start, intervalMs);
  timer.unref();
  if (options.immediately) start();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
