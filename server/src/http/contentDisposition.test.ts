import { describe, expect, it } from 'vitest';
import { contentDisposition } from './contentDisposition.ts';

describe('contentDisposition', () => {
  it('names a plain file with a quoted filename alone', () => {
    expect(contentDisposition('attachment', 'practicefolio-archive-2026-11-28.zip')).toBe('attachment; filename="practicefolio-archive-2026-11-28.zip"');
    expect(contentDisposition('inline', 'plan.pdf')).toBe('inline; filename="plan.pdf"');
  });

  it('adds the exact name as filename* (RFC 5987) when it is more than attr-chars', () => {
    expect(contentDisposition('attachment', 'teacher portfolios.csv')).toBe(`attachment; filename="teacher portfolios.csv"; filename*=UTF-8''teacher%20portfolios.csv`);
    expect(contentDisposition('attachment', 'Clase de matemáticas.es-MX.vtt')).toBe(
      `attachment; filename="Clase de matem_ticas.es-MX.vtt"; filename*=UTF-8''Clase%20de%20matem%C3%A1ticas.es-MX.vtt`,
    );
    // `'`, `(`, `)` and `*` are not attr-chars: encodeURIComponent alone would leave them.
    expect(contentDisposition('attachment', "Ana's (draft)*.txt")).toBe(`attachment; filename="Ana's (draft)*.txt"; filename*=UTF-8''Ana%27s%20%28draft%29%2A.txt`);
  });

  it('keeps quotes, backslashes, percent signs and controls out of the quoted name', () => {
    expect(contentDisposition('attachment', 'a"b\\c%41\r\nd.txt')).toBe(`attachment; filename="a_b_c_41__d.txt"; filename*=UTF-8''a%22b%5Cc%2541%0D%0Ad.txt`);
  });

  it('shows bidirectional controls, so that no name reads as another', () => {
    expect(contentDisposition('attachment', 'invoice\u202Efdp.exe')).toBe(`attachment; filename="invoice_fdp.exe"; filename*=UTF-8''invoice%EF%BF%BDfdp.exe`);
  });
});
