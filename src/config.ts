// Environment → one typed, validated configuration object. Every setting is documented in docs/operations.md (federation's in docs/federation.md).
import { databaseKind } from './db/url.js';
import { VISION_MODELS, visionEnabled } from './tasks/vision.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  siteUrl: string;
  /** The site's name (SITE_NAME): the REST root index, feed names. */
  siteName: string;
  siteTimezone: string;
  /** How often subscribed calendar clients should poll the feeds, in minutes (FEED_REFRESH_MINUTES,
   *  default 60): the feeds' REFRESH-INTERVAL and X-PUBLISHED-TTL. */
  feedRefreshMinutes: number;
  postsPerPage: number;
  adminKey: string | undefined;
  /** Failed sign-ins (wrong API keys) one address may make per minute before it gets 429s
   *  (AUTH_FAILURES_PER_MINUTE, default 30), counted across processes. */
  authFailuresPerMinute: number;
  /** Encrypts stored task secrets (ALMANAC_SECRET_KEY, at least 16 characters); without it tasks take no secrets. */
  secretKey: string | undefined;
  restRoot: string;
  restNamespaces: string[];
  logLevel: string;
  /** Keep REST answers and GraphQL results per data version (RESPONSE_CACHE, default true). */
  responseCache: boolean;
  /** Origins whose pages may call the APIs from a browser (CORS_ORIGINS): any ('*'), or these. */
  corsOrigins: '*' | string[];
  /** Recurring events: how far ahead occurrences exist (RECURRENCE_HORIZON_DAYS, default 730, the
   *  original Pro's "24 months"), and at most how many one expansion of a series makes. */
  recurrence: { horizonDays: number; maxOccurrencesPerExpansion: number };
  /** The change log keeps each change this many days (CHANGES_RETENTION_DAYS, default 30): a sync
   *  cursor older than that expires, and feeds cancel events deleted within it. */
  changes: { retentionDays: number };
  /** Calendar sources on a schedule: the shortest refresh interval a source may have
   *  (SOURCE_MIN_REFRESH_SECONDS, default 300), and how often each process looks for due sources
   *  (SOURCE_CHECK_SECONDS, default 30). */
  sources: { minRefreshSeconds: number; checkSeconds: number };
  /** ActivityPub (src/federation): on when FEDERATION is on (the default) and SITE_URL names the
   *  public address; `handle` is the calendar actor's name (FEDERATION_HANDLE, default `events`);
   *  a series' occurrence is announced once it starts within `seriesDays` (FEDERATION_SERIES_DAYS,
   *  default 14); `iconUrl` is the actor's picture (FEDERATION_ICON_URL, default none);
   *  `requestsPerMinute` bounds each client address on the federation's paths, over all processes
   *  (FEDERATION_REQUESTS_PER_MINUTE, default 300). */
  federation: { enabled: boolean; handle: string; seriesDays: number; iconUrl: string | undefined; requestsPerMinute: number };
  graphql: { maxDepth: number; maxCost: number; maxAliases: number; maxTokens: number; maxBytes: number; maxBatch: number };
  tasks: {
    workers: number;
    chromiumPath: string;
    /** A Chromium to drive over CDP instead of launching one here (BROWSER_CDP_URL): Browserless, Steel, a grid. */
    cdpUrl: string | undefined;
    /** Where the URL policy's proxy listens (BROWSER_PROXY_HOST/PORT), and the address a remote browser
     *  reaches it by (BROWSER_PROXY_URL, by default the one it listens on). */
    proxyHost: string;
    proxyPort: number;
    proxyUrl: string | undefined;
    llmBaseUrl: string | undefined;
    llmApiKey: string | undefined;
    llmModel: string;
    llmTimeoutMs: number;
    maxSteps: number;
    runTimeoutMs: number;
    toolInputTimeoutMs: number;
    allowPrivateNetwork: boolean;
    /** Hosts (`host` or `host:port`) the browser may open even though they are private addresses. */
    allowedHosts: string[];
    actionTimeoutMs: number;
    maxConsecutiveFailures: number;
    maxRepeatedActions: number;
    pollMs: number;
    /** How often each process looks for scheduled runs that are due (TASK_SCHEDULE_CHECK_MS). */
    scheduleCheckMs: number;
    heartbeatMs: number;
    /** A running run whose heartbeat is older than this is taken back from its (dead) worker. */
    staleAfterMs: number;
    /** How many times such a run is resumed before it is ended `interrupted`. */
    maxResumes: number;
    /** Requests per minute per API key on /api/v1. */
    apiRateLimit: number;
    /** Runs a user may have scheduled or running at once, and start per 24 hours (0: no limit). */
    maxActiveRuns: number;
    maxRunsPerDay: number;
    /** USD per million input and output tokens, per model name (LLM_PRICES): what runs cost. */
    llmPrices: Record<string, ModelPrice>;
    /** Tokens the runs of one API key's tasks may use per UTC day (0: no limit). */
    dailyTokensPerKey: number;
    /** Whether observations carry a screenshot for the model (LLM_VISION, resolved for LLM_MODEL). */
    vision: boolean;
    /** Bytes of all of a task's `files` together (TASK_MAX_UPLOAD_BYTES). */
    maxUploadBytes: number;
    /** Files a run keeps of what its browser downloads, and the bytes of each (TASK_MAX_DOWNLOADS, TASK_MAX_DOWNLOAD_BYTES). */
    maxDownloads: number;
    maxDownloadBytes: number;
    /** Bytes of a run's Playwright trace kept (TASK_MAX_TRACE_BYTES; 0: no traces). */
    maxTraceBytes: number;
  };
}

