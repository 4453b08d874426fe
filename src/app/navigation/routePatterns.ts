import { useMemo } from 'react';
import { useRouter } from 'wouter';

type Parser = ReturnType<typeof useRouter>['parser'];

/**
 * Wouter turns a route's pattern into a regular expression each time it matches it, and the
 * browser compiles each new expression again: every `<Route>` and `<Switch>` of a render paid for
 * it. Patterns are a fixed set, so each one is turned into its expression once.
 */
function remembering(parse: Parser): Parser {
  const parsed = new Map<string, ReturnType<Parser>>();
  return (pattern, loose) => {
    const key = `${loose ? 'loose' : 'exact'} ${pattern}`;
    let result = parsed.get(key);
    if (!result) {
      result = parse(pattern, loose);
      parsed.set(key, result);
    }
    return result;
  };
}

/** Wouter's own pattern parser, remembering what it parsed: for `<Router parser={…}>`. */
export function useRememberedPatterns(): Parser {
  const { parser } = useRouter();
  return useMemo(() => remembering(parser), [parser]);
}
