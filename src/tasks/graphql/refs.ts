// The task service's object types, declared before their fields so task.ts and run.ts can refer
// to each other without import cycles.
import { builder } from '../../graphql/builder.js';
import type { Task as TaskRow, TaskRun as RunRow, ToolCall as ToolCallRow } from '../../generated/sqlite/client.js';
import type { StepView } from '../runs.js';

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
