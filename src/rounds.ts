// A background job every server process runs in rounds: one round at a time (a slow round delays
// the next rather than stacking them), never keeping the process alive, and stopped by awaiting
// the round in progress.
export interface Rounds {
  stop(): Promise<void>;
  /** The first round, when it runs at once (else settled). A start-up waits for it, so that the
   *  server it returns is quiet: no round of a second later shows up in a client's first requests. */
  readonly firstRound: Promise<void>;
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
  const firstRound = running ?? Promise.resolve();
  return {
    firstRound,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
