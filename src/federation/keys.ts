// The calendar actor's key pairs: made the first time they are needed and kept in the database, so
// every process (and every restart) signs with the same keys. Two processes making them at once
// both insert; the second insert fails on the key and that process reads the first one's pair.
import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { Prisma } from '../db/client.js';

/** RSA for draft-cavage HTTP Signatures (what Mastodon verifies); Ed25519 for object proofs (FEP-8b32). */
export const KEY_ALGORITHMS = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];

export interface ActorKeyPair {
  algorithm: KeyAlgorithm;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

async function loadOrMake(prisma: Prisma, algorithm: KeyAlgorithm): Promise<ActorKeyPair> {
  let row = await prisma.federationKey.findUnique({ where: { algorithm } });
  if (!row) {
    const pair = await generateCryptoKeyPair(algorithm);
    const data = {
      algorithm,
      privateJwk: JSON.stringify(await exportJwk(pair.privateKey)),
      publicJwk: JSON.stringify(await exportJwk(pair.publicKey)),
    };
    try {
      row = await prisma.federationKey.create({ data });
    } catch {
      row = await prisma.federationKey.findUniqueOrThrow({ where: { algorithm } });
    }
  }
  return {
    algorithm,
    privateKey: await importJwk(JSON.parse(row.privateJwk) as JsonWebKey, 'private'),
    publicKey: await importJwk(JSON.parse(row.publicJwk) as JsonWebKey, 'public'),
  };
}

/** The actor's key pairs (RSA first), read once per process. */
export function actorKeys(prisma: Prisma): () => Promise<ActorKeyPair[]> {
  let loading: Promise<ActorKeyPair[]> | undefined;
  return () => {
    loading ??= Promise.all(KEY_ALGORITHMS.map((algorithm) => loadOrMake(prisma, algorithm))).catch((error: unknown) => {
      loading = undefined; // a database fault now is not a reason to fail forever
      throw error;
    });
    return loading;
  };
}
