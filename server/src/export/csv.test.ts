import { describe, expect, it } from 'vitest';
import { csvDate, escapeCell } from './csv.ts';

describe('escapeCell', () => {
  it('puts an apostrophe before text a spreadsheet would run as a formula', () => {
    for (const text of [
      '=HYPERLINK("http://evil.example","x")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '=',
      ' =1',
      '\u3000=1',
      '\uFF1DHYPERLINK("http://evil.example")',
      '\uFF0B1',
      '\uFF0D1',
      '\uFF20SUM(A1)',
      '\u22121',
    ]) {
      expect(escapeCell(text)).toBe(`'${text}`);
    }
  });

  it('leaves other text and every number as they are', () => {
    for (const text of ['Forces', 'a=b', 'a \uFF1D b', "'quoted", '', 'user+tag@example.org', '5th, 6th'])
      expect(escapeCell(text)).toBe(text);
    for (const n of [0, 12, -3, 1.5]) expect(escapeCell(n)).toBe(n);
  });
});

describe('csvDate', () => {
  it('writes dates as the original did: month/day/year, hours:minutes:seconds AM/PM (server time zone)', () => {
    const value = new Date(2022, 3, 5, 15, 4, 5);
    expect(csvDate(value)).toBe('4/5/2022, 3:04:05 PM');
    expect(csvDate(value.toISOString())).toBe('4/5/2022, 3:04:05 PM');
    expect(csvDate(new Date(2021, 11, 31, 0, 0, 9))).toBe('12/31/2021, 12:00:09 AM');
  });
});
