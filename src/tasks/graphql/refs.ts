// The task service's object types, declared before their fields so task.ts and run.ts can refer
// to each other without import cycles.
import { builder, closedSet } from '../../graphql/builder.js';
import type { Task as TaskRow, TaskRun as RunRow, ToolCall as ToolCallRow } from '../../generated/sqlite/client.js';
import type { StepView } from '../runs.js';

// Task and TaskRun are Nodes (src/graphql/node.ts): their owner fetches them by nodeId.
export const Task = builder.objectRef<TaskRow>('Task');
export const TaskRun = builder.objectRef<RunRow>('TaskRun');
export const TaskStep = builder.objectRef<StepView & { run: RunRow }>('TaskStep');
export const ToolCall = builder.objectRef<ToolCallRow>('ToolCall');

export interface RecordingShape {
  status: string;
  url: string | null;
  error: string | null;
}
export const TaskRecording = builder.objectRef<RecordingShape>('TaskRecording');

export interface ListShape<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export const PAGE_ARGS_DOC = { page: 'The page, from 1.', limit: 'Items per page, 1 to 30.' };

export const TaskStatusEnum = closedSet('TaskStatus', 'Whether a task still runs.', {
  active: 'The task runs (its runs may be scheduled).',
  inactive: 'Stopped: its unfinished runs were stopped.',
});
export const RunStatusEnum = closedSet('TaskRunStatus', 'The state of a run, for clients.', {
  scheduled: 'Waiting for a worker.',
  running: 'A worker runs it (or it waits for tool input).',
  completed: 'Finished with an output.',
  error: 'Ended without one: failed, stopped, timed out or interrupted (see error).',
});
export const DetailedStatusEnum = closedSet('TaskRunDetailedStatus', 'The state of a run, for people.', {
  queued: 'Waiting for a worker.',
  starting_browser: 'Opening the browser.',
  thinking: 'Waiting for the model.',
  acting: 'Carrying out an action in the page.',
  tool_call: 'Waiting for the client to answer a tool call.',
  completed: 'Finished.',
  failed: 'Failed (see error).',
  stopped: 'Stopped by the client.',
  timed_out: 'Ran out of time.',
  interrupted: 'Its worker stopped and it could not be resumed.',
});
export const RecordingStatusEnum = closedSet('TaskRecordingStatus', 'Whether a run has a recording.', {
  scheduled: 'No screenshot yet; the run goes on.',
  completed: 'The recording is served at url (it grows while the run runs).',
  error: 'The run ended without a screenshot.',
});
export const DeliveryStatusEnum = closedSet('WebhookDeliveryStatus', 'Where a webhook delivery stands.', {
  pending: 'Not accepted yet; it is retried with backoff.',
  delivered: 'The receiver answered 2xx.',
  failed: 'Given up after the last retry.',
});
