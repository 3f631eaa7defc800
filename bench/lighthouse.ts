/**
 * `npm run bench:lighthouse`: Lighthouse 12 (mobile, its default: a mid-range phone on a slow 4G
 * link, simulated) on the home page, /products and one product page of the built store with the
 * bench catalogue, in Debian's Chromium. Writes bench/results/lighthouse.{json,md}.
 * (Lighthouse 13 needs Node 22; the store runs on Node 20.)
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openBenchDatabase, seedBenchData } from "./database";
import { buildStore, ROOT, startStore, type Started } from "./processes";
import { lighthouseMarkdown, type LighthouseResults } from "./lighthouse-results";

const { values: args } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    "skip-build": { type: "boolean", default: false },
    out: { type: "string", default: "bench/results" },
  },
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const METRICS = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  cls: "cumulative-layout-shift",
  si: "speed-index",
} as const;

async function main() {
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`Lighthouse needs Chromium at ${CHROMIUM} (sudo apt-get install chromium, or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  const chromium = execFileSync(CHROMIUM, ["--version"], { encoding: "utf8" }).trim();
  if (!args["skip-build"]) buildStore();

  const database = await openBenchDatabase({ keep: false });
  let store: Started | null = null;
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-lighthouse-"));
  try {
    const seed = await seedBenchData(database.db, {
      products: Number(args.products),
      users: 300,
      orders: 1000,
      browsers: 1,
      checkoutShoppers: 0,
      lastUnitShoppers: 0,
    });
    store = await startStore({ databaseUrl: database.url, countQueries: false });
    const product = await database
      .db("products")
      .where("stock", ">", 0)
      .whereIn("id", seed.sampleProductIds)
      .first("id");
    const paths = ["/", "/products", `/products/${product.id}`];

    const results: LighthouseResults = {
      date: new Date().toISOString(),
      lighthouse: JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/lighthouse/package.json"), "utf8")).version,
      chromium,
      formFactor: "mobile (Lighthouse default: simulated slow 4G, 4× CPU slowdown)",
      pages: [],
    };
    for (const pagePath of paths) {
      const output = path.join(reportDir, `${results.pages.length}.json`);
      console.log(`Lighthouse ${pagePath} …`);
      const run = spawnSync(
        path.join(ROOT, "node_modules/.bin/lighthouse"),
        [
          store.baseUrl + pagePath,
          "--output=json",
          `--output-path=${output}`,
          `--only-categories=${CATEGORIES.join(",")}`,
          "--chrome-flags=--headless --no-sandbox --disable-gpu",
          "--quiet",
        ],
        { cwd: ROOT, env: { ...process.env, CHROME_PATH: CHROMIUM }, encoding: "utf8", timeout: 180_000 },
      );
      if (run.status !== 0 || !fs.existsSync(output)) {
        const error = (run.stderr || run.error?.message || `exit ${run.status}`).trim().split("\n").slice(-1)[0]!;
        results.pages.push({ path: pagePath, scores: {}, metrics: {}, error });
        continue;
      }
      const report = JSON.parse(fs.readFileSync(output, "utf8"));
      const runtimeError = report.runtimeError?.message as string | undefined;
      results.pages.push({
        path: pagePath.startsWith("/products/") ? "/products/{id}" : pagePath,
        scores: Object.fromEntries(
          CATEGORIES.map((category) => [category, report.categories[category]?.score ?? null]),
        ),
        metrics: Object.fromEntries(
          Object.entries(METRICS).map(([key, audit]) => [key, report.audits[audit]?.numericValue ?? null]),
        ),
        // What keeps a category below 100: its weighted audits that did not pass.
        failing: CATEGORIES.flatMap((category) =>
          (report.categories[category]?.auditRefs ?? [])
            .filter(
              (ref: { id: string; weight: number }) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 0.9,
            )
            .map((ref: { id: string }) => `${category}: ${ref.id}${where(report.audits[ref.id])}`),
        ),
        ...(runtimeError ? { error: runtimeError } : {}),
      });
    }

    const outDir = path.resolve(ROOT, args.out!);
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, "lighthouse.json"), JSON.stringify(results, null, 2) + "\n");
    const markdown = lighthouseMarkdown(results).join("\n") + "\n";
    fs.writeFileSync(path.join(outDir, "lighthouse.md"), markdown);
    console.log("\n" + markdown);
  } finally {
    await store?.stop();
    await database.close();
    fs.rmSync(reportDir, { recursive: true, force: true });
  }
}

/** The first elements an audit names (accessibility audits name the nodes that failed). */
function where(audit: { details?: { items?: { node?: { selector?: string } }[] } } | undefined): string {
  const selectors = (audit?.details?.items ?? [])
    .map((item) => item.node?.selector)
    .filter((selector): selector is string => Boolean(selector));
  if (selectors.length === 0) return "";
  return ` (${selectors.slice(0, 2).join(", ")}${selectors.length > 2 ? `, +${selectors.length - 2}` : ""})`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
