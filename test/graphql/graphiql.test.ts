// GraphiQL in Debian's Chromium: a small page whose stylesheet and scripts come from Almanac as
// compressed, content-named files cached for a year; it renders, sends the key from its Headers tab
// and runs a query; nothing is fetched from another host. Screenshot in test-artifacts/graphiql/.
import { describe, expect, it } from 'vitest';
import { useChromium } from '../support/browser.js';
import { useTestServer } from '../support/server.js';

const ARTIFACTS = 'test-artifacts/graphiql';

describe('GraphiQL', () => {
  const api = useTestServer('sqlite');
  const chromium = useChromium(ARTIFACTS);

  it('is a small page with compressed, immutable asset files', async () => {
    const page = await api.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text.length).toBeLessThan(20_000);
    const files = [...page.text.matchAll(/(?:src|href)="(\/graphiql\/[0-9a-f]{20}\.(?:js|css|ico))"/g)].map((m) => m[1]);
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(1);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    let plain = 0;
    let sent = 0;
    for (const file of files) {
      const response = await fetch(api.url + file, { headers: { 'accept-encoding': 'br' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-encoding')).toBe('br');
      sent += Number(response.headers.get('content-length'));
      plain += (await response.arrayBuffer()).byteLength; // fetch decodes
    }
    expect(plain).toBeGreaterThan(5_000_000);
    expect(sent).toBeLessThan(plain / 3);
    expect((await fetch(`${api.url}/graphiql/0123456789abcdef0123.js`)).status).toBe(404);
  });

  it('renders in Chromium from Almanac alone and runs a query with the key from its Headers tab', async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const hosts = new Set<string>();
    page.on('request', (request) => {
      if (!request.url().startsWith('data:') && !request.url().startsWith('blob:')) hosts.add(new URL(request.url()).host);
    });
    await page.goto(`${api.url}/graphql?query=${encodeURIComponent('{ apiKeys { label } }')}`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 60_000 });
    expect([...hosts]).toEqual([new URL(api.url).host]);
    // The key goes in the Headers tab as JSON, as the README says.
    await page.getByText('Headers', { exact: true }).click();
    const headersEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    await headersEditor.click();
    await page.keyboard.type(`{"x-api-key": "${api.keys.administrator}"}`);
    const answer = page.waitForResponse(
      (response) =>
        response.url().endsWith('/graphql') &&
        response.request().method() === 'POST' &&
        (response.request().postData() ?? '').includes('apiKeys'),
    );
    await page.locator('.graphiql-execute-button').click();
    const response = await answer;
    expect(response.request().headers()['x-api-key']).toBe(api.keys.administrator);
    expect((await response.json()).data.apiKeys).toContainEqual({ label: 'ALMANAC_ADMIN_KEY' });
    await page.screenshot({ path: `${ARTIFACTS}/query.png` });
    await context.close();
  });
});
