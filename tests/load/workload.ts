import crypto from "node:crypto";
import type http from "node:http";
import { jsonOf, send, textOf, type Sent, type Target } from "./http-load";
import type { Store } from "./environment";

/**
 * The mixed workload: guests reading pages, API clients reading the catalogue, signed-in API
 * customers looking at their cart and orders and buying (add to cart, then check out), and
 * signed-in shoppers on the cart and My Orders pages (a session cookie: the page-session store).
 */
export type Shopper = { token: string; cookie: string };

export type Workload = {
  target: Target;
  agent: http.Agent;
  store: Store;
  shoppers: Shopper[];
  timeoutMs: number;
  /** Every answer, as it comes. */
  record(sent: Sent): void;
  /** Orders the server acknowledged (201), with the id it gave. */
  acknowledged: { id: string; at: number }[];
};

type Action = { name: string; weight: number; run(load: Workload, shopper: Shopper): Promise<void> };

const HTML = { accept: "text/html,application/xhtml+xml" };
const JSON_ACCEPT = { accept: "application/json" };
const ADDRESS = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

async function get(load: Workload, kind: string, path: string, headers: Record<string, string>) {
  const sent = await send(load.agent, load.target, { kind, path, headers }, load.timeoutMs);
  load.record(sent);
  return sent;
}

