import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "./processes";
import { LARGE_IDS } from "./scenarios";

/** `npm run bench`'s command line: its options, checked, and what follows from them. */

export const HELP = `npm run bench -- [options]
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

/** The options given, or the help printed, or a wrong value named, and the process ended. */
export function readBenchOptions() {
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
  const only = args.only ? new Set(args.only.split(",").map((id) => id.trim())) : null;
  const large = Number(args.large);
  if (!Number.isInteger(large) || large < 0) {
    console.error("--large must be a whole number");
    process.exit(2);
  }
  const runsLarge = large > products && (!only || LARGE_IDS.some((id) => only.has(`${id}-large`)));
  const outDir = path.resolve(ROOT, args.out ?? (only ? "bench/results/tmp" : "bench/results"));
  const stem = products === 10000 ? "bench" : `bench-${products}`;
  return {
    products,
    duration,
    warmup,
    connections,
    shoppers,
    checkoutOrders,
    only,
    large,
    runsLarge,
    outDir,
    stem,
    encoding: args.encoding!,
    skipBuild: args["skip-build"]!,
    cpuProf: args["cpu-prof"]!,
    lighthouse: args.lighthouse!,
    keep: args.keep!,
    messaging: args.messaging!,
    codRules: args["cod-rules"]!,
    pgStats: args["pg-stats"]!,
    serve: args.serve!,
  };

  function positive(name: "products" | "duration" | "connections" | "shoppers" | "orders"): number {
    const value = Number(args[name]);
    if (!Number.isInteger(value) || value <= 0) {
      console.error(`--${name} must be a positive whole number`);
      process.exit(2);
    }
    return value;
  }
}
