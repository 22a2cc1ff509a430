// PHP's urldecode and urlencode (RFC 1738 form encoding), which WordPress and The Events Calendar
// apply to query strings and comma lists.

/** PHP urldecode: '+' is a space, valid %XX sequences are decoded as UTF-8 bytes, others kept. */
export function phpUrldecode(input: string): string {
  if (!/[%+]/.test(input)) return input;
  const bytes: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === '+') bytes.push(0x20);
    else if (ch === '%' && /^[0-9a-fA-F]{2}$/.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
  }
  return Buffer.from(bytes).toString('utf8');
}

/** PHP urlencode: RFC 1738 (space → '+', everything but [A-Za-z0-9_.-] percent-encoded). */
export function phpUrlencode(input: string): string {
  return encodeURIComponent(input)
    .replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}
