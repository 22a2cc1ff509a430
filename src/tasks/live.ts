// The live view of a run: the runs this process is executing, each with its page and the agent's
// current step, and a CDP screencast of that page (Page.startScreencast through Playwright's
// CDPSession, which works for a launched Chromium and one reached over BROWSER_CDP_URL alike).
// Frames are JPEGs of what the page shows, so they are pictures as the screenshots are: a secret
// typed into a password field shows as dots, one typed into a plain field in clear.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface LiveRun {
  context: BrowserContext;
  /** The tab the agent works in (it changes with new tabs). */
  page(): Page;
  /** What the agent is doing now (the run's liveStatus). */
  step: string;
}

const running = new Map<string, LiveRun>();

export const liveRuns = {
  add(runId: string, run: LiveRun): void {
    running.set(runId, run);
  },
  remove(runId: string): void {
    running.delete(runId);
  },
  get(runId: string): LiveRun | undefined {
    return running.get(runId);
  },
};

export interface LiveFrame {
  /** base64 JPEG */
  data: string;
  url: string;
  step: string;
}

const FRAME_CHECK_MS = 500;

/**
 * Sends the run's page as screencast frames until the returned stop is called; follows the agent to
 * another tab. Chromium paces the frames (it sends the next once the last is acknowledged, and only
 * when the page changed), so a slow machine gets fewer, never a backlog.
 */
export function screencast(run: LiveRun, send: (frame: LiveFrame) => void): () => Promise<void> {
  let session: CDPSession | undefined;
  let page: Page | undefined;
  let stopped = false;
  const attach = async () => {
    const current = run.page();
    if (stopped || current === page || current.isClosed()) return;
    await session?.detach().catch(() => undefined);
    page = current;
    const cdp = (session = await run.context.newCDPSession(current));
    cdp.on('Page.screencastFrame', (event: { data: string; sessionId: number }) => {
      void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
      if (!stopped) send({ data: event.data, url: current.url(), step: run.step });
    });
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60, maxWidth: 1280, maxHeight: 800 });
  };
  const follow = setInterval(() => void attach().catch(() => undefined), FRAME_CHECK_MS);
  void attach().catch(() => undefined);
  return async () => {
    stopped = true;
    clearInterval(follow);
    await session?.send('Page.stopScreencast').catch(() => undefined);
    await session?.detach().catch(() => undefined);
  };
}
