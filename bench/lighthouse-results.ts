/** Lighthouse's scores as bench/lighthouse.ts writes them, and their table in the report. */

export type LighthouseResults = {
  date: string;
  lighthouse: string;
  chromium: string;
  formFactor: string;
  pages: {
    path: string;
    scores: Record<string, number | null>;
    metrics: Record<string, number | null>;
    failing?: string[];
    error?: string;
  }[];
};

export function lighthouseMarkdown(results: LighthouseResults): string[] {
  const lines = [
    `**Lighthouse ${results.lighthouse}** (${results.formFactor}, ${results.chromium}, ${results.date.slice(0, 10)}; \`npm run bench:lighthouse\`):`,
    "",
    "| Page | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  const score = (value: number | null | undefined) =>
    value === null || value === undefined ? "—" : String(Math.round(value * 100));
  const ms = (value: number | null | undefined) =>
    value === null || value === undefined ? "—" : `${(value / 1000).toFixed(1)} s`;
  for (const page of results.pages) {
    if (page.error) {
      lines.push(`| ${page.path} | failed: ${page.error} | | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${page.path} | ${score(page.scores.performance)} | ${score(page.scores.accessibility)} | ${score(page.scores["best-practices"])} | ${score(page.scores.seo)} | ` +
        `${ms(page.metrics.fcp)} | ${ms(page.metrics.lcp)} | ${page.metrics.tbt === null || page.metrics.tbt === undefined ? "—" : `${page.metrics.tbt.toFixed(0)} ms`} | ` +
        `${page.metrics.cls === null || page.metrics.cls === undefined ? "—" : page.metrics.cls.toFixed(3)} |`,
    );
  }
  const failing = results.pages.filter((page) => page.failing?.length);
  if (failing.length > 0) {
    lines.push(
      "",
      `Audits not passed: ${failing.map((page) => `${page.path}: ${page.failing!.join(", ")}`).join("; ")}.`,
    );
  }
  return lines;
}
