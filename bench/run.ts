/**
 * `npm run bench`: seeds a large catalogue into a database of its own, starts the built store and
 * the baselines as production processes, drives them with autocannon over loopback and writes
 * bench/results/bench.{json,md} and throughput.svg. `npm run bench -- --help` lists the options
 * (bench/options.ts); the scenarios are bench/scenarios.ts.
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runBracketed } from "./bracketed-run";
import { LAST_UNIT_SHOPPERS, runCheckoutAndLastUnits, WARMUP_ORDERS } from "./checkout";
import { FakeWhatsAppCloud, messagingSettings } from "../tests/support/messaging-fakes";
import { openBenchDatabase, seedBenchData, timeSearchTerms } from "./database";
import { warmUp, type LoadPlan, type LoadResult } from "./load";
import { readBenchOptions } from "./options";
import { buildBaseline, buildStore, ROOT, startBaseline, startStore, waitUntilIdle, type Started } from "./processes";
import { summariseProfiles } from "./profile";
import type { BenchResult } from "./report";
import { gitCommit, machine, writeResults } from "./result-files";
import { baselinePlan, largeCataloguePlans, SEARCH_TERMS, storePlans, type PlanCommon } from "./scenarios";
import { apiLogin, inBatches, pageLogin } from "./sign-in";
import { evaluateTargets } from "./targets";

const options = readBenchOptions();
const { products, duration, warmup, connections, shoppers, checkoutOrders, only, large, runsLarge } = options;

async function main() {
  const started = Date.now();
  if (!options.skipBuild) {
    buildStore();
    buildBaseline();
  }
  // First, so that the report below includes its scores.
  if (options.lighthouse) execSync("npx tsx bench/lighthouse.ts --skip-build", { cwd: ROOT, stdio: "inherit" });
  // Image bytes per page type, with photos uploaded to a small catalogue of its own.
  if (!options.serve && (!only || only.has("images"))) {
    const imagesOut = only ? "bench/results/tmp" : "bench/results";
    execSync(`npx tsx bench/images.ts --skip-build --out ${imagesOut}`, { cwd: ROOT, stdio: "inherit" });
    if (only?.size === 1) return;
  }
  // The WAL archive's growth on a quiet store: an order a minute, simulated (about three minutes).
  if (!options.serve && (!only || only.has("archive"))) {
    const archiveOut = only ? "bench/results/tmp" : "bench/results";
    execSync(`npx tsx bench/wal-archive.ts --out ${archiveOut}`, { cwd: ROOT, stdio: "inherit" });
    if (only?.size === 1) return;
  }
  // Each report over 100,000 orders of a year, 30 days and the year (bench/reports.ts, a few minutes).
  if (!options.serve && (!only || only.has("reports"))) {
    const reportsOut = only ? "bench/results/tmp" : "bench/results";
    execSync(`npx tsx bench/reports.ts --skip-build --out ${reportsOut}`, { cwd: ROOT, stdio: "inherit" });
    if (only?.size === 1) return;
  }
  const loadAverageAtStart = os.loadavg();

  console.log(`Seeding ${products.toLocaleString("en")} products…`);
  const database = await openBenchDatabase({ keep: options.keep, statementStats: options.pgStats });
  let store: Started | null = null;
  let baseline: Started | null = null;
  let whatsapp: FakeWhatsAppCloud | null = null;
  let largeDatabase: Awaited<ReturnType<typeof openBenchDatabase>> | null = null;
  let largeSearchTerms: Awaited<ReturnType<typeof timeSearchTerms>> | null = null;
  try {
    const seed = await seedBenchData(database.db, {
      products,
      users: Math.max(300, Math.round(products / 10)),
      orders: Math.max(1000, Math.round(products / 2)),
      browsers: 20,
      checkoutShoppers: only && !only.has("checkout") ? 0 : WARMUP_ORDERS + checkoutOrders,
      lastUnitShoppers: LAST_UNIT_SHOPPERS,
    });
    const users = seed.users + seed.browsers + seed.checkoutShoppers + seed.lastUnitShoppers;
    console.log(`Seeded in ${seed.seconds.toFixed(1)} s: ${users} users, ${seed.orders} orders.`);
    const searchTerms = await timeSearchTerms(database.db, SEARCH_TERMS);

    const profileDir = path.join(ROOT, "bench/results/tmp/profiles");
    if (options.cpuProf) fs.rmSync(profileDir, { recursive: true, force: true });
    baseline = await startBaseline();
    if (options.messaging) whatsapp = await new FakeWhatsAppCloud().start();
    store = await startStore({
      databaseUrl: database.url,
      nodeFlags: options.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
      env: whatsapp ? messagingSettings(whatsapp, null) : {},
    });

    if (options.serve) {
      console.log(
        `store ${store.baseUrl} (pid ${store.pid}), baselines ${baseline.baseUrl}/json and ${baseline.baseUrl}/`,
      );
      console.log(`database ${database.url}; sign in as ${seed.browserEmails[0]} / ${seed.password}. Ctrl-C stops.`);
      await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
      return;
    }

    // Signed-in shoppers: page sessions for GET /cart, API tokens for checkout.
    const cookies = await inBatches(seed.browserEmails, (email) => pageLogin(store!, email, seed.password));
    const checkoutTokens = await inBatches(seed.checkoutEmails, (email) => apiLogin(store!, email, seed.password));
    const lastUnitsTokens = await inBatches(seed.lastUnitEmails, (email) => apiLogin(store!, email, seed.password));

    const common: PlanCommon = { duration, warmup, connections, postmasterPid: database.postmasterPid };
    const baselineOf = (kind: "express" | "page", planConnections: number) =>
      baselinePlan(common, options.encoding, baseline!, kind, planConnections);
    const baselineRuns: LoadResult[] = [];
    const scenarios: LoadResult[] = [];
    const measure = async (plan: LoadPlan) => {
      const result = await runBracketed(plan, baselineOf(plan.baseline!, plan.connections));
      baselineRuns.push(result.bracket!.before, result.bracket!.after);
      scenarios.push(result);
    };

    console.log(
      `Measuring: per scenario ${warmup} s warm-up, then its baseline ${duration / 2} s, the scenario ${duration} s, the baseline ${duration / 2} s again.`,
    );
    await warmUp(baselineOf("express", connections));
    await warmUp(baselineOf("page", connections));
    const shop = { products, sampleProductIds: seed.sampleProductIds, cookies };
    for (const plan of storePlans(common, options.encoding, store, shop)) {
      if (!only || only.has(plan.id)) await measure(plan);
    }

    let checkout = null;
    let lastUnits = null;
    if (!only || only.has("checkout")) {
      ({ checkout, lastUnits } = await runCheckoutAndLastUnits({
        db: database.db,
        server: store,
        seed,
        checkoutTokens,
        lastUnitsTokens,
        codRules: options.codRules,
        shoppers,
        encoding: options.encoding,
        postmasterPid: database.postmasterPid,
        statementStats: database.statementStats,
      }));
      scenarios.push(checkout);
    }
    if (runsLarge) {
      // The same uncached pages on a catalogue ten times larger: what the database's share
      // becomes (exact counts, deep pages, broad searches) when there are 100,000 products.
      await store.stop();
      store = null;
      console.log(`Seeding ${large.toLocaleString("en")} products for the large-catalogue rows…`);
      largeDatabase = await openBenchDatabase({ keep: false });
      const largeSeed = await seedBenchData(largeDatabase.db, {
        products: large,
        users: 0,
        orders: 0,
        browsers: 0,
        checkoutShoppers: 0,
        lastUnitShoppers: 0,
      });
      console.log(`Seeded in ${largeSeed.seconds.toFixed(1)} s.`);
      largeSearchTerms = await timeSearchTerms(largeDatabase.db, SEARCH_TERMS);
      // Profiled as the first store was: the newest profile is the one summarised (profile.ts), so a
      // run of large rows only reports where their time went.
      store = await startStore({
        databaseUrl: largeDatabase.url,
        nodeFlags: options.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
      });
      const waited = await waitUntilIdle(store.pid);
      console.log(
        `The store read the filters' index of ${large.toLocaleString("en")} products in ${waited.toFixed(1)} s.`,
      );
      const largeCommon = { ...common, postmasterPid: largeDatabase.postmasterPid };
      for (const plan of largeCataloguePlans(largeCommon, options.encoding, store, large)) {
        if (!only || only.has(plan.id)) await measure(plan);
      }
    }

    const mean = (id: string) => {
      const runs = baselineRuns.filter((run) => run.id === id && run.connections === connections);
      return runs.length ? runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length : 0;
    };
    const baselineRps = { express: mean("baseline-express"), page: mean("baseline-page") };

    await store?.stop();
    store = null;
    await baseline.stop();
    baseline = null;

    const result: BenchResult = {
      date: new Date().toISOString(),
      commit: gitCommit(),
      machine: machine(loadAverageAtStart),
      options: {
        products,
        duration,
        warmup,
        connections,
        shoppers,
        orders: checkoutOrders,
        encoding: options.encoding,
        only: only ? [...only] : null,
      },
      seed: {
        products: seed.products,
        users,
        orders: seed.orders,
        checkoutProducts: seed.checkoutProductIds.length,
        seconds: seed.seconds,
      },
      searchTerms,
      large: runsLarge ? { products: large, searchTerms: largeSearchTerms ?? [] } : null,
      baselineRuns,
      baselineRps,
      scenarios,
      checkout: checkout
        ? {
            orders: checkout.orders,
            seconds: checkout.seconds,
            ordersPerSecond: checkout.ordersPerSecond,
            oversell: checkout.oversell,
          }
        : null,
      lastUnits,
      targets: [],
      profile: options.cpuProf ? summariseProfiles(profileDir) : null,
      seconds: 0,
    };
    result.targets = evaluateTargets(result);
    result.seconds = (Date.now() - started) / 1000;
    writeResults(result, { outDir: options.outDir, stem: options.stem, products, only });
  } finally {
    await store?.stop();
    await baseline?.stop();
    await whatsapp?.stop();
    await largeDatabase?.close();
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
