import { describe, expect, it } from 'vitest';
import {
  CaptionError,
  checkCues,
  cleanCueText,
  escapeCueText,
  parseSrt,
  parseWebVtt,
  serializeWebVtt,
  vttTime,
} from './captions.ts';
import { parseFfmpegDuration } from './videoTools.ts';

const vtt = (body: string) => `WEBVTT\n\n${body}`;

describe('parseWebVtt', () => {
  it('reads cues with and without identifiers, hours optional, settings dropped, NOTE/STYLE/REGION skipped, CRLF and a BOM', () => {
    const source =
      '\uFEFFWEBVTT - Lesson 3\r\nKind: captions\r\n\r\nNOTE made by hand\r\n\r\nSTYLE\r\n::cue { color: yellow }\r\n\r\n' +
      'intro\r\n00:01.000 --> 00:04.500 align:start line:0\r\n<v Ms. Rivera>Good morning,\r\n<i>class</i>!\r\n\r\n' +
      '01:00:02.250 --> 01:00:03.000\r\nLater &amp; louder\r\n';
    expect(parseWebVtt(source)).toEqual([
      { start: 1, end: 4.5, text: '<v Ms. Rivera>Good morning,\n<i>class</i>!' },
      { start: 3602.25, end: 3603, text: 'Later &amp; louder' },
    ]);
  });

  it('accepts a file without cues and every allowed tag', () => {
    expect(parseWebVtt('WEBVTT\n')).toEqual([]);
    const text =
      '<b>b</b> <u>u</u> <c.yellow.big>c</c> <lang es>hola</lang> <ruby>漢<rt>kan</rt></ruby> <v.loud Sam>hi</v>';
    expect(parseWebVtt(vtt(`00:00.000 --> 00:01.000\n${text}`))[0]!.text).toBe(text);
  });

  it('escapes a bare ampersand and keeps character references', () => {
    expect(parseWebVtt(vtt('00:00.000 --> 00:01.000\nQ&A &lt;3 &#169; &nbsp;'))[0]!.text).toBe(
      'Q&amp;A &lt;3 &#169; &nbsp;',
    );
  });

  const refused: [string, string, RegExp][] = [
    ['no signature', '00:00.000 --> 00:01.000\nHi', /^Line 1: A WebVTT file must start with "WEBVTT"/],
    ['a wrong signature', 'WEBVTTX\n\n00:00.000 --> 00:01.000\nHi', /must start with "WEBVTT"/],
    ['a cue right after the signature', 'WEBVTT\n00:00.000 --> 00:01.000\nHi', /^Line 2: .*empty line/],
    ['no timing line', vtt('just text\nmore text'), /^Line 4: Expected a caption time line/],
    ['a comma in a WebVTT time', vtt('00:00,000 --> 00:01.000\nHi'), /is not a caption time/],
    ['minutes past 59', vtt('00:61.000 --> 00:62.000\nHi'), /is not a caption time/],
    ['two-digit milliseconds', vtt('00:00.00 --> 00:01.000\nHi'), /is not a caption time/],
    ['NaN', vtt('NaN --> 00:01.000\nHi'), /is not a caption time/],
    ['a negative time', vtt('-00:01.000 --> 00:01.000\nHi'), /is not a caption time/],
    ['no spaces around the arrow', vtt('00:00.000-->00:01.000\nHi'), /spaces around the arrow/],
    ['an end before the start', vtt('00:05.000 --> 00:01.000\nHi'), /must end after it starts/],
    ['an end equal to the start', vtt('00:01.000 --> 00:01.000\nHi'), /must end after it starts/],
    [
      'a cue without text',
      vtt('00:00.000 --> 00:01.000\n\n00:02.000 --> 00:03.000\nHi'),
      /^Line 3: A caption has no text/,
    ],
    ['a script', vtt('00:00.000 --> 00:01.000\n<script>alert(1)</script>'), /The tag <script> is not allowed/],
    [
      'an image with a handler',
      vtt('00:00.000 --> 00:01.000\n<img src=x onerror=alert(1)>'),
      /The tag <img> is not allowed/,
    ],
    [
      'an attribute on an allowed tag',
      vtt('00:00.000 --> 00:01.000\n<b onclick="x">hi</b>'),
      /The tag <b> cannot have attributes/,
    ],
    ['a class on a closing tag', vtt('00:00.000 --> 00:01.000\n<b>hi</b.x>'), /closing tag/],
    ['a bare less-than sign', vtt('00:00.000 --> 00:01.000\n1 < 2'), /write &lt;/],
    ['an unclosed tag', vtt('00:00.000 --> 00:01.000\n<i'), /The tag <i> is not closed/],
    ['upper-case HTML', vtt('00:00.000 --> 00:01.000\n<SCRIPT>x</SCRIPT>'), /The tag <SCRIPT> is not allowed/],
    ['a timestamp tag', vtt('00:00.000 --> 00:02.000\nA <00:00:01.000>B'), /must start a caption tag/],
    ['a lang tag without a language', vtt('00:00.000 --> 00:01.000\n<lang>x</lang>'), /needs a language/],
    ['an arrow in a NOTE', vtt('NOTE 00:00.000 --> 00:01.000'), /cannot contain "-->"/],
    ['a NUL byte', 'WEBVTT\n\n00:00.000 --> 00:01.000\nA\u0000', /not a text file/],
    ['a text over 1000 characters', vtt(`00:00.000 --> 00:01.000\n${'x'.repeat(1001)}`), /at most 1000 characters/],
    ['a time past 24 hours', vtt('25:00:00.000 --> 25:00:01.000\nHi'), /more than 24 hours/],
  ];
  it.each(refused)('refuses %s', (_what, source, message) => {
    expect(() => parseWebVtt(source)).toThrow(CaptionError);
    expect(() => parseWebVtt(source)).toThrow(message);
  });

  it('refuses more than 5000 cues', () => {
    const body = Array.from({ length: 5001 }, (_, i) => `${vttTime(i)} --> ${vttTime(i + 0.5)}\nCue ${i}`).join('\n\n');
    expect(() => parseWebVtt(vtt(body))).toThrow(/at most 5000 captions/);
  });
});

