import { describe, it, expect } from 'vitest';
import { costDetails, costValues, detectCurrency, formatCost, normaliseNumber, parseCostInput } from '../../src/calendar/cost.js';

describe('parseCostInput', () => {
  it('keeps a string verbatim', () => {
    expect(parseCostInput('20$')).toEqual(['20$']);
    expect(parseCostInput(' 10 ')).toEqual([' 10 ']);
  });
  it('keeps one value per array element and drops blanks', () => {
    expect(parseCostInput(['0$', '', '  ', '20$', '30$'])).toEqual(['0$', '20$', '30$']);
  });
  it('accepts numbers', () => {
    expect(parseCostInput(10)).toEqual(['10']);
    expect(parseCostInput([0, 12.5])).toEqual(['0', '12.5']);
  });
  it('ignores empty and non-scalar input', () => {
    expect(parseCostInput('')).toEqual([]);
    expect(parseCostInput(null)).toEqual([]);
    expect(parseCostInput(undefined)).toEqual([]);
    expect(parseCostInput([{ a: 1 }, true, ['x']])).toEqual([]);
    expect(parseCostInput(Number.NaN)).toEqual([]);
  });
});

describe('detectCurrency', () => {
  it('detects postfix and prefix symbols', () => {
    expect(detectCurrency(['20$'])).toEqual({ symbol: '$', position: 'postfix' });
    expect(detectCurrency(['$23'])).toEqual({ symbol: '$', position: 'prefix' });
    expect(detectCurrency(['€ 12,50'])).toEqual({ symbol: '€', position: 'prefix' });
    expect(detectCurrency(['0$', '20$', '30$'])).toEqual({ symbol: '$', position: 'postfix' });
  });
  it('finds none for a bare number (sample 08: cost "10")', () => {
    expect(detectCurrency(['10'])).toEqual({ symbol: '', position: '' });
    expect(detectCurrency(['15'])).toEqual({ symbol: '', position: '' });
  });
  it('finds none when symbols differ between values', () => {
    expect(detectCurrency(['10$', '20€'])).toEqual({ symbol: '', position: '' });
    expect(detectCurrency(['10', '$20'])).toEqual({ symbol: '', position: '' });
  });
  it('keeps the symbol but drops an inconsistent position', () => {
    expect(detectCurrency(['$10', '20$'])).toEqual({ symbol: '$', position: '' });
  });
  it('handles ranges inside one value and skips non-numeric values', () => {
    expect(detectCurrency(['$10 - $20'])).toEqual({ symbol: '$', position: 'prefix' });
    expect(detectCurrency(['Free', '5€'])).toEqual({ symbol: '€', position: 'postfix' });
    expect(detectCurrency(['Free'])).toEqual({ symbol: '', position: '' });
    expect(detectCurrency([])).toEqual({ symbol: '', position: '' });
  });
  it('finds none when text surrounds the number on both sides', () => {
    expect(detectCurrency(['USD 10 each'])).toEqual({ symbol: '', position: '' });
  });
});

describe('normaliseNumber', () => {
  it('treats separators like TEC parse_separators', () => {
    expect(normaliseNumber('23')).toBe('23');
    expect(normaliseNumber('23.89')).toBe('23.89');
    expect(normaliseNumber('25,55')).toBe('25.55');
    expect(normaliseNumber('23,892')).toBe('23892');
    expect(normaliseNumber('23,892.4')).toBe('23892.4');
    expect(normaliseNumber('23.892,4')).toBe('23892.4');
    expect(normaliseNumber('1,000,000')).toBe('1000000');
    expect(normaliseNumber('1.000.000')).toBe('1000000');
  });
});

describe('costValues', () => {
  it('extracts numeric strings (spec §3.5 examples)', () => {
    expect(costValues(['20$'])).toEqual(['20']);
    expect(costValues(['0$', '20$', '30$'])).toEqual(['0', '20', '30']);
    expect(costValues(['25,55'])).toEqual(['25.55']);
    expect(costValues(['10'])).toEqual(['10']);
  });
  it('sorts ascending numerically, not lexically', () => {
    expect(costValues(['100', '20', '3.5'])).toEqual(['3.5', '20', '100']);
    expect(costValues(['$10 - $5'])).toEqual(['5', '10']);
  });
  it('keeps raw text of non-numeric costs', () => {
    expect(costValues(['Free'])).toEqual(['Free']);
    expect(costValues(['10', 'Donation'])).toEqual(['Donation', '10']);
  });
  it('is empty without costs', () => {
    expect(costValues([])).toEqual([]);
  });
});

describe('formatCost', () => {
  it('uses the stored symbol and position', () => {
    expect(formatCost(['20$'], '$', 'postfix')).toBe('20$');
    expect(formatCost(['23'], '$', 'prefix')).toBe('$23');
    expect(formatCost(['0$', '20$', '30$'], '$', 'postfix')).toBe('Free – 30$');
    expect(formatCost(['10€', '20€'], '€', 'postfix')).toBe('10€ \u2013 20€');
  });
  it('falls back to the site default when nothing is stored (samples 08/13/26)', () => {
    expect(formatCost(['10'], '', '')).toBe('$10');
    expect(formatCost(['15'], '', '')).toBe('$15');
    // A stored "$10" whose symbol was cleared (update without cost) still shows the default.
    expect(formatCost(['$10'], '', '')).toBe('$10');
    expect(formatCost(['10'], '', '', { symbol: '€', position: 'postfix' })).toBe('10€');
    expect(formatCost(['10'], '£', '')).toBe('£10');
  });
  it('shows a single value once and Free for zero', () => {
    expect(formatCost(['5', '5'], '$', 'prefix')).toBe('$5');
    expect(formatCost(['0'], '', '')).toBe('Free');
    expect(formatCost(['0', '0.00'], '', '')).toBe('Free');
  });
  it('keeps the number as written', () => {
    expect(formatCost(['25,55'], '€', 'postfix')).toBe('25,55€');
    expect(formatCost(['1,000', '250'], '$', 'prefix')).toBe('$250 – $1,000');
  });
  it('returns a lone non-numeric cost as is, ignores it among numbers', () => {
    expect(formatCost(['Free entry'], '', '')).toBe('Free entry');
    expect(formatCost(['Donation', '10'], '', '')).toBe('$10');
    expect(formatCost(['Free', 'Donation'], '', '')).toBe('Free');
  });
  it('is empty without costs and escapes HTML', () => {
    expect(formatCost([], '$', 'prefix')).toBe('');
    expect(formatCost(['<b>TBA</b>'], '', '')).toBe('&lt;b&gt;TBA&lt;/b&gt;');
  });
});

describe('costDetails', () => {
  it('reports stored symbol/position verbatim (sample 08)', () => {
    expect(costDetails(['10'], '', '')).toEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: ['10'] });
    expect(costDetails([], '', '')).toEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: [] });
  });
  it('round-trips a request through detection', () => {
    const stored = parseCostInput(['0$', '20$', '30$']);
    const { symbol, position } = detectCurrency(stored);
    expect(costDetails(stored, symbol, position)).toEqual({
      currency_symbol: '$',
      currency_code: '',
      currency_position: 'postfix',
      values: ['0', '20', '30'],
    });
    expect(formatCost(stored, symbol, position)).toBe('Free – 30$');
  });
});
