// A task's secrets: values the agent types without ever seeing them. The model is told the names and
// writes `<secret:NAME>` (or `<totp:NAME>` for the current one-time code of a TOTP key); the
// placeholder becomes the value only as the text is typed into the page, and every value (and every
// code produced) is masked back into its placeholder in whatever the run records or shows.
// Stored encrypted (AES-256-GCM, key from ALMANAC_SECRET_KEY), never returned by an API.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { invalid, TaskError } from './errors.js';
import { isPlainObject } from '../values.js';

export const MAX_SECRETS = 20;
export const MAX_SECRET_LENGTH = 1000;
/** Shorter values could not be masked without masking ordinary text. */
export const MIN_SECRET_LENGTH = 4;
const NAME_RULE = /^[A-Za-z0-9_-]{1,64}$/;

/** A plain value, or the base32 key of a TOTP generator (RFC 6238: HMAC-SHA1, 30 s, 6 digits). */
export type TaskSecret = { value: string } | { totp: string };
export type TaskSecrets = Record<string, TaskSecret>;

/** Create's `secrets`: `{name: "value"}` or `{name: {totp: "BASE32"}}`; null when absent or empty. */
export function validateSecrets(input: unknown): TaskSecrets | null {
  if (input === undefined || input === null) return null;
  if (!isPlainObject(input)) throw invalid('secrets', 'must be an object mapping names to values or {totp: "BASE32"}');
  const entries = Object.entries(input);
  if (entries.length > MAX_SECRETS) throw invalid('secrets', `must have at most ${MAX_SECRETS} entries (got ${entries.length})`);
  const secrets: TaskSecrets = {};
  for (const [name, secret] of entries) {
    const at = `secrets.${name}`;
    if (!NAME_RULE.test(name))
      throw invalid('secrets', `names must match ^[A-Za-z0-9_-]{1,64}$ (got ${JSON.stringify(name.slice(0, 80))})`);
    if (typeof secret === 'string') {
      if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH)
        throw invalid(at, `must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters long`);
      secrets[name] = { value: secret };
    } else if (isPlainObject(secret) && Object.keys(secret).length === 1 && typeof secret.totp === 'string') {
      const key = secret.totp.replace(/[\s-]/g, '').toUpperCase().replace(/=+$/, '');
      const bytes = decodeBase32(key);
      if (!bytes || bytes.length < 10 || bytes.length > 128)
        throw invalid(`${at}.totp`, 'must be a base32 key (A-Z, 2-7) of 10 to 128 bytes, as shown beside a TOTP QR code');
      secrets[name] = { totp: key };
    } else {
      throw invalid(at, 'must be a string, or {totp: "BASE32"} for a one-time-code generator');
    }
  }
  return entries.length ? secrets : null;
}

/**
 * Create's check for what is stored sealed (`secrets`, a browser `profile`): refused (400, naming the
 * field) on a server without ALMANAC_SECRET_KEY, rather than stored readable.
 */
export function requireSecretKey(secretKey: string | undefined, field: string, what: string): void {
  if (!secretKey)
    throw new TaskError('invalid', `${what} need the server to have ALMANAC_SECRET_KEY set (they are stored encrypted with it)`, field);
}

/** RFC 4648 base32 without padding; null when a character is not in its alphabet. */
export function decodeBase32(text: string): Buffer | null {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    const index = alphabet.indexOf(char);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The RFC 6238 code of `key` at `timeMs` (HMAC-SHA1, 30 s steps from the epoch). */
export function totpCode(key: Buffer, timeMs: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 1000 / 30)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1] & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/**
 * `v1.<iv>.<tag>.<ciphertext>` (base64url): `text` encrypted with AES-256-GCM under a key derived from
 * ALMANAC_SECRET_KEY and `purpose`, so that a value sealed for one use cannot be opened as another.
 */
export function sealText(text: string, secretKey: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(secretKey, purpose), iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The text sealText sealed; throws when the key or purpose differs or the bytes were altered. */
export function openText(sealed: string, secretKey: string, purpose: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1') throw new Error(`${purpose}: stored in an unknown format`);
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(secretKey, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

const cipherKey = (secretKey: string, purpose: string) => createHash('sha256').update(`${purpose}\0${secretKey}`).digest();

const SECRETS_PURPOSE = 'almanac task secrets';

export function sealSecrets(secrets: TaskSecrets, secretKey: string): string {
  return sealText(JSON.stringify(secrets), secretKey, SECRETS_PURPOSE);
}

export function openSecrets(sealed: string, secretKey: string): TaskSecrets {
  return JSON.parse(openText(sealed, secretKey, SECRETS_PURPOSE)) as TaskSecrets;
}

const PLACEHOLDER = /<(secret|totp):([A-Za-z0-9_-]{1,64})>/g;

/** A run's secrets: placeholders in, values out as typed, values masked back in all it records. */
export class SecretVault {
  /** Values to mask, longest first (a value containing another is masked whole). */
  private masks: Array<[string, string]> = [];

  constructor(
    private secrets: TaskSecrets,
    private now: () => number = Date.now,
  ) {
    for (const [name, secret] of Object.entries(secrets)) {
      const placeholder = 'value' in secret ? `<secret:${name}>` : `<totp:${name}>`;
      const value = 'value' in secret ? secret.value : secret.totp;
      this.masks.push([value, placeholder]);
      // Inside stored JSON a value with quotes or backslashes stands escaped.
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) this.masks.push([escaped, placeholder]);
    }
    this.sortMasks();
  }

  get names(): string[] {
    return Object.keys(this.secrets);
  }

  /** What the model is told about the secrets. */
  describe(): string {
    const lines = Object.entries(this.secrets).map(([name, secret]) =>
      'value' in secret ? `<secret:${name}>` : `<totp:${name}> (the current one-time code)`,
    );
    return `Secrets you can type without seeing them (write the placeholder as the text of type; it is replaced as it is typed): ${lines.join(', ')}. Never put them in other actions or in your answer.`;
  }

  /** The placeholders of the text that reveal cannot fill: no secret of that name and kind. */
  unfilled(text: string): string[] {
    const fills = ([, kind, name]: RegExpMatchArray) =>
      Object.hasOwn(this.secrets, name) && (kind === 'secret' ? 'value' : 'totp') in this.secrets[name];
    return [...text.matchAll(PLACEHOLDER)].filter((match) => !fills(match)).map(([whole]) => whole);
  }

  /** The text with each placeholder replaced by its value (a TOTP code computed now); unknown ones stay. */
  reveal(text: string): string {
    return text.replace(PLACEHOLDER, (whole, kind: string, name: string) => {
      const secret = this.secrets[name];
      if (!secret) return whole;
      if (kind === 'secret' && 'value' in secret) return secret.value;
      if (kind === 'totp' && 'totp' in secret) {
        const code = totpCode(decodeBase32(secret.totp)!, this.now());
        this.remember(code, whole);
        return code;
      }
      return whole;
    });
  }

  /** The text with every secret value (and every code typed) replaced by its placeholder. */
  mask(text: string): string {
    let masked = text;
    for (const [value, placeholder] of this.masks) if (masked.includes(value)) masked = masked.split(value).join(placeholder);
    return masked;
  }

  private remember(code: string, placeholder: string): void {
    if (this.masks.some(([value]) => value === code)) return;
    this.masks.push([code, placeholder]);
    this.sortMasks();
  }

  private sortMasks(): void {
    this.masks.sort((a, b) => b[0].length - a[0].length);
  }
}

/** A vault that masks nothing, for tasks without secrets. */
export const NO_SECRETS = new SecretVault({});
