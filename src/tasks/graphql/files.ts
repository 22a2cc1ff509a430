// The files of tasks and runs: Task.files (given at create for upload_file), TaskRun.downloads
// (what the run's browser downloaded) and Task.download(id), a download with its bytes.
import { builder } from '../../graphql/builder.js';
import { findDownload, listDownloads, listTaskFiles } from '../files.js';
import { batchLoader } from './resolve.js';
import { Task, TaskRun } from './refs.js';

type DownloadRow = Awaited<ReturnType<typeof listDownloads>>[number];

/** Where the task API serves a download's bytes (to the task's owner, with an API key). */
export const downloadUrl = (siteUrl: string, taskId: string, id: string) =>
  `${siteUrl}/api/v1/task/${encodeURIComponent(taskId)}/run/downloads/${encodeURIComponent(id)}`;

const TaskFile = builder.objectRef<{ id: string; name: string; mimeType: string; size: number }>('TaskFile').implement({
  description: 'A file given with the task (files on create), which its runs may upload (upload_file).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The file name the page gets.' }),
    mimeType: t.exposeString('mimeType', { description: 'Its media type.' }),
    size: t.exposeInt('size', { description: 'Its size in bytes.' }),
  }),
});

const TaskDownload = builder.objectRef<DownloadRow & { taskId: string }>('TaskDownload').implement({
  description: "A file a run's browser downloaded, kept for the task's owner (TASK_MAX_DOWNLOADS per run, TASK_MAX_DOWNLOAD_BYTES each).",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The download id.' }),
    runId: t.exposeID('runId', { description: 'The run that downloaded it.' }),
    name: t.exposeString('name', { description: 'The file name the site suggested.' }),
    sourceUrl: t.exposeString('url', { description: 'Where it was downloaded from.' }),
    size: t.exposeInt('size', { description: 'Its size in bytes.' }),
    sha256: t.exposeString('sha256', { description: 'SHA-256 of its bytes, hex.' }),
    createdAt: t.field({ type: 'DateTime', description: 'When it finished downloading.', resolve: (d) => d.createdAt }),
    url: t.string({
      description: 'Where the task API serves its bytes (GET with the API key of the owner).',
      resolve: (d, _args, ctx) => downloadUrl(ctx.config.siteUrl, d.taskId, d.id),
    }),
  }),
});

const TaskDownloadContent = builder.objectRef<{ name: string; content: Uint8Array }>('TaskDownloadContent').implement({
  description: 'A download with its bytes.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The file name the site suggested.' }),
    contentBase64: t.string({ description: 'Its bytes, base64.', resolve: (d) => Buffer.from(d.content).toString('base64') }),
  }),
});

builder.objectFields(Task, (t) => ({
  files: t.field({
    type: [TaskFile],
    description: 'The files given with the task (without their bytes), by name.',
    resolve: (task, _args, ctx) => listTaskFiles(ctx.prisma, task.id),
  }),
  download: t.field({
    type: TaskDownloadContent,
    nullable: true,
    description: "A download of one of the task's runs, with its bytes; null when it has none by that id.",
    args: { id: t.arg.id({ required: true, description: 'The download id.' }) },
    resolve: (task, args, ctx) => findDownload(ctx.prisma, task.id, String(args.id)),
  }),
}));

builder.objectFields(TaskRun, (t) => ({
  downloads: t.field({
    type: [TaskDownload],
    description: 'The files the run downloaded and kept, oldest first (without their bytes: see url).',
    resolve: async (run, _args, ctx) => {
      const load = batchLoader(ctx, 'downloads', async (ids: string[]) => {
        const byRun = new Map<string, DownloadRow[]>(ids.map((id) => [id, []]));
        for (const row of await listDownloads(ctx.prisma, ids)) byRun.get(row.runId)!.push(row);
        return byRun;
      });
      return ((await load(run.id)) ?? []).map((d) => ({ ...d, taskId: run.taskId }));
    },
  }),
}));
