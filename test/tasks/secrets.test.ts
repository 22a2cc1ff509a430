// Task secrets as units: RFC 6238 TOTP against the RFC's test vectors, base32, the vault's
// substitution and masking, encryption at rest, and create's validation rules.
import { describe, expect, it } from 'vitest';
import { decodeBase32, openSecrets, sealSecrets, SecretVault, totpCode, validateSecrets } from '../../src/tasks/secrets.js';

// RFC 6238 appendix B: the SHA-1 key is the ASCII "12345678901234567890".
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');
const RFC_KEY_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s gives %s (8 digits), and its last 6 digits with 6', (seconds, code) => {
    expect(totpCode(RFC_KEY, seconds * 1000, 8)).toBe(code);
    expect(totpCode(RFC_KEY, seconds * 1000)).toBe(code.slice(2));
  });

  it('reads base32 keys', () => {
    expect(decodeBase32(RFC_KEY_BASE32)).toEqual(RFC_KEY);
    expect(decodeBase32('MZXW6YTBOI')?.toString()).toBe('foobar');
    expect(decodeBase32('NOT-BASE32!')).toBeNull();
  });
});

describe('secret vault', () => {
  const at = Date.UTC(2026, 0, 1, 12, 0, 0);
  const vault = new SecretVault({ password: { value: 'hunter2-"quoted"' }, otp: { totp: RFC_KEY_BASE32 } }, () => at);

  it('replaces placeholders as typed and masks values and the codes it produced', () => {
    const code = totpCode(RFC_KEY, at);
    expect(vault.reveal('<secret:password>')).toBe('hunter2-"quoted"');
    expect(vault.reveal('code <totp:otp>!')).toBe(`code ${code}!`);
    expect(vault.reveal('<secret:nope> <totp:password>')).toBe('<secret:nope> <totp:password>');
    expect(vault.mask(`pw hunter2-"quoted" code ${code} key ${RFC_KEY_BASE32}`)).toBe(
      'pw <secret:password> code <totp:otp> key <totp:otp>',
    );
    // Inside JSON the value is escaped; it is masked there too.
    expect(vault.mask(JSON.stringify({ typed: 'hunter2-"quoted"' }))).toBe('{"typed":"<secret:password>"}');
    expect(vault.describe()).toContain('<secret:password>, <totp:otp> (the current one-time code)');
  });

  it('seals with AES-GCM: the stored text holds no value, and another key cannot open it', () => {
    const secrets = { password: { value: 'hunter2-secret' } };
    const sealed = sealSecrets(secrets, 'a-key-of-sixteen-chars');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('hunter2');
    expect(openSecrets(sealed, 'a-key-of-sixteen-chars')).toEqual(secrets);
    expect(() => openSecrets(sealed, 'another-key-of-sixteen')).toThrow();
  });
});

describe('create secrets validation', () => {
  it('takes values and TOTP keys (normalised), and none as null', () => {
    expect(validateSecrets({ a: 'abcd', b: { totp: 'gezd gnbv gy3t qojq gezd gnbv gy3t qojq==' } })).toEqual({
      a: { value: 'abcd' },
      b: { totp: RFC_KEY_BASE32 },
    });
    expect(validateSecrets(undefined)).toBeNull();
    expect(validateSecrets({})).toBeNull();
  });

  it.each([
    [[], 'secrets must be an object mapping names to values or {totp: "BASE32"}'],
    [{ 'bad name': 'abcd' }, 'secrets names must match ^[A-Za-z0-9_-]{1,64}$ (got "bad name")'],
    [{ a: 'abc' }, 'secrets.a must be 4 to 1000 characters long'],
    [{ a: 'x'.repeat(1001) }, 'secrets.a must be 4 to 1000 characters long'],
    [{ a: 5 }, 'secrets.a must be a string, or {totp: "BASE32"} for a one-time-code generator'],
    [{ a: { totp: 'AB1' } }, 'secrets.a.totp must be a base32 key (A-Z, 2-7) of 10 to 128 bytes, as shown beside a TOTP QR code'],
    [{ a: { totp: 'MZXW6YTBOI' } }, 'secrets.a.totp must be a base32 key (A-Z, 2-7) of 10 to 128 bytes, as shown beside a TOTP QR code'],
    [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`s${i}`, 'abcd'])), 'secrets must have at most 20 entries (got 21)'],
  ])('refuses %j', (input, message) => {
    expect(() => validateSecrets(input)).toThrow(message);
  });
});
