// A run's public state: `status` for clients, `detailedStatus` for people. A run any worker may
// claim has detailedStatus "queued" and no workerId (new, answered tool call, or recovered).
export type RunStatus = 'scheduled' | 'running' | 'completed' | 'error';
export type DetailedStatus =
  'queued' | 'starting_browser' | 'thinking' | 'acting' | 'tool_call' | 'completed' | 'failed' | 'stopped' | 'timed_out' | 'interrupted';

export const UNFINISHED: RunStatus[] = ['scheduled', 'running'];

export const NO_LLM_ERROR =
  'No LLM is configured: set LLM_BASE_URL (an OpenAI-compatible API, e.g. https://api.openai.com/v1), and LLM_API_KEY and LLM_MODEL as needed, then create the task again.';

/** The columns that end a run: every end goes through here so the fields always agree. */
export function ending(
  detailedStatus: Exclude<DetailedStatus, 'queued' | 'starting_browser' | 'thinking' | 'acting' | 'tool_call'>,
  error: string | null,
  now = new Date(),
) {
  const status: RunStatus = detailedStatus === 'completed' ? 'completed' : 'error';
  const live: Record<string, string> = {
    completed: 'Finished',
    failed: 'Failed',
    stopped: 'Stopped',
    timed_out: 'Timed out',
    interrupted: 'Interrupted',
  };
  return { status, detailedStatus, error, liveStatus: live[detailedStatus], finishedAt: now, heartbeatAt: null };
}
