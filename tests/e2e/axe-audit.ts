import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { waitForHydration } from "./held-scripts";

/**
 * The axe audit of the journeys (tests/e2e/accessibility.spec.ts and those of a page's own
 * journey): axe-core with every one of its rules that can find a serious or critical violation,
 * experimental ones included; such violations are the findings. It runs in the page, so only with JavaScript.
 *
 * Left to itself, axe skips the rules tagged "experimental" (label-content-name-mismatch, which
 * checks WCAG 2.5.3, is one): naming the rules runs them all. Named are those whose violation is
 * serious or critical: axe gives every result of a rule that rule's own impact (its
 * `finalizeRuleResult`), so a rule of minor or moderate impact can never make a finding, and
 * running it only cost time (hidden-content and region were a third of a long page's audit).
 */
type AxeRule = { id: string; impact?: "minor" | "moderate" | "serious" | "critical" };
const axeCore = createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright"))("axe-core") as {
  getRules(): { ruleId: string }[];
  _audit: { rules: AxeRule[] };
};
const FINDING_IMPACTS = new Set(["serious", "critical"]);
const AUDITED_RULES = axeCore._audit.rules
  .filter((rule) => {
    // A rule without an impact of its own takes its checks' impacts, which may be serious: it runs.
    return rule.impact === undefined || FINDING_IMPACTS.has(rule.impact);
  })
  .map((rule) => rule.id);
if (axeCore.getRules().length !== axeCore._audit.rules.length || AUDITED_RULES.length < 60)
  throw new Error("axe-core's rules are not where tests/e2e/axe-audit.ts reads them: read its version's notes");

export type Finding = string;

/**
 * axe runs in the page itself ("legacy mode"): the default runs in each frame and then merges the
 * results in a blank page it opens for every audit, loading axe three times. The store draws no
 * frame of another origin (a page of its own in a frame would still be audited).
 */

export async function audit(page: Page, label: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).withRules(AUDITED_RULES).setLegacyMode().analyze();
  const ran = new Set(
    [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((rule) => rule.id),
  );
  expect(ran.has("label-content-name-mismatch"), "experimental rules ran").toBe(true);
  // axe leaves text drawn in its background's own colour for a person to review (it may be hidden
  // on purpose); nothing of the store is hidden that way, so such text is a finding: it is invisible.
  const invisibleText = results.incomplete
    .filter((rule) => rule.id === "color-contrast")
    .map((rule) => ({
      ...rule,
      help: "Text must not be the colour of its background",
      nodes: rule.nodes.filter((node) =>
        node.any.some((check) => (check.data as { contrastRatio?: number } | null)?.contrastRatio === 1),
      ),
    }))
    .filter((rule) => rule.nodes.length > 0);
  return [...results.violations, ...invisibleText]
    .filter((violation) => FINDING_IMPACTS.has(violation.impact ?? ""))
    .map(
      (violation) =>
        `${label}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes
          .slice(0, 4)
          .map((node) =>
            `${node.target.join(" ")} ${node.failureSummary?.split("\n").slice(1, 2).join("") ?? ""}`.trim(),
          )
          .join(" | ")}`,
    );
}

/** Opens a page as a document, waits until it has hydrated (unless it has no scripts), and audits it. */
export async function visitAndAudit(
  page: Page,
  path: string,
  options: { hydrates?: boolean; status?: number } = {},
): Promise<Finding[]> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(options.status ?? 200);
  if (options.hydrates !== false) await waitForHydration(page);
  return audit(page, path);
}
