/**
 * One SQL statement written by several modules, each for its own tables: a part is the body of
 * one `WITH` query (a CTE) and its named bindings (`:name`). A flow composes the parts of the
 * modules it calls into one statement, so that a use case spanning modules still costs one round
 * trip (docs/decisions/2026-11-25-flows.md). A part may read an earlier part by its name, as the
 * part's maker documents.
 */
export type StatementPart = {
  /** The CTE's name: unique within the statement. */
  name: string;
  sql: string;
  bindings: Record<string, unknown>;
  /** `AS MATERIALIZED`: the part is computed once, in its place (a locking read must be). */
  materialized?: boolean;
};

/**
 * `WITH part AS (…), … <final>`, with every part's bindings. A binding name two parts share must
 * carry the same value in both (the customer's id, say): anything else is a programming error.
 */
export function composeStatement(
  parts: readonly StatementPart[],
  final: { sql: string; bindings?: Record<string, unknown> },
): { sql: string; bindings: Record<string, unknown> } {
  const bindings: Record<string, unknown> = {};
  const names = new Set<string>();
  for (const part of [...parts, { name: "", sql: "", bindings: final.bindings ?? {} }]) {
    if (part.name && names.has(part.name)) throw new Error(`Two statement parts are named ${part.name}`);
    names.add(part.name);
    for (const [name, value] of Object.entries(part.bindings)) {
      if (name in bindings && bindings[name] !== value) {
        throw new Error(`Statement parts bind :${name} to different values`);
      }
      bindings[name] = value;
    }
  }
  const withs = parts.map((part) => `${part.name} AS ${part.materialized ? "MATERIALIZED " : ""}(${part.sql})`);
  return { sql: `WITH ${withs.join(", ")}\n${final.sql}`, bindings };
}
