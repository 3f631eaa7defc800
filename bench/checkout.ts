import type { Knex } from "knex";
import { runLoad, type LoadResult } from "./load";
import type { Seeded, StatementStats } from "./database";
import type { Started } from "./processes";

/**
 * Checkout under load: shoppers whose carts hold one to three lines (seeded in SQL, from products
 * with plenty of stock) place their orders, `connections` at a time (POST /api/v1/orders, each
 * request with the next shopper's token, so no two requests share a cart). A first batch warms
 * the server up; the second is measured. Afterwards the stock is checked in SQL.
 */

const ADDRESS = {
  address: { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
  // As the checkout page sends it: every order gets its confirmation text (a file, or WhatsApp with --messaging).
  phone: "0300-1234567",
};

/** The checkout shopper's own mobile number (the index-th shopper's, 0301…). */
const shopperPhone = (index: number) => `0301${String(1_000_000 + index).padStart(7, "0")}`;
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" };

export type CheckoutResult = LoadResult & {
  orders: number;
  ordersPerSecond: number;
  oversell: StockCheck;
};

export type StockCheck = {
  products: number;
  /** Orders made during the run (warm-up included), from the database. */
  ordersInDatabase: number;
  unitsOrdered: number;
  unitsTakenFromStock: number;
  lowestStock: number;
  ok: boolean;
};

/** Orders placed to warm the server up before checkout is measured. */
export const WARMUP_ORDERS = 200;
/** Shoppers who all order the last units of one product at once. */
export const LAST_UNIT_SHOPPERS = 50;

/**
 * Checkout measured (with every cash-on-delivery rule on when `codRules`), then the last units of
 * a product none of its shoppers bought, each with its line on the console.
 */
export async function runCheckoutAndLastUnits(options: {
  db: Knex;
  server: Started;
  seed: Pick<Seeded, "checkoutProductIds" | "sampleProductIds">;
  checkoutTokens: string[];
  lastUnitsTokens: string[];
  codRules: boolean;
  shoppers: number;
  encoding: string;
  postmasterPid: number | null;
  /** With --pg-stats: checkout's statements are counted and printed per order. */
  statementStats: StatementStats | null;
}): Promise<{ checkout: CheckoutResult; lastUnits: LastUnitsResult }> {
  const { db, server, seed } = options;
  await setCodRules(db, options.codRules);
  await options.statementStats?.reset();
  process.stdout.write(`  ${"checkout".padEnd(18)} `);
  const checkout = await runCheckout({
    db,
    server,
    tokens: options.checkoutTokens,
    warmupOrders: WARMUP_ORDERS,
    productIds: seed.checkoutProductIds,
    connections: options.shoppers,
    encoding: options.encoding,
    postmasterPid: options.postmasterPid,
  });
  console.log(
    `${checkout.ordersPerSecond.toFixed(1).padStart(6)} orders/s  p50 ${checkout.latencyMs.p50} ms  p99 ${checkout.latencyMs.p99} ms  errors ${checkout.errors}` +
      `  queries/req ${checkout.queries?.perRequest.toFixed(1)} (max ${checkout.queries?.max})  stock ${checkout.oversell.ok ? "consistent" : "INCONSISTENT"}`,
  );
  if (options.statementStats) {
    await printStatementStats(db, options.statementStats, checkout.oversell.ordersInDatabase);
  }
  const lastProduct = seed.sampleProductIds.find((id) => !seed.checkoutProductIds.includes(id))!;
  const lastUnits = await runLastUnits({
    db,
    server,
    tokens: options.lastUnitsTokens,
    productId: lastProduct,
    stock: 20,
  });
  console.log(
    `  ${"last-units".padEnd(18)} ${lastUnits.shoppers} shoppers, ${lastUnits.stock} units: ${lastUnits.placed} placed, ${lastUnits.refused} refused, stock after ${lastUnits.stockAfter} → ${lastUnits.ok ? "no oversell" : "WRONG"}`,
  );
  return { checkout, lastUnits };
}

export async function runCheckout(options: {
  db: Knex;
  server: Started;
  /** Tokens of shoppers with a full cart: the first `warmupOrders` warm up, the rest are measured. */
  tokens: string[];
  warmupOrders: number;
  productIds: string[];
  connections: number;
  postmasterPid: number | null;
  encoding: string;
}): Promise<CheckoutResult> {
  const { db, productIds, tokens } = options;
  const before = await stockSnapshot(db, productIds);
  const startedAt = await db.raw("SELECT now() AS now").then((result) => result.rows[0].now as Date);

  let next = 0;
  let orders = 0;
  const result = await runLoad({
    id: "checkout",
    title: `Checkout: POST /api/v1/orders, ${options.connections} shoppers at once`,
    // A transaction of several statements has no fair baseline among the bare handlers.
    baseline: null,
    server: options.server,
    connections: options.connections,
    duration: 0,
    warmup: 0,
    warmupAmount: options.warmupOrders,
    amount: tokens.length - options.warmupOrders,
    postmasterPid: options.postmasterPid,
    headers: { ...JSON_HEADERS, "accept-encoding": options.encoding },
    expected: (status) => status === 201,
    requests: [
      {
        method: "POST",
        path: "/api/v1/orders",
        body: JSON.stringify(ADDRESS),
        setupRequest: (request) => {
          // Past the end (autocannon builds one request ahead), a shopper whose cart is empty.
          const index = Math.min(next++, tokens.length - 1);
          const token = tokens[index]!;
          request.headers = { ...request.headers, authorization: `Bearer ${token}` };
          // Each shopper orders with a mobile number of its own, as real shoppers do, with the
          // cash-on-delivery rules on or off: the two runs differ only in the rules (with one
          // number for all, the rules would make every checkout wait for that phone's lock, and
          // its open orders would soon be refused).
          request.body = JSON.stringify({ ...ADDRESS, phone: shopperPhone(index) });
          return request;
        },
      },
    ],
    onAnswer: (status) => {
      if (status === 201) orders += 1;
    },
  });

  // Requests cut off at the end of the run may still be finishing on the server.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await stockSnapshot(db, productIds);
  const [{ count }] = (await db("orders").where("createdAt", ">=", startedAt).count({ count: "*" })) as {
    count: number;
  }[];
  const unitsOrdered = after.ordered - before.ordered;
  const unitsTakenFromStock = before.stock - after.stock;
  return {
    ...result,
    orders,
    ordersPerSecond: orders / result.seconds,
    oversell: {
      products: productIds.length,
      ordersInDatabase: Number(count),
      unitsOrdered,
      unitsTakenFromStock,
      lowestStock: after.lowest,
      ok: unitsOrdered === unitsTakenFromStock && after.lowest >= 0,
    },
  };
}

/**
 * The merchant's cash-on-delivery rules for the checkout scenario: off (the default run, as the
 * bench measured checkout before the rules), or every rule on (--cod-rules) with limits no bench
 * order reaches and a blocklist of one phone and one email, so that each checkout takes the
 * phone's lock, reads its record and judges every rule, and none is refused.
 */
export async function setCodRules(db: Knex, on: boolean): Promise<void> {
  await db.raw(
    on
      ? `UPDATE order_rules SET block_after_returns = 2, first_time_cod_limit = 100000000, cod_limit = 100000000,
                                open_cod_orders = 1000000`
      : `UPDATE order_rules SET block_after_returns = NULL, first_time_cod_limit = NULL, cod_limit = NULL,
                                open_cod_orders = NULL`,
  );
  await db.raw("DELETE FROM order_blocklist");
  if (on) {
    await db.raw(
      `INSERT INTO order_blocklist (kind, value, note, added_by_name)
       VALUES ('phone', '+923009999999', 'bench', 'bench'), ('email', 'blocked@bench.test', 'bench', 'bench')`,
    );
  }
}

async function stockSnapshot(db: Knex, productIds: string[]) {
  const stock = await db("products")
    .whereIn("id", productIds)
    .first(db.raw("COALESCE(SUM(stock), 0)::bigint AS total"), db.raw("MIN(stock) AS lowest"));
  const ordered = await db("order_items")
    .join("orders", "orders.id", "order_items.order_id")
    .whereIn("order_items.product_id", productIds)
    .whereNot("orders.status", "Cancelled")
    .first(db.raw("COALESCE(SUM(order_items.quantity), 0)::bigint AS total"));
  return { stock: Number(stock.total), lowest: Number(stock.lowest), ordered: Number(ordered.total) };
}

export type LastUnitsResult = {
  shoppers: number;
  stock: number;
  placed: number;
  refused: number;
  otherStatuses: Record<string, number>;
  stockAfter: number;
  unitsOrdered: number;
  seconds: number;
  ok: boolean;
};

/**
 * The last units: a product with `stock` units left in the carts of more shoppers than that,
 * who all press Place Order at the same moment. Exactly `stock` orders may succeed (201), the
 * rest are refused with 409, and the stock ends at zero.
 */
export async function runLastUnits(options: {
  db: Knex;
  server: Started;
  tokens: string[];
  productId: string;
  stock: number;
}): Promise<LastUnitsResult> {
  const { db, server, tokens, productId, stock } = options;
  await db("products").where({ id: productId }).update({ stock });
  const before = await orderedUnits(db, productId);
  for (const token of tokens) {
    const response = await api(server, "DELETE", "/cart", token);
    if (response.status !== 200) throw new Error(`clearing a cart: ${response.status}`);
    const added = await api(server, "POST", "/cart", token, { productId, quantity: 1 });
    if (added.status !== 200) throw new Error(`adding the last units: ${added.status}`);
  }
  const started = performance.now();
  const statuses = await Promise.all(
    tokens.map((token) => api(server, "POST", "/orders", token, ADDRESS).then((response) => response.status)),
  );
  const seconds = (performance.now() - started) / 1000;
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  const stockAfter = Number((await db("products").where({ id: productId }).first("stock")).stock);
  const unitsOrdered = (await orderedUnits(db, productId)) - before;
  const placed = counts["201"] ?? 0;
  const refused = counts["409"] ?? 0;
  const { 201: _placed, 409: _refused, ...otherStatuses } = counts;
  return {
    shoppers: tokens.length,
    stock,
    placed,
    refused,
    otherStatuses,
    stockAfter,
    unitsOrdered,
    seconds,
    ok: placed === stock && refused === tokens.length - stock && stockAfter === 0 && unitsOrdered === stock,
  };
}

async function orderedUnits(db: Knex, productId: string): Promise<number> {
  const row = await db("order_items").where({ productId }).first(db.raw("COALESCE(SUM(quantity), 0)::bigint AS total"));
  return Number(row.total);
}

async function api(server: Started, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response;
}

/**
 * Checkout's statements per order, once the queue has sent the orders' mails and texts (their
 * jobs' statements count too): wall time in PostgreSQL, lock waits included.
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
