/**
 * `npm run bench`: seeds a large catalogue into a database of its own, starts the built store and
 * the baselines as production processes, drives them with autocannon over loopback and writes
 * bench/results/bench.{json,md} and throughput.svg. `npm run bench -- --help` lists the options.
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Knex } from "knex";
import { runCheckout, runLastUnits, setCodRules } from "./checkout";
import { FakeWhatsAppCloud, messagingSettings } from "../tests/support/messaging-fakes";
import { openBenchDatabase, seedBenchData, timeSearchTerms, type StatementStats } from "./database";
import { runLoad, warmUp, type LoadPlan, type LoadRequest, type LoadResult } from "./load";
import { buildBaseline, buildStore, ROOT, startBaseline, startStore, type Started } from "./processes";
import { summariseProfiles } from "./profile";
import { evaluateTargets, renderMarkdown, renderSvg, type BenchResult } from "./report";

const HELP = `npm run bench -- [options]
  --products N          catalogue size (default 10000)
  --duration S          seconds measured per scenario (default 8)
  --warmup S            seconds of warm-up before each (default 3)
  --connections N       concurrent connections of the read scenarios (default 10)
  --shoppers N          concurrent shoppers in checkout (default 50)
  --orders N            orders measured in checkout, after 200 to warm up (default 1000)
  --encoding E          Accept-Encoding sent (default "gzip, deflate, br", as browsers do; "identity" for none)
  --large N             the default run then measures the uncached catalogue and search rows again on a
                        catalogue of N products (default 100000; 0 to leave them out; not with --only
                        unless its ids end in "-large")
  --only a,b            only these scenarios (ids as in the table; baselines always run)
  --skip-build          use the existing builds as they are
  --cpu-prof            profile the store process (node --cpu-prof) and print where its time went
  --lighthouse          also run the Lighthouse audits (npm run bench:lighthouse)
                        (the image weight of each page type, npm run bench:images, runs unless
                        --only leaves "images" out; --only images runs only it)
                        (the WAL archive's growth on a quiet store, npm run bench:archive, runs
                        unless --only leaves "archive" out; --only archive runs only it)
                        (each report over 100,000 orders, npm run bench:reports, runs unless --only
                        leaves "reports" out; --only reports runs only it)
  --messaging           order confirmations by WhatsApp to a local fake of the Cloud API (without it,
                        each confirmation text is a file under DATA_DIR): checkout's cost of messaging
  --cod-rules           checkout with every cash-on-delivery rule on (limits no order reaches, a
                        blocklist): the rules' cost is the ratio to a run without it (the rules off,
                        as a merchant may set them; the same shoppers, numbers and carts)
  --pg-stats            count checkout's statements with pg_stat_statements (nested ones, in triggers and
                        functions, included; the job queue's too) and print them by time per order
  --keep                keep the bench database (and print its URL)
  --serve               seed and start the store and the baselines, print their addresses and wait
                        for Ctrl-C (to look around, profile or audit by hand)
  --out DIR             where to write results (default bench/results; bench/results/tmp with --only)
Environment: BENCH_DATABASE_URL (a maintenance database URL) to use a PostgreSQL server instead
of a temporary embedded cluster.`;

const { values: args } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    large: { type: "string", default: "100000" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    shoppers: { type: "string", default: "50" },
    orders: { type: "string", default: "1000" },
    encoding: { type: "string", default: "gzip, deflate, br" },
    only: { type: "string" },
    "skip-build": { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    lighthouse: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    messaging: { type: "boolean", default: false },
    "cod-rules": { type: "boolean", default: false },
    "pg-stats": { type: "boolean", default: false },
    serve: { type: "boolean", default: false },
    out: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const products = positive("products");
const duration = positive("duration");
const warmup = Number(args.warmup);
const connections = positive("connections");
const shoppers = positive("shoppers");
const checkoutOrders = positive("orders");
const WARMUP_ORDERS = 200;
const LAST_UNIT_SHOPPERS = 50;
const only = args.only ? new Set(args.only.split(",").map((id) => id.trim())) : null;
const large = Number(args.large);
if (!Number.isInteger(large) || large < 0) {
  console.error("--large must be a whole number");
  process.exit(2);
}
/** The scenarios measured again on the large catalogue: those the page cache does not answer. */
const LARGE_IDS = [
  "products-miss",
  "products-deep-miss",
  "search-miss",
  "search-miss-1c",
  "products-filtered-miss",
  "api-products-filtered-miss",
];
/** Filtered catalogue pages, each with its counts (docs/product.md, "Filters"). */
const FILTERED_PATHS = [
  "/products?brand=casio&movement=Quartz",
  "/products?movement=Automatic&caseSize=40-44",
  "/products?category=Men&waterResistance=100&feature=date",
  "/products?brand=seiko&brand=citizen&strap=Stainless%20steel",
  "/products?dial=Blue&maxPrice=100000",
];
/** The same views through the API, with their counts (`facets=1`) and the page's 12 products. */
const FILTERED_API_PATHS = FILTERED_PATHS.map(
  (view) => `${view.replace("/products?", "/api/v1/products?")}&facets=1&limit=12`,
);
const runsLarge = large > products && (!only || LARGE_IDS.some((id) => only.has(`${id}-large`)));
const outDir = path.resolve(ROOT, args.out ?? (only ? "bench/results/tmp" : "bench/results"));
const stem = products === 10000 ? "bench" : `bench-${products}`;

