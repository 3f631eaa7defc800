import type { LoadPlan, LoadRequest } from "./load";
import type { Started } from "./processes";

/**
 * The scenarios measured (bench/README.md, "What runs"): what each asks for, with the headers a
 * browser or an API client sends, and the two baselines they are compared with.
 */

/** What every plan of a run shares: its timing, its connections and the database watched. */
export type PlanCommon = Pick<LoadPlan, "duration" | "warmup" | "connections" | "postmasterPid">;

/** The scenarios measured again on the large catalogue: those the page cache does not answer. */
export const LARGE_IDS = [
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

const CHROME_UA =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
/** What a browser sends, so that pages are compressed as they would be for a shopper. */
const pageHeaders = (encoding: string) => ({
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": encoding,
  "accept-language": "en-PK,en;q=0.9",
  "user-agent": CHROME_UA,
});
const apiHeaders = (encoding: string) => ({ accept: "application/json", "accept-encoding": encoding });
export const SEARCH_TERMS = ["omega", "chronograph", "chrono", "GA-2100", "tissot seastar", "leather strap"];
const searchPaths = SEARCH_TERMS.map((term) => `/products?search=${encodeURIComponent(term)}`);

/** A guest page's plan on `server`: its paths in turn unless `extra` says otherwise. */
function pagePlans(common: PlanCommon, encoding: string, server: Started) {
  return (id: string, title: string, paths: string[], extra: Partial<LoadPlan> = {}): LoadPlan => ({
    ...common,
    id,
    title,
    baseline: "page",
    server,
    headers: pageHeaders(encoding),
    requests: rotating(paths),
    ...extra,
  });
}

/** A baseline's plan: bare Express answering JSON, or the bare React Router page. */
export function baselinePlan(
  common: PlanCommon,
  encoding: string,
  baseline: Started,
  kind: "express" | "page",
  connections: number,
): LoadPlan {
  return kind === "express"
    ? {
        ...common,
        connections,
        id: "baseline-express",
        title: "Baseline: bare Express JSON",
        baseline: null,
        server: baseline,
        headers: apiHeaders(encoding),
        requests: [{ path: "/json" }],
      }
    : {
        ...common,
        connections,
        id: "baseline-page",
        title: "Baseline: bare React Router page",
        baseline: null,
        server: baseline,
        headers: pageHeaders(encoding),
        requests: [{ path: "/" }],
      };
}

/**
 * The store's scenarios on the seeded catalogue of `products`; the cart's shoppers are signed in
 * with `cookies`, one after another.
 */
export function storePlans(
  common: PlanCommon,
  encoding: string,
  store: Started,
  shop: { products: number; sampleProductIds: string[]; cookies: string[] },
): LoadPlan[] {
  const page = pagePlans(common, encoding, store);
  const { cookies } = shop;
  const deepPage = Math.max(1, Math.floor(Math.ceil(shop.products / 12) * 0.9));
  let cartTurn = 0;
  return [
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
      shop.sampleProductIds.map((id) => `/products/${id}`),
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
      headers: apiHeaders(encoding),
      requests: [{ path: "/api/v1/products?limit=12" }],
    },
    {
      ...common,
      id: "api-products-miss",
      title: "API GET /api/v1/products?limit=12, cache missed",
      baseline: "express",
      server: store,
      headers: apiHeaders(encoding),
      requests: uncached(["/api/v1/products?limit=12"]),
    },
  ];
}

/**
 * The scenarios the page cache does not answer, on a catalogue of `large` products seeded after
 * the others: what the database's share becomes (exact counts, deep pages, broad searches).
 */
export function largeCataloguePlans(common: PlanCommon, encoding: string, store: Started, large: number): LoadPlan[] {
  const page = pagePlans(common, encoding, store);
  const largeDeepPage = Math.max(1, Math.floor(Math.ceil(large / 12) * 0.9));
  const suffix = ` (${large.toLocaleString("en")} products)`;
  return [
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
      headers: apiHeaders(encoding),
      requests: uncached(FILTERED_API_PATHS, { neverCounted: true }),
    },
  ];
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
