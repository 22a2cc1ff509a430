// The outbound half of HTTP: every request Almanac makes goes through one URL policy (url-policy.ts)
// and connects only to the address that policy checked (guarded-request.ts); webhooks sign theirs
// (signed-post.ts). The inbound half, serving requests, is src/http.
// Which addresses Almanac may reach, for every outbound request it makes: the agent's browser (the
// navigate action asks first; the policy proxy asks again for every request the browser sends,
// each redirect hop included) and the server's own requests (image URLs: src/net/guarded-request.ts).
// Web schemes only, and no private, loopback, link-local or otherwise reserved address unless
// configured (TASK_ALLOW_PRIVATE_NETWORK, TASK_ALLOWED_HOSTS). Callers connect only to the address
// that was checked, so DNS cannot change the answer. The LLM endpoint is configuration, not input,
// and is exempt.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface UrlPolicyOptions {
  allowPrivateNetwork: boolean;
  /** `host` or `host:port` entries allowed even when private. */
  allowedHosts: string[];
}

export type Verdict = { allowed: true; address?: string } | { allowed: false; reason: string };

const RANGES: Array<[string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'a reserved'],
  ['10.0.0.0', 8, 'ipv4', 'a private'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local'],
  ['172.16.0.0', 12, 'ipv4', 'a private'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved'],
  ['192.168.0.0', 16, 'ipv4', 'a private'],
  ['198.18.0.0', 15, 'ipv4', 'a reserved'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved'],
  ['::', 128, 'ipv6', 'a reserved'],
  ['::1', 128, 'ipv6', 'a loopback'],
  ['fc00::', 7, 'ipv6', 'a private'],
  ['fe80::', 10, 'ipv6', 'a link-local'],
  ['ff00::', 8, 'ipv6', 'a multicast'],
];

const lists = RANGES.map(([network, prefix, family, kind]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, family, kind };
});

/** "a loopback" for 127.0.0.1, null for a public address. IPv4-mapped IPv6 counts as its IPv4. */
export function addressKind(address: string): string | null {
  let ip = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (mapped) {
    ip = mapped.length === 2 ? mapped[1] : hexPairToIpv4(mapped[1], mapped[2]);
  }
  const family = isIP(ip) === 4 ? 'ipv4' : isIP(ip) === 6 ? 'ipv6' : null;
  if (!family) return null;
  for (const entry of lists) if (entry.family === family && entry.list.check(ip, family)) return entry.kind;
  return null;
}

function hexPairToIpv4(high: string, low: string): string {
  const h = parseInt(high, 16);
  const l = parseInt(low, 16);
  return `${h >> 8}.${h & 255}.${l >> 8}.${l & 255}`;
}

export class UrlPolicy {
  constructor(private options: UrlPolicyOptions) {}

  /** Checks a URL; for http(s), resolves the host and names the address it may connect to. */
  async check(raw: string): Promise<Verdict> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { allowed: false, reason: `"${raw}" is not a valid URL` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { allowed: false, reason: `the ${url.protocol} scheme is not allowed (only http and https)` };
    }
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return this.checkHost(url.hostname, port);
  }

  /** Checks a host and port (as a proxy sees them) and resolves the address to connect to. */
  async checkHost(rawHost: string, port: string): Promise<Verdict> {
    const host = rawHost.replace(/^\[|\]$/g, '').toLowerCase();
    const exempt =
      this.options.allowPrivateNetwork || this.options.allowedHosts.includes(host) || this.options.allowedHosts.includes(`${host}:${port}`);
    if (isIP(host)) {
      const kind = addressKind(host);
      if (kind && !exempt) return { allowed: false, reason: this.denial(host, kind) };
      return { allowed: true, address: host };
    }
    if (!exempt && (host === 'localhost' || host.endsWith('.localhost'))) {
      return { allowed: false, reason: this.denial(host, 'a loopback') };
    }
    let addresses: Array<{ address: string }>;
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      // Unresolvable: nothing private can be reached through it; the browser reports the failure.
      return { allowed: true };
    }
    if (!exempt) {
      for (const { address } of addresses) {
        const kind = addressKind(address);
        if (kind) return { allowed: false, reason: this.denial(`${host} (${address})`, kind) };
      }
    }
    return { allowed: true, address: addresses[0]?.address };
  }

  private denial(what: string, kind: string): string {
    return `${what} is ${kind} address; Almanac may not reach private-network addresses (set TASK_ALLOW_PRIVATE_NETWORK or TASK_ALLOWED_HOSTS to allow)`;
  }
}

const policies = new WeakMap<object, UrlPolicy>();
/** The one policy of a configuration (built once per config object). */
export function outboundPolicy(config: { tasks: UrlPolicyOptions }): UrlPolicy {
  let policy = policies.get(config);
  if (!policy) {
    policy = new UrlPolicy({ allowPrivateNetwork: config.tasks.allowPrivateNetwork, allowedHosts: config.tasks.allowedHosts });
    policies.set(config, policy);
  }
  return policy;
}
