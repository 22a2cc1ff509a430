// A minimal per-request batch loader: every `load(key)` made while a GraphQL response is being
// resolved is answered by one `fetch(keys)` call, so a list of 50 rows costs one statement, not 50.
import type { GraphQLContext } from './context.js';

export class BatchLoader<K, V> {
  private readonly results = new Map<K, Promise<V>>();
  private queue: Array<{ key: K; resolve: (value: V) => void; reject: (error: unknown) => void }> = [];

  constructor(
    private readonly fetch: (keys: K[]) => Promise<Map<K, V>>,
    private readonly missing: V,
  ) {}

  load(key: K): Promise<V> {
    let result = this.results.get(key);
    if (!result) {
      result = new Promise<V>((resolve, reject) => {
        if (!this.queue.length) setImmediate(() => this.flush()); // after the resolvers of this pass ran
        this.queue.push({ key, resolve, reject });
      });
      this.results.set(key, result);
    }
    return result;
  }

  /** Seeds a value known by other means (e.g. a record read just before it was deleted). */
  prime(key: K, value: V): void {
    this.results.set(key, Promise.resolve(value));
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      const values = await this.fetch([...new Set(batch.map((entry) => entry.key))]);
      for (const entry of batch) entry.resolve(values.get(entry.key) ?? this.missing);
    } catch (error) {
      for (const entry of batch) {
        this.results.delete(entry.key);
        entry.reject(error);
      }
    }
  }
}

/** The request's loader under `name`, created on first use. */
export function requestLoader<K, V>(ctx: GraphQLContext, name: string, create: () => BatchLoader<K, V>): BatchLoader<K, V> {
  let loader = ctx.cache.get(name) as BatchLoader<K, V> | undefined;
  if (!loader) {
    loader = create();
    ctx.cache.set(name, loader);
  }
  return loader;
}