/** A model's price in USD per million tokens, read (prompt) and written (completion). */
export interface ModelPrice {
  input: number;
  output: number;
}

export class ConfigError extends Error {}

/** CORS_ORIGINS: `*` (the default), `none`, or comma-separated origins such as https://app.example. */
function corsOrigins(raw: string | undefined): '*' | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === '*') return '*';
  if (value === 'none') return [];
  return value.split(',').map((entry) => {
    const origin = entry.trim().replace(/\/+$/, '');
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      // reported below
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(`CORS_ORIGINS must be *, none, or origins such as https://app.example (got "${entry.trim()}")`);
    }
    return origin;
  });
}

type Env = Record<string, string | undefined>;

const PRICES_RULE = 'LLM_PRICES must be a JSON object such as {"gpt-4o-mini": {"input": 0.15, "output": 0.6}} (USD per 1M tokens)';

/** LLM_PRICES: {model: {input, output}}, each a non-negative number of USD per million tokens. */
function llmPrices(raw: string | undefined): Record<string, ModelPrice> {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${PRICES_RULE}; it is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(PRICES_RULE);
  const prices: Record<string, ModelPrice> = {};
  const rate = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined);
  for (const [model, price] of Object.entries(parsed as Record<string, { input?: unknown; output?: unknown } | null>)) {
    const input = rate(price?.input);
    const output = rate(price?.output);
    if (input === undefined || output === undefined) throw new ConfigError(`${PRICES_RULE}; the entry of "${model}" is not`);
    prices[model] = { input, output };
  }
  return prices;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/** `value` without trailing slashes, when it is an absolute URL of one of `protocols`; else `${name} must be ${rule}`. */
function checkedUrl(name: string, value: string, protocols: string[], rule: string): string {
  const trimmed = value.replace(/\/+$/, '');
  let protocol: string | undefined;
  try {
    protocol = /^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(trimmed) ? new URL(trimmed).protocol : undefined;
  } catch {
    protocol = undefined;
  }
  if (!protocol || !protocols.includes(protocol)) throw new ConfigError(`${name} must be ${rule} (got "${trimmed}")`);
  return trimmed;
}

const optionalUrl = (env: Env, name: string, protocols: string[], rule: string): string | undefined =>
  env[name] ? checkedUrl(name, env[name], protocols, rule) : undefined;