async function api(
  load: Workload,
  kind: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const sent = await send(
    load.agent,
    load.target,
    {
      kind,
      method,
      path: `/api/v1${path}`,
      headers: {
        ...JSON_ACCEPT,
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...extra,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    load.timeoutMs,
  );
  load.record(sent);
  return sent;
}

export const ACTIONS: Action[] = [
  { name: "page /", weight: 8, run: (load) => get(load, "page /", "/", HTML).then(() => {}) },
  { name: "page /products", weight: 8, run: (load) => get(load, "page /products", "/products", HTML).then(() => {}) },
  {
    name: "page /products?search",
    weight: 6,
    run: (load) =>
      get(
        load,
        "page /products?search",
        `/products?search=${encodeURIComponent(pick(load.store.searchTerms))}`,
        HTML,
      ).then(() => {}),
  },
  {
    name: "page /products/:id",
    weight: 10,
    run: (load) => get(load, "page /products/:id", `/products/${pick(load.store.products).id}`, HTML).then(() => {}),
  },
  { name: "page /about", weight: 4, run: (load) => get(load, "page /about", "/about", HTML).then(() => {}) },
  {
    name: "page /cart (signed in)",
    weight: 4,
    run: (load, shopper) =>
      get(load, "page /cart (signed in)", "/cart", { ...HTML, cookie: shopper.cookie }).then(() => {}),
  },
  {
    name: "page /my-orders (signed in)",
    weight: 3,
    run: (load, shopper) =>
      get(load, "page /my-orders (signed in)", "/my-orders", { ...HTML, cookie: shopper.cookie }).then(() => {}),
  },
  {
    name: "api GET /products",
    weight: 12,
    run: (load) => {
      const variant = pick([
        "",
        "&page=2",
        "&category=Men",
        "&category=Women&sort=price",
        `&search=${encodeURIComponent(pick(load.store.searchTerms))}`,
      ]);
      return get(load, "api GET /products", `/api/v1/products?limit=12${variant}`, JSON_ACCEPT).then(() => {});
    },
  },
  {
    name: "api GET /products/:id",
    weight: 10,
    run: (load) =>
      get(load, "api GET /products/:id", `/api/v1/products/${pick(load.store.products).id}`, JSON_ACCEPT).then(
        () => {},
      ),
  },
  {
    name: "api GET /cart",
    weight: 9,
    run: (load, shopper) => api(load, "api GET /cart", "GET", "/cart", shopper.token).then(() => {}),
  },
  {
    name: "api GET /orders/me",
    weight: 8,
    run: (load, shopper) => api(load, "api GET /orders/me", "GET", "/orders/me", shopper.token).then(() => {}),
  },
  {
    name: "api purchase",
    weight: 18,
    async run(load, shopper) {
      // One in five purchases goes for a scarce watch, which many shoppers want at once.
      const scarce = Math.random() < 0.2 && load.store.scarceProductIds.length > 0;
      const productId = scarce ? pick(load.store.scarceProductIds) : pick(load.store.products).id;
      const added = await api(load, "api POST /cart", "POST", "/cart", shopper.token, {
        productId,
        quantity: 1 + Math.floor(Math.random() * 2),
      });
      if (added.status !== 200) return;
      const placed = await api(
        load,
        "api POST /orders",
        "POST",
        "/orders",
        shopper.token,
        { address: ADDRESS },
        {
          "idempotency-key": crypto.randomUUID(),
        },
      );
      if (placed.status === 201) {
        const id = jsonOf(placed)?.data?._id;
        if (typeof id === "string") load.acknowledged.push({ id, at: placed.endedAt });
      } else if (placed.status === 409 || placed.status === 503) {
        // Not enough stock any more (or the database is away): start again with an empty cart.
        await api(load, "api DELETE /cart", "DELETE", "/cart", shopper.token);
      }
    },
  },
];

const TOTAL_WEIGHT = ACTIONS.reduce((sum, action) => sum + action.weight, 0);

function pickAction(): Action {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const action of ACTIONS) {
    roll -= action.weight;
    if (roll < 0) return action;
  }
  return ACTIONS.at(-1)!;
}

/**
 * `connections` shoppers, each doing one action after another until `keepGoing` says stop, or,
 * with `stopWhenRefused`, until the server refuses its connection (it is gone for good).
 */
export async function runWorkload(
  load: Workload,
  connections: number,
  keepGoing: () => boolean,
  options: { stopWhenRefused?: boolean } = {},
): Promise<void> {
  await Promise.all(
    Array.from({ length: connections }, async (_, index) => {
      const shopper = load.shoppers[index % load.shoppers.length]!;
      let refused = false;
      const own: Workload = {
        ...load,
        record(sent) {
          load.record(sent);
          if (sent.error?.startsWith("ECONNREFUSED")) refused = true;
        },
      };
      while (keepGoing() && !(options.stopWhenRefused && refused)) await pickAction().run(own, shopper);
    }),
  );
}

/** Expected answers of a healthy store, per kind of request. */
const EXPECTED: Record<string, number[]> = {
  "api POST /cart": [200, 409],
  "api POST /orders": [201, 409, 400],
};

export function isExpected(sent: Sent): boolean {
  if (sent.status === 0) return false;
  return (EXPECTED[sent.kind] ?? [200]).includes(sent.status);
}

export const UNAVAILABLE_MESSAGE = "Service temporarily unavailable";
export const BUSY_PAGE_TEXT = "The store is busy or under maintenance";

/** A clean "the database is away" answer: the API's 503 envelope, or the 503 error page. */
export function cleanUnavailable(sent: Sent): { clean: boolean; why?: string } {
  if (sent.status !== 503) return { clean: false, why: `status ${sent.status}` };
  if (sent.path.startsWith("/api/v1")) {
    const body = jsonOf(sent);
    const clean =
      body && body.success === false && body.message === UNAVAILABLE_MESSAGE && Object.keys(body).length === 2;
    return clean ? { clean: true } : { clean: false, why: `API 503 body ${textOf(sent).slice(0, 120)}` };
  }
  const html = textOf(sent);
  const clean = String(sent.headers["content-type"] ?? "").startsWith("text/html") && html.includes(BUSY_PAGE_TEXT);
  return clean ? { clean: true } : { clean: false, why: `page 503 without the error screen: ${html.slice(0, 120)}` };
}

/** Signs every load customer in: an API token, and a page session through the log-in form. */
export async function signIn(
  target: Target,
  agent: http.Agent,
  customers: { email: string }[],
  password: string,
  concurrency = 8,
): Promise<Shopper[]> {
  const shoppers: Shopper[] = new Array(customers.length);
  let next = 0;
  const origin = `http://${target.host}:${target.port}`;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < customers.length) {
        const index = next++;
        const { email } = customers[index]!;
        const login = await send(
          agent,
          target,
          {
            kind: "setup",
            method: "POST",
            path: "/api/v1/auth/login",
            headers: { "content-type": "application/json", ...JSON_ACCEPT },
            body: JSON.stringify({ email, password }),
          },
          30_000,
        );
        const token = jsonOf(login)?.data?.token;
        if (login.status !== 200 || typeof token !== "string") {
          throw new Error(
            `API log-in of ${email} failed: ${login.status} ${login.error ?? textOf(login).slice(0, 200)}`,
          );
        }
        const form = await send(
          agent,
          target,
          {
            kind: "setup",
            method: "POST",
            path: "/login",
            headers: { "content-type": "application/x-www-form-urlencoded", origin },
            body: new URLSearchParams({ email, password, redirectTo: "" }).toString(),
          },
          30_000,
        );
        const setCookie = (form.headers["set-cookie"] ?? []).find((cookie) => cookie.startsWith("waqt.sid="));
        if (form.status !== 303 || !setCookie) {
          throw new Error(`page log-in of ${email} failed: ${form.status} ${form.error ?? textOf(form).slice(0, 200)}`);
        }
        shoppers[index] = { token, cookie: setCookie.split(";")[0]! };
      }
    }),
  );
  return shoppers;
}
