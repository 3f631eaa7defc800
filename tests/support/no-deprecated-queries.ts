import { afterAll, expect } from "vitest";

/**
 * pg announces, once per process, calls it will refuse in its next major version (a query sent on
 * a connection that is still busy with another, e.g. two reads at once in one transaction). Such
 * a call works today and breaks on upgrade, so a test file during which one is made fails.
 */
const seen: string[] = ((globalThis as { pgDeprecations?: string[] }).pgDeprecations ??= (() => {
  const list: string[] = [];
  process.on("warning", (warning) => {
    if (warning.name === "DeprecationWarning" && warning.message.includes("pg@9")) list.push(warning.message);
  });
  return list;
})());

afterAll(() => {
  const made = seen.splice(0);
  expect(made, "calls that pg deprecates (run with NODE_OPTIONS=--trace-deprecation to see where)").toEqual([]);
});
