// Fedify's key–value store on Almanac's database (both engines): values round-trip as JSON, a
// prefix lists only its own keys, and an entry past its time-to-live is gone.
import { Temporal } from '@js-temporal/polyfill';
import { describe, expect, it } from 'vitest';
import { PrismaKvStore } from '../../src/federation/kv-store.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

describe.each(DATABASE_KINDS)("Fedify's store on %s", (kind) => {
  const api = useTestServer(kind, { FEDERATION: 'off' });

  it('keeps, lists by prefix, expires and deletes', async () => {
    const kv = new PrismaKvStore(api.server.db.prisma);
    await kv.set(['_fedify', 'remoteDocument', 'https://a.example/'], { id: 'a', n: [1, 2] });
    await kv.set(['_fedify', 'remoteDocument', 'https://b.example/'], 'b');
    await kv.set(['_fedify', 'remoteDocumentX'], 'not under the prefix');
    await kv.set(['_fedify', 'publicKey', 'k'], 'short-lived', { ttl: Temporal.Duration.from({ milliseconds: 1 }) });
    expect(await kv.get(['_fedify', 'remoteDocument', 'https://a.example/'])).toEqual({ id: 'a', n: [1, 2] });
    expect(await kv.get(['_fedify', 'nothing'])).toBeUndefined();
    const listed = [];
    for await (const entry of kv.list(['_fedify', 'remoteDocument'])) listed.push(entry.key.at(-1));
    expect(listed).toEqual(['https://a.example/', 'https://b.example/']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await kv.get(['_fedify', 'publicKey', 'k'])).toBeUndefined();
    await kv.set(['_fedify', 'remoteDocument', 'https://a.example/'], 'replaced');
    expect(await kv.get(['_fedify', 'remoteDocument', 'https://a.example/'])).toBe('replaced');
    await kv.delete(['_fedify', 'remoteDocument', 'https://a.example/']);
    expect(await kv.get(['_fedify', 'remoteDocument', 'https://a.example/'])).toBeUndefined();
  });
});
