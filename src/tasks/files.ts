// Files of browser tasks. Uploads: `files` given at create (fetched by URL through the URL policy, or
// base64), kept with the task for its runs' upload_file action. Downloads: what a run's browser
// downloaded, kept per run for the task's owner. Both are bounded: a file over the limit is refused
// whole, never kept truncated.
import { createHash, randomUUID } from 'node:crypto';
import type { Prisma } from '../db/client.js';
import { guardedRequest, ResponseTooLarge } from '../net/guarded-request.js';
import type { UrlPolicy } from '../net/url-policy.js';
import { isPlainObject } from '../values.js';
import { invalid } from './errors.js';
import { validateHttpUrl } from './validation.js';

export const MAX_TASK_FILES = 10;
const MAX_FILE_NAME = 255;
const FETCH_TIMEOUT_MS = 20_000;

export interface FileLimits {
  /** All of a task's files together (TASK_MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
}

/** `files` on create, described once for both APIs. */
export const FILES_DOC = `Files the agent may set into a file input (upload_file): at most ${MAX_TASK_FILES}, each {name, url} (fetched once, at create, through the URL policy) or {name, content: base64}, with an optional mimeType; names are unique, 1 to ${MAX_FILE_NAME} characters without / or \\. Together at most TASK_MAX_UPLOAD_BYTES (10 MiB by default).`;

/** One entry of `files` as given, checked for shape. */
interface FileSpec {
  name: string;
  mimeType?: string;
  url?: string;
  content?: Buffer;
}

export interface TaskFileData {
  name: string;
  mimeType: string;
  content: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;

/** The shape of `files`: null when absent or empty. */
export function validateFiles(value: unknown): FileSpec[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw invalid('files', 'must be an array of {name, url} or {name, content} objects');
  if (value.length > MAX_TASK_FILES) throw invalid('files', `may hold at most ${MAX_TASK_FILES} files (got ${value.length})`);
  const names = new Set<string>();
  return value.map((entry, i) => {
    const at = `files[${i}]`;
    if (!isPlainObject(entry)) throw invalid(at, 'must be an object {name, url} or {name, content}');
    const { name, url, content, mimeType } = entry;
    if (typeof name !== 'string' || !name.trim()) throw invalid(`${at}.name`, 'is required: the file name the page gets');
    if (name.length > MAX_FILE_NAME || /[/\\\x00-\x1f]/.test(name) || name === '.' || name === '..')
      throw invalid(`${at}.name`, `must be 1 to ${MAX_FILE_NAME} characters, without / or \\ or control characters`);
    if (names.has(name)) throw invalid(`${at}.name`, `repeats "${name}": names must be unique`);
    names.add(name);
    if (mimeType !== undefined && (typeof mimeType !== 'string' || !MIME.test(mimeType)))
      throw invalid(`${at}.mimeType`, 'must be a media type such as application/pdf');
    if ((url === undefined) === (content === undefined)) throw invalid(at, 'must have exactly one of url and content');
    const spec: FileSpec = { name, ...(mimeType ? { mimeType } : {}) };
    if (url !== undefined) spec.url = validateHttpUrl(url, `${at}.url`);
    else {
      const text = typeof content === 'string' ? content.replace(/\s+/g, '') : null;
      if (text === null || !BASE64.test(text) || text.length % 4 === 1) throw invalid(`${at}.content`, 'must be base64 text');
      spec.content = Buffer.from(text, 'base64');
    }
    return spec;
  });
}

/** The files' bytes: fetched (through the policy) or decoded, within the limit for all of them. */
export async function loadFiles(specs: FileSpec[], policy: UrlPolicy, limits: FileLimits): Promise<TaskFileData[]> {
  const files: TaskFileData[] = [];
  let total = 0;
  for (const [i, spec] of specs.entries()) {
    const at = `files[${i}]`;
    const left = limits.maxUploadBytes - total;
    const tooLarge = () => invalid(at, `makes the files larger than ${limits.maxUploadBytes} bytes together (TASK_MAX_UPLOAD_BYTES)`);
    let content = spec.content;
    let fetchedType: string | undefined;
    if (!content) {
      const fetched = await fetchFile(spec.url!, policy, left, at);
      if (!fetched) throw tooLarge();
      content = fetched.body;
      fetchedType = fetched.type;
    }
    total += content.length;
    if (total > limits.maxUploadBytes) throw tooLarge();
    files.push({ name: spec.name, mimeType: spec.mimeType ?? fetchedType ?? mimeTypeOf(spec.name), content });
  }
  return files;
}

/** The file at `url`; null when it is larger than `maxBytes`. */
async function fetchFile(url: string, policy: UrlPolicy, maxBytes: number, at: string): Promise<{ body: Buffer; type?: string } | null> {
  let response;
  try {
    response = await guardedRequest(policy, url, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: Math.max(0, maxBytes) });
  } catch (error) {
    if (error instanceof ResponseTooLarge) return null;
    throw invalid(`${at}.url`, `could not be fetched: ${(error as Error).message}`);
  }
  if (response.status !== 200) throw invalid(`${at}.url`, `could not be fetched: HTTP ${response.status}`);
  const type = String(response.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  return { body: response.body, type: MIME.test(type) ? type : undefined };
}

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A media type for a file name, by its extension (application/octet-stream when unknown). */
export function mimeTypeOf(name: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (extension && TYPES[extension]) || 'application/octet-stream';
}

export const taskFileRows = (files: TaskFileData[]) =>
  files.map((f) => ({ id: randomUUID(), name: f.name, mimeType: f.mimeType, size: f.content.length, content: new Uint8Array(f.content) }));

/** The task's files without their bytes, by name. */
export function listTaskFiles(prisma: Prisma, taskId: string) {
  return prisma.taskFile.findMany({
    where: { taskId },
    select: { id: true, name: true, mimeType: true, size: true },
    orderBy: { name: 'asc' },
  });
}

export async function loadTaskFile(prisma: Prisma, taskId: string, name: string): Promise<TaskFileData | null> {
  const file = await prisma.taskFile.findUnique({ where: { taskId_name: { taskId, name } } });
  return file && { name: file.name, mimeType: file.mimeType, content: Buffer.from(file.content) };
}

export interface DownloadedFile {
  name: string;
  url: string;
  content: Buffer;
}

/** Keeps a run's download; answers its id. */
export async function saveDownload(prisma: Prisma, runId: string, file: DownloadedFile): Promise<string> {
  const id = randomUUID();
  const sha256 = createHash('sha256').update(file.content).digest('hex');
  await prisma.taskDownload.create({
    data: {
      id,
      runId,
      name: file.name.slice(0, MAX_FILE_NAME),
      url: file.url,
      size: file.content.length,
      sha256,
      content: new Uint8Array(file.content),
    },
  });
  return id;
}

export const countDownloads = (prisma: Prisma, runId: string) => prisma.taskDownload.count({ where: { runId } });

const DOWNLOAD_FIELDS = { id: true, runId: true, name: true, url: true, size: true, sha256: true, createdAt: true } as const;

/** The downloads of the runs, without their bytes, oldest first. */
export function listDownloads(prisma: Prisma, runIds: string[]) {
  return prisma.taskDownload.findMany({
    where: { runId: { in: runIds } },
    select: DOWNLOAD_FIELDS,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** A download of one of the task's runs, with its bytes; null when the task has none by that id. */
export function findDownload(prisma: Prisma, taskId: string, id: string) {
  return prisma.taskDownload.findFirst({ where: { id, run: { taskId } } });
}