const HTTP = ['http:', 'https:'];

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function validTimezone(zone: string): boolean {
  if (/^UTC([+-]\d{1,2}(:?\d{2})?)?$/.test(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 4000, 0, 65535);
  const databaseUrl = env.DATABASE_URL || 'file:./data/almanac.db';
  if (!databaseKind(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be file:<path> (SQLite) or postgresql://… (PostgreSQL)');
  }
  const siteUrl = checkedUrl('SITE_URL', env.SITE_URL || `http://localhost:${port}`, HTTP, 'an http(s) URL');
  const federationHandle = env.FEDERATION_HANDLE || 'events';
  if (!/^[a-z0-9_][a-z0-9_.-]{0,63}$/i.test(federationHandle)) {
    throw new ConfigError(`FEDERATION_HANDLE must be letters, digits, _ . - (at most 64; got "${federationHandle}")`);
  }
  // A fediverse identity is its address: without a public SITE_URL there is none to give.
  if (flag(env, 'FEDERATION', false) && !env.SITE_URL) throw new ConfigError('FEDERATION=on needs SITE_URL, the public address');
  const siteTimezone = env.SITE_TIMEZONE || 'UTC';
  if (!validTimezone(siteTimezone)) {
    throw new ConfigError(`SITE_TIMEZONE must be an IANA time zone such as Europe/Paris, or UTC±N (got "${siteTimezone}")`);
  }
  const restRoot = '/' + (env.REST_ROOT || 'wp-json').replace(/^\/+|\/+$/g, '');
  const aliases = (env.REST_NAMESPACE_ALIASES ?? 'tribe/events/v1')
    .split(',')
    .map((s) => s.trim().replace(/^\/+|\/+$/g, ''))
    .filter(Boolean);
  const adminKey = env.ALMANAC_ADMIN_KEY || undefined;
  if (adminKey !== undefined && adminKey.length < 16) {
    throw new ConfigError('ALMANAC_ADMIN_KEY must be at least 16 characters');
  }
  const secretKey = env.ALMANAC_SECRET_KEY || undefined;
  if (secretKey !== undefined && secretKey.length < 16) throw new ConfigError('ALMANAC_SECRET_KEY must be at least 16 characters');
  const llmBaseUrl = optionalUrl(env, 'LLM_BASE_URL', HTTP, 'an http(s) URL such as https://api.openai.com/v1');
  const vision = (env.LLM_VISION || 'auto').toLowerCase();
  if (vision !== 'auto' && vision !== 'on' && vision !== 'off')
    throw new ConfigError(`LLM_VISION must be auto, on or off (got "${vision}")`);
  const visionModels = env.LLM_VISION_MODELS
    ? env.LLM_VISION_MODELS.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : VISION_MODELS;
  const llmModel = env.LLM_MODEL || 'gpt-4o-mini';
  const heartbeatMs = integer(env, 'TASK_HEARTBEAT_MS', 2000, 10, 600_000);
  const staleAfterMs = integer(env, 'TASK_STALE_AFTER_MS', 30_000, 30, 3_600_000);
  if (staleAfterMs < 3 * heartbeatMs) {
    throw new ConfigError(`TASK_STALE_AFTER_MS must be at least 3 × TASK_HEARTBEAT_MS (${3 * heartbeatMs})`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    siteUrl,
    siteName: env.SITE_NAME?.trim() || 'Almanac',
    siteTimezone,
    feedRefreshMinutes: integer(env, 'FEED_REFRESH_MINUTES', 60, 1, 10_080),
    postsPerPage: integer(env, 'POSTS_PER_PAGE', 10, 1, 1000),
    adminKey,
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    secretKey,
    restRoot,
    restNamespaces: ['calendar/events/v1', ...aliases.filter((a) => a !== 'calendar/events/v1')],
    logLevel: env.LOG_LEVEL || 'info',
    responseCache: flag(env, 'RESPONSE_CACHE', true),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    recurrence: {
      horizonDays: integer(env, 'RECURRENCE_HORIZON_DAYS', 730, 1, 3650),
      maxOccurrencesPerExpansion: integer(env, 'RECURRENCE_MAX_OCCURRENCES_PER_EXPANSION', 1000, 10, 100_000),
    },
    changes: { retentionDays: integer(env, 'CHANGES_RETENTION_DAYS', 30, 1, 3650) },
    sources: {
      minRefreshSeconds: integer(env, 'SOURCE_MIN_REFRESH_SECONDS', 300, 1, 86_400),
      checkSeconds: integer(env, 'SOURCE_CHECK_SECONDS', 30, 1, 3600),
    },
    federation: {
      enabled: Boolean(env.SITE_URL) && flag(env, 'FEDERATION', true),
      handle: federationHandle,
      seriesDays: integer(env, 'FEDERATION_SERIES_DAYS', 14, 1, 365),
      iconUrl: optionalUrl(env, 'FEDERATION_ICON_URL', HTTP, 'an http(s) URL of an image'),
      requestsPerMinute: integer(env, 'FEDERATION_REQUESTS_PER_MINUTE', 300, 1, 1_000_000),
    },
    graphql: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 12, 2, 100),
      maxCost: integer(env, 'GRAPHQL_MAX_COST', 20000, 100, 10_000_000),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 60, 1, 1000),
      maxTokens: integer(env, 'GRAPHQL_MAX_TOKENS', 5000, 100, 1_000_000),
      maxBytes: integer(env, 'GRAPHQL_MAX_BYTES', 262_144, 1024, 104_857_600),
      maxBatch: integer(env, 'GRAPHQL_MAX_BATCH', 10, 1, 100),
    },
    tasks: {
      workers: integer(env, 'TASK_WORKERS', 2, 0, 64),
      chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
      cdpUrl: optionalUrl(env, 'BROWSER_CDP_URL', [...HTTP, 'ws:', 'wss:'], 'a URL such as http://browser.internal:9222 or ws://…'),
      proxyHost: env.BROWSER_PROXY_HOST || '127.0.0.1',
      proxyPort: integer(env, 'BROWSER_PROXY_PORT', 0, 0, 65535),
      proxyUrl: optionalUrl(env, 'BROWSER_PROXY_URL', ['http:'], 'a URL such as http://10.0.0.5:8899'),
      llmBaseUrl,
      llmApiKey: env.LLM_API_KEY || undefined,
      llmModel,
      llmTimeoutMs: integer(env, 'LLM_TIMEOUT_MS', 60_000, 100, 600_000),
      maxSteps: integer(env, 'TASK_MAX_STEPS', 30, 1, 500),
      runTimeoutMs: integer(env, 'TASK_RUN_TIMEOUT_MS', 600_000, 1000, 86_400_000),
      toolInputTimeoutMs: integer(env, 'TASK_TOOL_INPUT_TIMEOUT_MS', 1_800_000, 1000, 604_800_000),
      allowPrivateNetwork: flag(env, 'TASK_ALLOW_PRIVATE_NETWORK', false),
      allowedHosts: (env.TASK_ALLOWED_HOSTS ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
      actionTimeoutMs: integer(env, 'TASK_ACTION_TIMEOUT_MS', 15_000, 100, 600_000),
      maxConsecutiveFailures: integer(env, 'TASK_MAX_CONSECUTIVE_FAILURES', 3, 1, 100),
      maxRepeatedActions: integer(env, 'TASK_MAX_REPEATED_ACTIONS', 3, 2, 100),
      pollMs: integer(env, 'TASK_POLL_MS', 1000, 10, 60_000),
      scheduleCheckMs: integer(env, 'TASK_SCHEDULE_CHECK_MS', 10_000, 10, 60_000),
      heartbeatMs,
      staleAfterMs,
      maxResumes: integer(env, 'TASK_MAX_RESUMES', 1, 0, 100),
      apiRateLimit: integer(env, 'TASK_API_RATE_LIMIT', 600, 1, 1_000_000),
      maxActiveRuns: integer(env, 'TASK_MAX_ACTIVE_RUNS', 20, 0, 1_000_000),
      maxRunsPerDay: integer(env, 'TASK_MAX_RUNS_PER_DAY', 1000, 0, 10_000_000),
      llmPrices: llmPrices(env.LLM_PRICES),
      dailyTokensPerKey: integer(env, 'TASK_DAILY_TOKENS_PER_KEY', 0, 0, Number.MAX_SAFE_INTEGER),
      vision: visionEnabled(vision, llmModel, visionModels),
      maxUploadBytes: integer(env, 'TASK_MAX_UPLOAD_BYTES', 10 * 1024 * 1024, 0, 100 * 1024 * 1024),
      maxDownloads: integer(env, 'TASK_MAX_DOWNLOADS', 20, 0, 1000),
      maxDownloadBytes: integer(env, 'TASK_MAX_DOWNLOAD_BYTES', 25 * 1024 * 1024, 0, 500 * 1024 * 1024),
      maxTraceBytes: integer(env, 'TASK_MAX_TRACE_BYTES', 50 * 1024 * 1024, 0, 500 * 1024 * 1024),
    },
  };
}
