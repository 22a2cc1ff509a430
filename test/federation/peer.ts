// A small fediverse peer for the federation tests, written without Fedify: node:http serves its
// actor and inbox, node:crypto signs what it sends (draft-cavage HTTP Signatures, as Mastodon
// does), and Misskey's @misskey-dev/node-http-message-signatures verifies what it receives, an
// implementation independent of the one Almanac signs with.
import { createHash, createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRequestSignature, verifyDigestHeader, verifyDraftSignature } from '@misskey-dev/node-http-message-signatures';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  activity: any;
  /** Whether the signature (and digest) checked out against the key named, fetched from its actor. */
  verified: boolean;
  signatureKeyId: string | undefined;
}

export interface Peer {
  url: string;
  host: string;
  actorId: string;
  keyId: string;
  received: Received[];
  /** While true the inbox answers 503 (a server that is down) and keeps nothing. */
  failing: boolean;
  /** Signed POST of `activity` to `url` (draft-cavage, rsa-sha256, like Mastodon). */
  post(
    url: string,
    activity: unknown,
    options?: { sign?: 'right' | 'wrong' | 'none' | 'rfc9421' | 'rfc9421-wrong'; keyId?: string; body?: string },
  ): Promise<Response>;
  waitFor(predicate: (r: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

/** Fetches the signer's actor (by its key id) and returns its public key PEM. */
async function keyOf(keyId: string): Promise<string | undefined> {
  const response = await fetch(keyId.replace(/#.*$/, ''), { headers: { accept: 'application/activity+json' } });
  const actor = (await response.json()) as any;
  return actor.publicKey?.id === keyId ? actor.publicKey.publicKeyPem : undefined;
}

async function verify(request: IncomingMessage, body: string): Promise<{ verified: boolean; keyId?: string }> {
  if ((await verifyDigestHeader(request as any, body, true)) !== true) return { verified: false };
  const parsed = parseRequestSignature(request as any);
  if (!parsed || parsed.version !== 'draft') return { verified: false };
  const pem = await keyOf(parsed.value.keyId);
  if (!pem) return { verified: false, keyId: parsed.value.keyId };
  return { verified: (await verifyDraftSignature(parsed.value, pem)) === true, keyId: parsed.value.keyId };
}

/** RFC 9421 HTTP Message Signature headers (rsa-v1_5-sha256) over method, target URI and Content-Digest. */
function rfc9421Headers(url: string, body: string, keyId: string, key: KeyObject): Record<string, string> {
  const contentDigest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
  const params = `("@method" "@target-uri" "content-digest");created=${Math.floor(Date.now() / 1000)};keyid="${keyId}";alg="rsa-v1_5-sha256"`;
  const base = `"@method": POST\n"@target-uri": ${url}\n"content-digest": ${contentDigest}\n"@signature-params": ${params}`;
  const signature = createSign('sha256').update(base).sign(key, 'base64');
  return { 'content-digest': contentDigest, 'signature-input': `sig1=${params}`, signature: `sig1=:${signature}:` };
}

export async function startPeer(options: { name?: string; sharedInbox?: boolean } = {}): Promise<Peer> {
  const name = options.name ?? 'alice';
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  let base = '';
  const control = { failing: false };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '/';
    if (request.method === 'GET' && path === `/users/${name}`) {
      response.writeHead(200, { 'content-type': 'application/activity+json' });
      response.end(
        JSON.stringify({
          '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
          id: `${base}/users/${name}`,
          type: 'Person',
          preferredUsername: name,
          inbox: `${base}/users/${name}/inbox`,
          outbox: `${base}/users/${name}/outbox`,
          ...(options.sharedInbox === false ? {} : { endpoints: { sharedInbox: `${base}/inbox` } }),
          publicKey: { id: `${base}/users/${name}#main-key`, owner: `${base}/users/${name}`, publicKeyPem },
        }),
      );
      return;
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && path === '/banner.png') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': '8' });
      response.end(request.method === 'GET' ? Buffer.from('89504e470d0a1a0a', 'hex') : undefined);
      return;
    }
    if (request.method === 'POST' && control.failing) {
      response.writeHead(503).end();
      return;
    }
    if (request.method === 'POST') {
      const check = await verify(request, body).catch(() => ({ verified: false, keyId: undefined }));
      let activity: any;
      try {
        activity = JSON.parse(body);
      } catch {
        activity = undefined;
      }
      received.push({ path, headers: request.headers, body, activity, verified: check.verified, signatureKeyId: check.keyId });
      for (const wake of waiters.splice(0)) wake();
      response.writeHead(202).end();
      return;
    }
    response.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  const actorId = `${base}/users/${name}`;
  const keyId = `${actorId}#main-key`;

  return {
    get failing() {
      return control.failing;
    },
    set failing(value: boolean) {
      control.failing = value;
    },
    url: base,
    host: `127.0.0.1:${port}`,
    actorId,
    keyId,
    received,
    async post(url, activity, { sign = 'right', keyId: signedKeyId = keyId, body = JSON.stringify(activity) } = {}) {
      const target = new URL(url);
      const date = new Date().toUTCString();
      const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
      const headers: Record<string, string> = { 'content-type': 'application/activity+json', date, digest };
      if (sign.startsWith('rfc9421'))
        Object.assign(headers, rfc9421Headers(url, body, signedKeyId, sign === 'rfc9421' ? privateKey : otherKey));
      else if (sign !== 'none') {
        const signed = `(request-target): post ${target.pathname}\nhost: ${target.host}\ndate: ${date}\ndigest: ${digest}`;
        const signature = createSign('sha256')
          .update(signed)
          .sign(sign === 'right' ? privateKey : otherKey, 'base64');
        headers.signature = `keyId="${signedKeyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`;
      }
      return fetch(url, { method: 'POST', headers, body });
    },
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`the peer received no such activity; it has: ${received.map((r) => r.activity?.type).join(', ')}`);
        await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), new Promise((resolve) => setTimeout(resolve, 200))]);
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const newId = (peer: Peer) => `${peer.url}/activities/${randomUUID()}`;

/** An activity of the peer's actor: `{type, actor, object}` with a fresh id. */
export const activityOf = (peer: Peer, type: string, object: unknown) => ({
  '@context': 'https://www.w3.org/ns/activitystreams',
  id: newId(peer),
  type,
  actor: peer.actorId,
  object,
});
