import MagicString, { type SourceMap } from 'magic-string';
import { parseSync, Visitor, type ESTree, type Plugin } from 'vite';

/**
 * Minifies the CSS of styled-components' tagged templates at build time: the comments, the
 * indentation and the line breaks of every `styled.x`, `styled(X)`, `css`, `keyframes` and
 * `createGlobalStyle` template would otherwise reach the browser as written (what the
 * styled-components Babel plugin's `minify` option does, without Babel).
 */

/** The interpolations' place in the joined template: a character no template of ours contains. */
const HOLE = '\u0001';

/** The names a styled template is written with (`css`, `keyframes`, `createGlobalStyle` as imported). */
const HELPERS = new Set(['css', 'keyframes', 'createGlobalStyle']);

/** Whether `tag` is one of styled-components' template tags: `styled.div`, `styled(Link)`, `styled.a.attrs(…)`, `css`. */
function isStyledTag(tag: ESTree.Expression): boolean {
  if (tag.type === 'Identifier') return HELPERS.has(tag.name);
  if (tag.type === 'MemberExpression') return isStyledRoot(tag.object);
  if (tag.type === 'CallExpression') {
    const callee = tag.callee;
    if (callee.type === 'Identifier') return callee.name === 'styled';
    if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier')
      return ['attrs', 'withConfig'].includes(callee.property.name) && isStyledRoot(callee.object);
  }
  return false;
}

/** `styled`, or a styled tag on which `.attrs(…)`/`.withConfig(…)` or an element name is called. */
function isStyledRoot(node: ESTree.Expression | ESTree.Super): boolean {
  if (node.type === 'Identifier') return node.name === 'styled';
  return node.type !== 'Super' && isStyledTag(node);
}

/**
 * The CSS of a template (its static parts joined by `HOLE`) without comments and needless
 * whitespace; quoted strings are kept as they are. `null` when the text has something this does
 * not handle (an unclosed comment or string, a `//` outside strings): the template stays as written.
 */
export function minifyCss(css: string): string | null {
  let out = '';
  let i = 0;
  /** Whitespace seen and not yet written: written as one space where it may matter. */
  let pendingSpace = false;
  const last = () => out[out.length - 1];
  while (i < css.length) {
    const ch = css[i]!;
    if (ch === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end < 0 || css.slice(i, end).includes(HOLE)) return null;
      i = end + 2;
      pendingSpace = true;
      continue;
    }
    if (ch === '/' && css[i + 1] === '/') return null;
    if (/\s/.test(ch)) {
      pendingSpace = true;
      i += 1;
      continue;
    }
    if (pendingSpace && out !== '' && !'{};,:>'.includes(last()!) && !'{};,>'.includes(ch)) out += ' ';
    pendingSpace = false;
    if (ch === '"' || ch === "'") {
      let end = i + 1;
      while (end < css.length && css[end] !== ch) end += css[end] === '\\' ? 2 : 1;
      if (end >= css.length) return null;
      out += css.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}

/**
 * The source with every styled template's CSS minified (with its source map), or `null` when
 * nothing changed. Only the templates' static parts are rewritten, so a template nested in
 * another's interpolation is minified as well.
 */
export function minifyStyledTemplates(fileName: string, code: string): { code: string; map: SourceMap } | null {
  if (!code.includes('styled-components')) return null;
  const { program } = parseSync(fileName, code);
  const source = new MagicString(code);
  let changed = false;
  new Visitor({
    TaggedTemplateExpression(node) {
      if (!isStyledTag(node.tag)) return;
      const { quasis } = node.quasi;
      // A static part's span runs from the delimiter before it (a backtick or `}`) to the one after (`${` or a backtick).
      const ranges = quasis.map((q, index) => ({
        start: q.start + 1,
        end: q.end - (index === quasis.length - 1 ? 1 : 2),
        raw: q.value.raw,
      }));
      if (ranges.some((r) => code.slice(r.start, r.end) !== r.raw || r.raw.includes(HOLE))) return;
      const parts = minifyCss(ranges.map((r) => r.raw).join(HOLE))?.split(HOLE);
      if (!parts || parts.length !== ranges.length) return;
      ranges.forEach((range, index) => {
        const part = parts[index]!;
        if (part === range.raw) return;
        changed = true;
        if (range.start === range.end) source.appendLeft(range.start, part);
        else source.overwrite(range.start, range.end, part);
      });
    },
  }).visit(program);
  if (!changed) return null;
  return { code: source.toString(), map: source.generateMap({ source: fileName, hires: true, includeContent: true }) };
}

/** The build's plugin: our own modules only (`src/`), before TypeScript and JSX are compiled. */
export function styledCss(): Plugin {
  return {
    name: 'practicefolio:styled-css',
    apply: 'build',
    enforce: 'pre',
    transform: {
      filter: { id: /[\\/]src[\\/].*\.tsx?$/ },
      handler(code, id) {
        return minifyStyledTemplates(id, code);
      },
    },
  };
}