function positive(name: "products" | "duration" | "connections" | "shoppers" | "orders"): number {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`--${name} must be a positive whole number`);
    process.exit(2);
  }
  return value;
}

const CHROME_UA =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
/** What a browser sends, so that pages are compressed as they would be for a shopper. */
const PAGE_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": args.encoding!,
  "accept-language": "en-PK,en;q=0.9",
  "user-agent": CHROME_UA,
};
const API_HEADERS = { accept: "application/json", "accept-encoding": args.encoding! };
const SEARCH_TERMS = ["omega", "chronograph", "chrono", "GA-2100", "tissot seastar", "leather strap"];

async function main() {
  const started = Date.now();
  if (!args["skip-build"]) {
    buildStore();
    buildBaseline();
  }
  // First, so that the report below includes its scores.
  if (args.lighthouse) execSync("npx tsx bench/lighthouse.ts --skip-build", { cwd: ROOT, stdio: "inherit" });
  // Image bytes per page type, with photos uploaded to a small catalogue of its own.
  if (!args.serve && (!only || only.has("images"))) {
    const imagesOut = only ? "bench/results/tmp" : "bench/results";
    execSync(`npx tsx bench/images.ts --skip-build --out ${imagesOut}`, { cwd: ROOT, stdio: "inherit" });
    if (only?.size === 1) return;
  }
  // The WAL archive's growth on a quiet store: an order a minute, simulated (about three minutes).
  if (!args.serve && (!only || only.has("archive"))) {
    const archiveOut = only ? "bench/results/tmp" : "bench/results";
    execSync(`npx tsx bench/wal-archive.ts --out ${archiveOut}`, { cwd: ROOT, stdio: "inherit" });
    if (only?.size === 1) return;
  }
  // Each report over 100,000 orders of a year, 30 days and the year (bench/reports.ts, a few minutes).
  if (!args.serve && (!only || only.has("reports"))) {
    const reportsOut = only ? "bench/results/tmp" : "bench/results";
    execSync(`npx tsx bench/reports.ts --skip-build --out ${reportsOut}`, { cwd: ROOT, stdio: "inherit" });
    if (only?.size === 1) return;
  }
  const loadAverageAtStart = os.loadavg();

  console.log(`Seeding ${products.toLocaleString("en")} products…`);
  const database = await openBenchDatabase({ keep: args.keep, statementStats: args["pg-stats"] });
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
    if (args["cpu-prof"]) fs.rmSync(profileDir, { recursive: true, force: true });
    baseline = await startBaseline();
    if (args.messaging) whatsapp = await new FakeWhatsAppCloud().start();
    store = await startStore({
      databaseUrl: database.url,
      nodeFlags: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
      env: whatsapp ? messagingSettings(whatsapp, null) : {},
    });

    if (args.serve) {
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

    const common = { duration, warmup, connections, postmasterPid: database.postmasterPid };
    const page = (id: string, title: string, paths: string[], extra: Partial<LoadPlan> = {}): LoadPlan => ({
      ...common,
      id,
      title,
      baseline: "page",
      server: store!,
      headers: PAGE_HEADERS,
      requests: rotating(paths),
      ...extra,
    });
    const searchPaths = SEARCH_TERMS.map((term) => `/products?search=${encodeURIComponent(term)}`);
    const deepPage = Math.max(1, Math.floor(Math.ceil(products / 12) * 0.9));
    const baselinePlan = (kind: "express" | "page", planConnections: number): LoadPlan =>
      kind === "express"
        ? {
            ...common,
            connections: planConnections,
            id: "baseline-express",
            title: "Baseline: bare Express JSON",
            baseline: null,
            server: baseline!,
            headers: API_HEADERS,
            requests: [{ path: "/json" }],
          }
        : {
            ...common,
            connections: planConnections,
            id: "baseline-page",
            title: "Baseline: bare React Router page",
            baseline: null,
            server: baseline!,
            headers: PAGE_HEADERS,
            requests: [{ path: "/" }],
          };
    let cartTurn = 0;
    const storePlans: LoadPlan[] = [
      page("home", "Guest GET /", ["/"]),
      page("products", "Guest GET /products (page 1)", ["/products"]),
      page("products-miss", "Guest GET /products, page cache missed", ["/products?page=1"], {
        requests: uncached(["/products?page=1"]),
      }),
      page("products-deep", `Guest GET /products?page=${deepPage}`, [`/products?page=${deepPage}`]),
      page("products-deep-miss", `Guest GET /products?page=${deepPage}, page cache missed`, [], {
        requests: uncached([`/products?page=${deepPage}`]),
      }),
      page("search", `Guest search (${SEARCH_TERMS.length} terms)`, searchPaths),
      page("search-miss", "Guest search, page cache missed", [], { requests: uncached(searchPaths) }),
      page("search-miss-1c", "Guest search, page cache missed, 1 connection", [], {
        requests: uncached(searchPaths),
        connections: 1,
      }),
      page(
        "product",
        "Guest GET /products/{id}",
        seed.sampleProductIds.map((id) => `/products/${id}`),
      ),
      page("cart", `Signed-in GET /cart (${cookies.length} shoppers)`, ["/cart"], {
        requests: [
          {
            path: "/cart",
            setupRequest: (request) => {
              cartTurn = (cartTurn + 1) % cookies.length;
              request.headers = { ...request.headers, cookie: cookies[cartTurn]! };
              return request;
            },
          },
        ],
      }),
      {
        ...common,
        id: "api-products",
        title: "API GET /api/v1/products?limit=12",
        baseline: "express",
        server: store,
        headers: API_HEADERS,
        requests: [{ path: "/api/v1/products?limit=12" }],
      },
      {
        ...common,
        id: "api-products-miss",
        title: "API GET /api/v1/products?limit=12, cache missed",
        baseline: "express",
        server: store,
        headers: API_HEADERS,
        requests: uncached(["/api/v1/products?limit=12"]),
      },
    ];

    const baselineRuns: LoadResult[] = [];
    const scenarios: LoadResult[] = [];
    // The machine is shared and its load drifts, so each scenario's baseline is measured right
    // before and right after it (half the duration each, same connections): B S B.
    const runBracketed = async (plan: LoadPlan) => {
      process.stdout.write(`  ${plan.id.padEnd(18)} `);
      await warmUp(plan);
      const base = { ...baselinePlan(plan.baseline!, plan.connections), duration: Math.max(1, duration / 2) };
      const before = await runLoad(base, { warmUp: false });
      const result = await runLoad(plan, { warmUp: false });
      const after = await runLoad(base, { warmUp: false });
      baselineRuns.push(before, after);
      result.bracket = { before, after };
      result.ratio = result.requestsPerSecond / ((before.requestsPerSecond + after.requestsPerSecond) / 2);
      const baseCpu = (before.cpuMsPerRequest.server + after.cpuMsPerRequest.server) / 2;
      if (result.cpuMsPerRequest.server > 0) result.cpuRatio = baseCpu / result.cpuMsPerRequest.server;
      console.log(
        `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s (${result.ratio.toFixed(2)} × ${before.requestsPerSecond.toFixed(0)}/${after.requestsPerSecond.toFixed(0)})` +
          `  p50 ${result.latencyMs.p50} ms  p99 ${result.latencyMs.p99} ms  errors ${result.errors}` +
          (result.queries ? `  queries/req ${result.queries.perRequest.toFixed(1)} (max ${result.queries.max})` : ""),
      );
      return result;
    };

    console.log(
      `Measuring: per scenario ${warmup} s warm-up, then its baseline ${duration / 2} s, the scenario ${duration} s, the baseline ${duration / 2} s again.`,
    );
    await warmUp(baselinePlan("express", connections));
    await warmUp(baselinePlan("page", connections));
    for (const plan of storePlans) if (!only || only.has(plan.id)) scenarios.push(await runBracketed(plan));

    let checkout = null;
    let lastUnits = null;
    if (!only || only.has("checkout")) {
      await setCodRules(database.db, args["cod-rules"]!);
      await database.statementStats?.reset();
      process.stdout.write(`  ${"checkout".padEnd(18)} `);
      checkout = await runCheckout({
        db: database.db,
        server: store,
        tokens: checkoutTokens,
        warmupOrders: WARMUP_ORDERS,
        productIds: seed.checkoutProductIds,
        connections: shoppers,
        encoding: args.encoding!,
        postmasterPid: database.postmasterPid,
      });
      console.log(
        `${checkout.ordersPerSecond.toFixed(1).padStart(6)} orders/s  p50 ${checkout.latencyMs.p50} ms  p99 ${checkout.latencyMs.p99} ms  errors ${checkout.errors}` +
          `  queries/req ${checkout.queries?.perRequest.toFixed(1)} (max ${checkout.queries?.max})  stock ${checkout.oversell.ok ? "consistent" : "INCONSISTENT"}`,
      );
      scenarios.push(checkout);
      if (database.statementStats) {
        await printStatementStats(database.db, database.statementStats, checkout.oversell.ordersInDatabase);
      }
      const lastProduct = seed.sampleProductIds.find((id) => !seed.checkoutProductIds.includes(id))!;
      lastUnits = await runLastUnits({
        db: database.db,
        server: store,
        tokens: lastUnitsTokens,
        productId: lastProduct,
        stock: 20,
      });
      console.log(
        `  ${"last-units".padEnd(18)} ${lastUnits.shoppers} shoppers, ${lastUnits.stock} units: ${lastUnits.placed} placed, ${lastUnits.refused} refused, stock after ${lastUnits.stockAfter} → ${lastUnits.ok ? "no oversell" : "WRONG"}`,
      );
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
        nodeFlags: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
      });
      const largeDeepPage = Math.max(1, Math.floor(Math.ceil(large / 12) * 0.9));
      const suffix = ` (${large.toLocaleString("en")} products)`;
      const largePlans: LoadPlan[] = [
        page("products-miss-large", `Guest GET /products, page cache missed${suffix}`, [], {
          requests: uncached(["/products?page=1"]),
        }),
        page("products-deep-miss-large", `Guest GET /products?page=${largeDeepPage}, page cache missed${suffix}`, [], {
          requests: uncached([`/products?page=${largeDeepPage}`]),
        }),
        page("search-miss-large", `Guest search, page cache missed${suffix}`, [], { requests: uncached(searchPaths) }),
        page("search-miss-1c-large", `Guest search, page cache missed, 1 connection${suffix}`, [], {
          requests: uncached(searchPaths),
          connections: 1,
        }),
        page(
          "products-filtered-miss-large",
          `Guest GET /products with filters and counts, page cache missed${suffix}`,
          [],
          {
            requests: uncached(FILTERED_PATHS, { neverCounted: true }),
          },
        ),
        {
          ...common,
          id: "api-products-filtered-miss-large",
          title: `API GET /api/v1/products with filters and facets=1, counts never asked${suffix}`,
          baseline: "express" as const,
          server: store,
          headers: API_HEADERS,
          requests: uncached(FILTERED_API_PATHS, { neverCounted: true }),
        },
      ].map((plan) => ({ ...plan, server: store!, postmasterPid: largeDatabase!.postmasterPid }));
      for (const plan of largePlans) if (!only || only.has(plan.id)) scenarios.push(await runBracketed(plan));
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
        encoding: args.encoding!,
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
      profile: args["cpu-prof"] ? summariseProfiles(profileDir) : null,
      seconds: 0,
    };
    result.targets = evaluateTargets(result);
    result.seconds = (Date.now() - started) / 1000;

    fs.mkdirSync(outDir, { recursive: true });
    const lighthousePath = path.join(ROOT, "bench/results/lighthouse.json");
    const lighthouse = fs.existsSync(lighthousePath) ? JSON.parse(fs.readFileSync(lighthousePath, "utf8")) : null;
    const imagesPath = path.join(only ? outDir : path.join(ROOT, "bench/results"), "images.json");
    const images = fs.existsSync(imagesPath) ? JSON.parse(fs.readFileSync(imagesPath, "utf8")) : null;
    const markdown = renderMarkdown(result, {
      lighthouse,
      images,
      svgName: `${stem === "bench" ? "throughput" : `throughput-${products}`}.svg`,
    });
    fs.writeFileSync(path.join(outDir, `${stem}.json`), JSON.stringify(result, null, 2) + "\n");
    fs.writeFileSync(path.join(outDir, `${stem}.md`), markdown);
    fs.writeFileSync(
      path.join(outDir, stem === "bench" ? "throughput.svg" : `throughput-${products}.svg`),
      renderSvg(result),
    );
    console.log("\n" + markdown);
    console.log(`Written to ${path.relative(ROOT, outDir)}/ in ${result.seconds.toFixed(0)} s.`);
  } finally {
    await store?.stop();
    await baseline?.stop();
    await whatsapp?.stop();
    await largeDatabase?.close();
    await database.close();
  }
}

