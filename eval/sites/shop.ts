// A shop with a search box: /shop/ has the form, /shop/search?q=… lists the products whose name has
// every word of the query (in catalogue order, not by price), each with its price. Every search is
// recorded so a checker can tell whether the search box was used.
import { escapeHtml, html, notFound, page, type SiteRequest, type SiteResponse } from './html.js';

export interface Product {
  name: string;
  price: number;
}

export const CATALOGUE: Product[] = [
  { name: 'Aurora Wireless Headphones', price: 89.0 },
  { name: 'Wired Studio Headphones', price: 24.5 },
  { name: 'Pulse Wireless Headphones Mini', price: 41.9 },
  { name: 'Headphone Stand', price: 12.0 },
  { name: 'Nimbus Wireless Headphones Pro', price: 149.0 },
  { name: 'Wireless Mouse', price: 19.99 },
  { name: 'Echo Wireless Headphones', price: 37.25 },
  { name: 'Bluetooth Speaker', price: 29.0 },
];

const words = (s: string) => s.toLowerCase().split(/\W+/).filter(Boolean);

/** The products whose name holds every word of the query. */
export function searchCatalogue(query: string): Product[] {
  const wanted = words(query);
  return CATALOGUE.filter((p) => wanted.length > 0 && wanted.every((w) => words(p.name).includes(w)));
}

export const euros = (n: number) => `€${n.toFixed(2)}`;

export function createShop() {
  const searches: string[] = [];
  return {
    /** The queries searched, in order. */
    searches,
    handle(req: SiteRequest): SiteResponse {
      if (req.url.pathname === '/shop/') {
        return html(
          page(
            'Gadget Shop',
            `<h1>Gadget Shop</h1><form action="/shop/search" method="get" role="search">
              <label for="q">Search products</label><input id="q" name="q" type="search" placeholder="Search products">
              <button type="submit">Search</button></form><p>Free delivery on every order.</p>`,
          ),
        );
      }
      if (req.url.pathname === '/shop/search') {
        const query = req.url.searchParams.get('q') ?? '';
        searches.push(query);
        const found = searchCatalogue(query);
        const list = found.length
          ? `<ul class="results">${found.map((p) => `<li>${escapeHtml(p.name)} <span class="price">${euros(p.price)}</span></li>`).join('')}</ul>`
          : '<p>No products match.</p>';
        return html(
          page(
            `Search: ${query}`,
            `<h1>Results for “${escapeHtml(query)}”</h1><p>${found.length} products</p>${list}<p><a href="/shop/">New search</a></p>`,
          ),
        );
      }
      return notFound();
    },
  };
}
