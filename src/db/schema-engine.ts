// Prisma's migrations, driven through @prisma/schema-engine-wasm: the CLI's native engine cannot be
// downloaded on our machines (see ../shared/notes/prisma-offline.md). This module works around the
// engine's quirks so callers only see `withSchemaEngine(url, datamodel, fn)`.
import './node-runtime.js';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import { databaseKind, sqliteFile } from './url.js';

const require = createRequire(import.meta.url);
let engineClass: Promise<typeof SchemaEngine> | undefined;

/**
 * Instantiate the bindings by hand, once: Node 20 could not import the package's .wasm entry, Node 24
 * imports it only with an ExperimentalWarning, and either way the engine's timers must be wrapped.
 */
function loadEngineClass(): Promise<typeof SchemaEngine> {
  engineClass ??= (async () => {
    const bindingsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wasm-bindgen module's exports, untyped by the package
    const bindings: Record<string, any> = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same bindings, passed to the wasm instance as its imports
    const imports: Record<string, any> = {};
    for (const [name, value] of Object.entries(bindings)) {
      // The engine sets timers it never clears; unref them so a migrate command can exit.
      imports[name] = name.startsWith('__wbg_setTimeout_')
        ? (...args: unknown[]) => {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a binding's return: a Node timer here
            const timer = (value as (...a: unknown[]) => any)(...args);
            timer?.unref?.();
            return timer;
          }
        : value;
    }
    const bytes = await readFile(join(dirname(bindingsPath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': imports });
    bindings.__wbg_set_wasm(instance.exports);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the instance's exports are typed only as WebAssembly.Exports
    (instance.exports as any).__wbindgen_start?.();
    return bindings.SchemaEngine as typeof SchemaEngine;
  })();
  return engineClass;
}

function adapterFactory(url: string) {
  const kind = databaseKind(url);
  if (kind === 'sqlite') return new PrismaBetterSqlite3({ url: sqliteFile(url), timeout: 10_000 });
  if (kind === 'postgresql') return new PrismaPg({ connectionString: url, allowExitOnIdle: true });
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got "${url.split(':')[0]}:")`);
}

/**
 * Runs `fn` with a schema engine connected to `url`, then frees it and closes every connection it
 * opened (engine.free() leaves them open: SQLite would stay locked, pg would keep Node alive).
 */
export async function withSchemaEngine<T>(
  url: string,
  datamodel: { path: string; content: string },
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const Engine = await loadEngineClass();
  const factory = adapterFactory(url);
  const opened: { dispose(): Promise<void> }[] = [];
  const tracking = Object.assign(Object.create(Object.getPrototypeOf(factory)), factory, {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => remember(await factory.connect()),
    connectToShadowDb: async () => remember(await factory.connectToShadowDb()),
  });
  function remember<A extends { dispose(): Promise<void> }>(adapter: A): A {
    opened.push(adapter);
    return adapter;
  }
  const logs: string[] = [];
  const engine = await Engine.new(
    { datamodels: [[datamodel.path, datamodel.content]] },
    (line: string) => logs.push(line),
    bindMigrationAwareSqlAdapterFactory(tracking),
  );
  try {
    return await fn(engine);
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { engineLogs: logs });
  } finally {
    engine.free();
    await Promise.allSettled(opened.map((adapter) => adapter.dispose()));
  }
}