describe('parseSrt', () => {
  it('converts SRT to WebVTT cues, keeping i, b and u and escaping a bare ampersand', () => {
    const source =
      '1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> Q&A\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000 X1:10 X2:20\r\nTwo\r\nlines\r\n';
    const cues = parseSrt(source);
    expect(cues).toEqual([
      { start: 1, end: 2.5, text: '<i>Hello</i> Q&amp;A' },
      { start: 3, end: 4, text: 'Two\nlines' },
    ]);
    expect(serializeWebVtt(cues)).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<i>Hello</i> Q&amp;A\n\n00:00:03.000 --> 00:00:04.000\nTwo\nlines\n',
    );
  });

  it.each([
    ['a missing number', '00:00:01,000 --> 00:00:02,000\nHi', /^Line 1: Expected the number/],
    ['a broken time', '1\n00:00:01 --> 00:00:02,000\nHi', /^Line 2: .*is not a caption time/],
    ['a font tag', '1\n00:00:01,000 --> 00:00:02,000\n<font color="red">Hi</font>', /The tag <font> is not allowed/],
    ['a script', '1\n00:00:01,000 --> 00:00:02,000\n<script>x</script>', /The tag <script> is not allowed/],
    ['no captions', '\n\n', /has no captions/],
    ['a WebVTT file', 'WEBVTT\n\n00:01.000 --> 00:02.000\nHi', /Expected the number/],
  ])('refuses %s', (_what, source, message) => {
    expect(() => parseSrt(source)).toThrow(message);
  });
});

describe('checkCues', () => {
  it('sorts by start, rounds to milliseconds and checks the times against the video', () => {
    expect(
      checkCues(
        [
          { start: 2, end: 3.00049, text: 'b' },
          { start: 0.5, end: 1, text: 'a' },
        ],
        10,
      ),
    ).toEqual([
      { start: 0.5, end: 1, text: 'a' },
      { start: 2, end: 3, text: 'b' },
    ]);
    expect(() => checkCues([{ start: 1, end: 12, text: 'x' }], 10)).toThrow(
      'Caption 1 ends at 00:00:12.000, after the end of the video (00:00:10.000).',
    );
    expect(checkCues([{ start: 1, end: 12, text: 'x' }], null)).toHaveLength(1);
    expect(() => checkCues([{ start: 2, end: 2, text: 'x' }], 10)).toThrow('Caption 1 must end after it starts.');
    expect(() => checkCues([{ start: Number.NaN, end: 2, text: 'x' }], 10)).toThrow(/not valid/);
    expect(() =>
      checkCues(
        [
          { start: 0, end: 1, text: 'ok' },
          { start: 1, end: 2, text: 'a\n\nb' },
        ],
        10,
      ),
    ).toThrow('Caption 2: A caption cannot contain an empty line.');
    expect(() => checkCues([{ start: 0, end: 1, text: 'a --> b' }], 10)).toThrow(/-->/);
    expect(() => checkCues([{ start: 0, end: 1, text: '   ' }], 10)).toThrow(/cannot be empty/);
  });

  it('cleans text typed in the editor', () => {
    expect(cleanCueText('Fish & chips\r\nfor <b>two</b>')).toBe('Fish &amp; chips\nfor <b>two</b>');
    expect(() => cleanCueText('<style>x</style>')).toThrow(/<style>/);
    expect(() => cleanCueText('a\u0007b')).toThrow(/control characters/);
  });
});

describe('serialisation', () => {
  it('writes times as HH:MM:SS.mmm and round-trips what it parses', () => {
    expect(vttTime(0)).toBe('00:00:00.000');
    expect(vttTime(3723.4567)).toBe('01:02:03.457');
    const cues = [
      { start: 0, end: 1.5, text: '<v Sam>Hello &amp; welcome' },
      { start: 61, end: 65.25, text: 'Line one\nline two' },
    ];
    expect(parseWebVtt(serializeWebVtt(cues, 'Lesson'))).toEqual(cues);
    expect(serializeWebVtt([], 'A --> B\nC')).toBe('WEBVTT - A → B C\n');
  });

  it('escapes plain text as cue text that cannot break out', () => {
    const text = escapeCueText('<script>x</script> & -->\n\n\nnext');
    expect(text).toBe('&lt;script&gt;x&lt;/script&gt; &amp; --&gt;\nnext');
    expect(cleanCueText(text)).toBe(text);
  });
});

describe('parseFfmpegDuration', () => {
  it('reads the input header and ignores look-alike metadata', () => {
    const report = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'x.mp4':",
      '  Metadata:',
      '    title           : Duration: 99:00:00.00',
      '  Duration: 00:01:02.50, start: 0.000000, bitrate: 27 kb/s',
    ].join('\n');
    expect(parseFfmpegDuration(report)).toBe(62.5);
    expect(parseFfmpegDuration('  Duration: N/A, bitrate: N/A')).toBeNull();
    expect(parseFfmpegDuration('')).toBeNull();
    expect(parseFfmpegDuration('  Duration: 01:00:00.00, start')).toBe(3600);
  });
});