/** Each connection takes the next path in turn: many products, several search terms. */
function rotating(paths: string[]): LoadRequest[] {
  if (paths.length === 1) return [{ path: paths[0] }];
  let turn = 0;
  return [
    {
      path: paths[0],
      setupRequest: (request) => {
        turn = (turn + 1) % paths.length;
        request.path = paths[turn]!;
        return request;
      },
    },
  ];
}

/**
 * The same pages, each request with a query parameter never seen before (`bench=N`), which the
 * page ignores: the guest page cache, keyed by the whole URL, never has it, so every request is
 * rendered (and offered to the cache) — what a page costs when it is not cached.
 */
let uniqueTurn = 0;
/**
 * The paths in turn, each request a page-cache miss (`bench=N`, N new each time). `neverCounted`
 * also makes each a view whose counts were never asked for: a least price of N hundredths of a
 * rupee, below every product's price (so the matches stay the same), is a filter of its own, so
 * no counts kept from an earlier request can answer it.
 */
function uncached(paths: string[], options: { neverCounted?: boolean } = {}): LoadRequest[] {
  let turn = 0;
  return [
    {
      path: paths[0],
      setupRequest: (request) => {
        turn = (turn + 1) % paths.length;
        uniqueTurn += 1;
        const view = options.neverCounted ? `${paths[turn]}&minPrice=${uniqueTurn / 100}` : paths[turn]!;
        request.path = `${view}${view.includes("?") ? "&" : "?"}bench=${uniqueTurn}`;
        return request;
      },
    },
  ];
}

