/**
 * A LIKE pattern that finds the term anywhere. The term is data: LIKE's own wildcards in it are
 * escaped, so `%` and `_` match themselves.
 */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
