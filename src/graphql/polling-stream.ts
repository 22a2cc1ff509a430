// The loop behind the live subscriptions: a round reads the database and pushes what is new, then
// the stream waits for the next round. Signals (another subscription's event, a change noticed by
// a poller) only make the next round come sooner; the database stays the truth, so a signal from
// another process is never needed. The stream ends when a round says so, the consumer stops
// listening (the Repeater's stop), or a round throws (the error goes to the client).
import { Repeater } from 'graphql-yoga';

/** What to do after a round: read again at once, wait for a signal or the interval, or end. */
export type RoundOutcome = 'again' | 'wait' | 'end';

export function pollingStream<T>(options: {
  intervalMs: number;
  /** Registers `nudge` with whatever signals a change; returns the function that unregisters it. */
  listen: (nudge: () => void) => () => void;
  round: (push: (value: T) => Promise<unknown>) => Promise<RoundOutcome>;
}): AsyncIterable<T> {
  return new Repeater<T>(async (push, stop) => {
    let stopped = false;
    let nudged: boolean | undefined;
    let wake: () => void = () => undefined;
    const nudge = () => {
      nudged = true;
      wake();
    };
    void stop.then(nudge).then(() => (stopped = true));
    const unlisten = options.listen(nudge);
    try {
      while (!stopped) {
        nudged = false;
        const outcome = await options.round(push);
        if (outcome === 'end' || stopped) break;
        // A signal that came during the round is acted on now, not after the interval.
        if (outcome === 'again' || nudged) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.intervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      stop();
    } catch (error) {
      stop(error);
    } finally {
      unlisten();
    }
  });
}