async function pageLogin(server: Started, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: new URLSearchParams({ email, password, redirectTo: "/" }).toString(),
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("waqt.sid="));
  if (response.status !== 303 || !cookie) throw new Error(`page log-in of ${email} failed: ${response.status}`);
  return cookie.split(";")[0]!;
}

async function apiLogin(server: Started, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (response.status !== 200 || !body.data?.token)
    throw new Error(`API log-in of ${email} failed: ${response.status}`);
  return body.data.token;
}

async function inBatches<T, R>(items: T[], work: (item: T) => Promise<R>, size = 8): Promise<R[]> {
  const results: R[] = [];
  for (let index = 0; index < items.length; index += size) {
    results.push(...(await Promise.all(items.slice(index, index + size).map(work))));
  }
  return results;
}

function gitCommit(): string {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

function machine(loadAverage: number[]) {
  let cpu = os.cpus()[0]?.model ?? "unknown";
  try {
    cpu = /model name\s*:\s*(.*)/.exec(fs.readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpu;
  } catch {
    // not Linux
  }
  return {
    cpus: os.availableParallelism(),
    cpu,
    ramGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadAverageAtStart: loadAverage.map((value) => Number(value.toFixed(2))),
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/**
 * What checkout's orders cost PostgreSQL, statement by statement (--pg-stats): once the job queue
 * has sent each order's mails and text, every statement since the scenario began (warm-up
 * included), with its calls and execution time per order. Nested statements (triggers,
 * functions) are counted both on their own and within the statement that ran them.
 */
async function printStatementStats(db: Knex, stats: StatementStats, orders: number) {
  for (let waited = 0; waited < 60_000; waited += 500) {
    const { rows } = await db.raw(
      "SELECT count(*)::int AS left FROM graphile_worker.jobs WHERE task_identifier IN ('send-mail', 'send-text')",
    );
    if (rows[0].left === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const top = await stats.top(40);
  console.log(`\nStatements per order (${orders} orders; wall time in PostgreSQL, lock waits included):`);
  console.log("   calls/order   ms/order  level   statement");
  for (const row of top) {
    const query = row.query.replace(/\s+/g, " ").slice(0, 150);
    console.log(
      `${(row.calls / orders).toFixed(2).padStart(14)} ${(row.totalMs / orders).toFixed(3).padStart(10)}  ${row.topLevel ? "top   " : "nested"}  ${query}`,
    );
  }
}
