// PHP's string functions where their byte semantics differ from JavaScript's.

/** PHP 8 strtolower: ASCII letters only, whatever the locale (WordPress compares term names this way). */
export const phpStrtolower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
