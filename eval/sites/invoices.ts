// Downloads: /invoices/ lists a year's invoices, each a CSV sent as an attachment. Every invoice
// carries a reference made afresh for each start of the sites, so only the file downloaded from this
// start matches what the checker expects; the site logs each download.
import { createHash, randomInt } from 'node:crypto';
import { html, notFound, page, type SiteRequest, type SiteResponse } from './html.js';

export const INVOICE_MONTHS = ['August', 'September', 'October', 'November'];

export function createInvoices() {
  const invoices = new Map(
    INVOICE_MONTHS.map((month) => {
      const csv = `invoice,month,total\nINV-${randomInt(100_000, 1_000_000)},${month},${randomInt(100, 1000)}.00\n`;
      return [month.toLowerCase(), { name: `invoice-${month.toLowerCase()}.csv`, csv }];
    }),
  );
  const downloaded: string[] = [];
  return {
    /** The months whose invoice was downloaded, in order. */
    downloaded,
    /** SHA-256 (hex) of a month's invoice file. */
    sha256Of: (month: string) => createHash('sha256').update(invoices.get(month.toLowerCase())!.csv).digest('hex'),
    handle(req: SiteRequest): SiteResponse {
      if (req.url.pathname === '/invoices/')
        return html(
          page(
            'Invoices',
            '<h1>Invoices</h1><ul>' +
              INVOICE_MONTHS.map((m) => `<li><a href="/invoices/${m.toLowerCase()}.csv">Download the ${m} invoice</a></li>`).join('') +
              '</ul>',
          ),
        );
      const month = /^\/invoices\/(\w+)\.csv$/.exec(req.url.pathname)?.[1];
      const invoice = month && invoices.get(month);
      if (!invoice) return notFound();
      downloaded.push(month);
      return {
        status: 200,
        body: invoice.csv,
        headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="${invoice.name}"` },
      };
    },
  };
}
