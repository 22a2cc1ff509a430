// The federation's settings: off without a public address, one switch, checked names.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('federation settings', () => {
  it('is off without SITE_URL, on with it unless FEDERATION=off', () => {
    expect(loadConfig({}).federation.enabled).toBe(false);
    expect(loadConfig({ SITE_URL: 'https://calendar.example' }).federation).toEqual({
      enabled: true,
      handle: 'events',
      seriesDays: 14,
      iconUrl: undefined,
      requestsPerMinute: 300,
    });
    expect(loadConfig({ SITE_URL: 'https://calendar.example', FEDERATION: 'off' }).federation.enabled).toBe(false);
  });

  it('refuses FEDERATION=on without SITE_URL, and handles that are not names', () => {
    expect(() => loadConfig({ FEDERATION: 'on' })).toThrow(ConfigError);
    expect(() => loadConfig({ SITE_URL: 'https://calendar.example', FEDERATION_HANDLE: 'a b' })).toThrow(/FEDERATION_HANDLE/);
    expect(() => loadConfig({ SITE_URL: 'https://calendar.example', FEDERATION_SERIES_DAYS: '0' })).toThrow(/FEDERATION_SERIES_DAYS/);
    expect(loadConfig({ SITE_URL: 'https://c.example', FEDERATION_HANDLE: 'agenda' }).federation.handle).toBe('agenda');
  });
});
