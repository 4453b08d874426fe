import { describe, expect, it } from 'vitest';
import { minifyCss, minifyStyledTemplates } from './vite-styled-css.ts';

describe('minifyCss', () => {
  it('drops comments, indentation and line breaks, and the spaces around braces, semicolons and commas', () => {
    const css = `
      /* The panel. */
      display: flex;
      color: rgba(0, 0, 0, 0.5);
      &:hover , &:focus {
        border: 1px solid red; /* a ring */
      }
      @media (max-width: 767px) {
        ul > li { margin: 0 auto; }
      }
    `;
    expect(minifyCss(css)).toBe(
      'display:flex;color:rgba(0,0,0,0.5);&:hover,&:focus{border:1px solid red;}@media (max-width:767px){ul>li{margin:0 auto;}}',
    );
  });

  it('keeps the spaces that mean something: in values, in calc(), between selectors, before a pseudo-class', () => {
    expect(minifyCss('width: calc(100vw - 32px);')).toBe('width:calc(100vw - 32px);');
    expect(minifyCss('a :hover { b: c }')).toBe('a :hover{b:c}');
    expect(minifyCss('.a   .b {}')).toBe('.a .b{}');
  });

  it('keeps quoted strings as they are', () => {
    expect(minifyCss(`content: '  /* x */  ';  font-family: "A  B", serif;`)).toBe(
      `content:'  /* x */  ';font-family:"A  B",serif;`,
    );
  });

  it('keeps the place of each interpolation (\\u0001) with the space around it that separates values', () => {
    expect(minifyCss('padding: \u0001 \u0001;\n  border: 1px solid \u0001;')).toBe(
      'padding:\u0001 \u0001;border:1px solid \u0001;',
    );
  });

  it('gives up (null) on what it does not handle: a line comment, an unclosed comment or string', () => {
    expect(minifyCss('a: b; // note')).toBeNull();
    expect(minifyCss('a: b; /* open')).toBeNull();
    expect(minifyCss(`content: 'open`)).toBeNull();
    expect(minifyCss('/* \u0001 */')).toBeNull();
  });
});

describe('minifyStyledTemplates', () => {
  it('rewrites the CSS of styled templates only, interpolations and nested templates included', () => {
    const source = [
      "import styled, { css } from 'styled-components';",
      'const big = css`\n  font-size: 2rem;\n`;',
      'const Box = styled.div<{ $on: boolean }>`\n  /* c */\n  color: ${({ $on }) => ($on ? css`\n    color: red;\n  ` : big)};\n`;',
      'const Link2 = styled(Link).attrs({ x: 1 })`\n  margin: 0;\n`;',
      'const other = tag`\n  keep:  me;\n`;',
    ].join('\n');
    const result = minifyStyledTemplates('x.tsx', source);
    expect(result?.code).toBe(
      [
        "import styled, { css } from 'styled-components';",
        'const big = css`font-size:2rem;`;',
        'const Box = styled.div<{ $on: boolean }>`color:${({ $on }) => ($on ? css`color:red;` : big)};`;',
        'const Link2 = styled(Link).attrs({ x: 1 })`margin:0;`;',
        'const other = tag`\n  keep:  me;\n`;',
      ].join('\n'),
    );
    expect(result?.map.mappings).not.toBe('');
  });

  it('leaves files without styled-components, and templates it cannot handle, as they are', () => {
    expect(minifyStyledTemplates('x.ts', 'const a = css`a: b;`;')).toBeNull();
    expect(
      minifyStyledTemplates('x.ts', "import styled from 'styled-components';\nconst A = styled.a`a: b; // c\n`;"),
    ).toBeNull();
  });
});
