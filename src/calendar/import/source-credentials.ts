// A calendar source's credentials (request headers such as an Authorization): sealed with
// ALMANAC_SECRET_KEY at rest, opened only by the run that sends them, never returned by an API.
import type { Config } from '../../config.js';
import { openText, sealText } from '../../tasks/secrets.js';
import { ImportError } from './errors.js';

const PURPOSE = 'almanac source credentials';

export function sealHeaders(headers: Record<string, string>, secretKey: string): string {
  return sealText(JSON.stringify(headers), secretKey, PURPOSE);
}

/** The request headers a run sends ({} when the source has none). */
export function sourceHeaders(row: { credentials: string }, config: Config): Record<string, string> {
  if (!row.credentials) return {};
  if (!config.secretKey) throw new ImportError('source_unavailable', "the source's credentials need ALMANAC_SECRET_KEY, which is not set");
  try {
    return JSON.parse(openText(row.credentials, config.secretKey, PURPOSE)) as Record<string, string>;
  } catch {
    throw new ImportError('source_unavailable', "the source's credentials cannot be opened (ALMANAC_SECRET_KEY changed?): save them again");
  }
}
