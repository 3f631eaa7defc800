/**
 * The authorization matrix: every page of app/routes.ts (GET, and POST where the page has an
 * action) and every route mounted on the Express app (the /api/v1 router and the health checks),
 * each asked by a guest, a customer, another customer and an admin, with the answer expected.
 *
 * The list of routes is read from the route tables themselves, so a new route without a line
 * below fails "every route has a line" with its name; a line whose route is gone fails too.
 * Adding a route is a one-line change here, e.g. for the pages of the content issue:
 *
 *   "GET /about": everyone(200),
 *   "GET /contact": everyone(200),
 *   "POST /contact": everyone(400),          // an empty form is refused, by anyone
 *   "GET /admin/messages": ADMIN_PAGE,
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Express } from "express";
import routeConfig from "../../app/routes";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { contractOf } from "../support/api-contract";
import { databaseFingerprint } from "../support/db-fingerprint";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { plainImage } from "../support/photos";
import { loadServerBuild, startTestServer, type TestServer } from "../support/test-server";

type Role = "guest" | "customer" | "other" | "admin";
const ROLES: Role[] = ["guest", "customer", "other", "admin"];

/**
 * What a request should get: a status, or a redirect. "login" is the guard's redirect to
 * /login?redirectTo=<the path asked for>; "home" is a redirect to /.
 */
type Answer = number | "login" | "home" | { redirect: string };

type Fixtures = {
  productId: string;
  customerId: string;
  otherId: string;
  adminId: string;
  customerOrderId: string;
  /** FIRST10, which every store has. */
  discountId: string;
  /** A return the customer asked for, of another (delivered) order. */
  returnId: string;
  /** An out-of-stock product (stock alerts). */
  soldOutProductId: string;
  /** The file name of a variant of the product's photo (/photos/<file>). */
  photoFile: string;
  /** The file name of a variant of a pending review's photo (the customer's, of another watch). */
  reviewPhotoFile: string;
  /** A product or user made for one request, for the calls that delete. */
  victimProduct(): Promise<string>;
  victimUser(): Promise<string>;
  /** A fresh Pending order of the customer, for the calls that cancel. */
  victimOrder(): Promise<string>;
};

type Row = {
  answers: Record<Role, Answer>;
  /** Values for the path's parameters, when the defaults by name (below) do not fit. */
  params?: (fixtures: Fixtures) => Promise<Record<string, string>> | Record<string, string>;
  /** A form post or JSON body; empty unless said. */
  body?: Record<string, unknown>;
};

const row = (guest: Answer, customer: Answer, other: Answer, admin: Answer, extra: Omit<Row, "answers"> = {}): Row => ({
  answers: { guest, customer, other, admin },
  ...extra,
});
const everyone = (answer: Answer, extra: Omit<Row, "answers"> = {}) => row(answer, answer, answer, answer, extra);
/** Signed-in pages: a guest goes to log in and comes back. */
const SIGNED_IN_PAGE = row("login", 200, 200, 200);
/** Admin pages: a guest goes to log in, a signed-in customer home. */
const ADMIN_PAGE = row("login", "home", "home", 200);
/** Log-in and sign-up pages are for guests; a signed-in user goes home. */
const GUEST_PAGE = row(200, "home", "home", "home");
const victimProduct = async (fixtures: Fixtures) => ({ productId: await fixtures.victimProduct() });
const victimUser = async (fixtures: Fixtures) => ({ userId: await fixtures.victimUser() });
const victimOrder = async (fixtures: Fixtures) => ({ orderId: await fixtures.victimOrder() });

/**
 * Pages, keyed by method and the path as app/routes.ts writes it. Form posts send an empty form
 * unless said: a 400 means the guard let the request through and the form was refused.
 */
const PAGE_MATRIX: Record<string, Row> = {
  "GET /": everyone(200),
  "GET /products": everyone(200),
  "GET /about": everyone(200),
  "GET /faq": everyone(200),
  "GET /contact": everyone(200),
  "POST /contact": everyone(400), // an empty message is refused, by anyone
  "GET /products/:productId": everyone(200),
  "GET /brands/:slug": everyone(200, { params: () => ({ slug: "matrix-brand" }) }),
  // The comparison needs no account: anyone compares, an empty form is refused by anyone.
  "GET /compare": everyone(200),
  "POST /compare": everyone(400),
  // Writing a review: the customer received the watch; the others never did (403, told why). An
  // empty form is refused before anything else.
  "GET /products/:productId/review": row("login", 200, 403, 403),
  "POST /products/:productId/review": row("login", 400, 400, 400),
  // A guest sees "Please login to view your cart", not a redirect.
  "GET /cart": everyone(200),
  "POST /cart": row("login", 400, 400, 400),
  "GET /checkout": SIGNED_IN_PAGE,
  "POST /checkout": row("login", 400, 400, 400),
  // The customer's order: another customer gets the 404 page (its existence is not revealed).
  "GET /order-success/:orderId": row("login", 200, 404, 200),
  "GET /my-orders": SIGNED_IN_PAGE,
  // The owner's return form (its order is Pending: the page says why no return can be asked for);
  // anyone else, admins included, gets the 404 page. An empty form from the owner is refused.
  "GET /my-orders/:orderId/return": row("login", 200, 404, 404),
  "POST /my-orders/:orderId/return": row("login", 400, 404, 404),
  // The customer's own order; anyone else, admins included, gets the 404 page.
  "GET /my-orders/:orderId": row("login", 200, 404, 404),
  // A bank transfer's reference: the empty form is refused (400) before the order is looked up.
  "POST /my-orders/:orderId": row("login", 400, 400, 400),
  // A transfer's screenshot: its owner and admins; anyone else, a guest too, the 404 of an order
  // that does not exist (no sign-in redirect that would say it does).
  "GET /orders/:orderId/payment-screenshot": row(404, 200, 404, 200),
  "GET /my-orders/:orderId/cancel": row("login", 200, 404, 404),
  "POST /my-orders/:orderId/cancel": row("login", { redirect: "/my-orders/:orderId" }, 404, 404, {
    params: victimOrder,
  }),
  // An order's confirmation link: no sign-in, the token is the key; a token of no order is the
  // 404 page, by anyone (tests/integration/order-confirmation.test.ts opens working ones).
  "GET /c/:token": everyone(404),
  "POST /c/:token": everyone(404),
  "GET /signup": GUEST_PAGE,
  "POST /signup": row(400, "home", "home", "home"),
  "GET /login": GUEST_PAGE,
  "POST /login": row(400, "home", "home", "home"),
  "GET /logout": everyone("home"),
  "POST /logout": everyone("home"),
  "GET /profile": SIGNED_IN_PAGE,
  // Cancelling a stock alert: an empty form is refused with a message on the profile.
  "POST /profile": row("login", { redirect: "/profile" }, { redirect: "/profile" }, { redirect: "/profile" }),
  "GET /profile/edit": SIGNED_IN_PAGE,
  "POST /profile/edit": row("login", 400, 400, 400),
  "GET /profile/password": SIGNED_IN_PAGE,
  "POST /profile/password": row("login", 400, 400, 400),
  "GET /forgot-password": everyone(200),
  "POST /forgot-password": everyone(400),
  // Without a working token: the clear page with the form to ask again.
  "GET /reset-password": everyone(400),
  "POST /reset-password": everyone(400),
  // The link mailed to a new email: without a working token, the clear page, by anyone.
  "GET /confirm-email": everyone(400),
  "POST /confirm-email": everyone(400),
  // Without a token: the page that says alerts were stopped; an empty post is refused.
  "GET /unsubscribe": everyone(200),
  "POST /unsubscribe": everyone(400),
  // Notify me on a product in stock: refused, by anyone.
  "POST /products/:productId": everyone(400),
  "GET /admin": ADMIN_PAGE,
  "GET /admin/users": ADMIN_PAGE,
  // Sending a reset link: an empty form is refused with a message on the list.
  "POST /admin/users": row("login", "home", "home", { redirect: "/admin/users" }),
  "GET /admin/users/new": ADMIN_PAGE,
  "POST /admin/users/new": row("login", "home", "home", 400),
  "GET /admin/users/:userId/role": ADMIN_PAGE,
  "POST /admin/users/:userId/role": row("login", "home", "home", 400),
  "GET /admin/users/:userId/delete": ADMIN_PAGE,
  "POST /admin/users/:userId/delete": row(
    "login",
    "home",
    "home",
    { redirect: "/admin/users" },
    { params: victimUser },
  ),
  "GET /admin/orders": ADMIN_PAGE,
  // An empty status form is refused with a message on the list (a redirect, as without JavaScript).
  "POST /admin/orders": row("login", "home", "home", { redirect: "/admin/orders" }),
  "GET /admin/orders/:orderId": ADMIN_PAGE,
  // "Send again" of the order's confirmation: an empty form is refused with a message on the page.
  "POST /admin/orders/:orderId": row("login", "home", "home", { redirect: "/admin/orders/:orderId" }),
  // Shipping asks for the courier and the tracking number: an empty form is refused.
  "GET /admin/orders/:orderId/ship": ADMIN_PAGE,
  "POST /admin/orders/:orderId/ship": row("login", "home", "home", 400),
  // The parcel's outcome: an empty form is refused (no reason chosen).
  "GET /admin/orders/:orderId/outcome": ADMIN_PAGE,
  "POST /admin/orders/:orderId/outcome": row("login", "home", "home", 400),
  "GET /admin/orders/:orderId/slip": ADMIN_PAGE,
  "GET /admin/orders/slips": ADMIN_PAGE,
  // A CSV download of every order: the admin's only.
  "GET /admin/orders/export.csv": ADMIN_PAGE,
  // Book selected: the page says where its form is; an empty form (no courier on here) is refused.
  "GET /admin/orders/book": ADMIN_PAGE,
  "POST /admin/orders/book": row("login", "home", "home", 400),
  // A booked parcel's airway bill: an order not booked goes back to its page, saying so.
  "GET /admin/orders/:orderId/airway-bill": row("login", "home", "home", { redirect: "/admin/orders/:orderId" }),
  // PostEx's load sheet: without PostEx (or opened by hand) back to the orders, saying why.
  // A review's photo whatever its status: admins only, 404 to anyone else (no log-in redirect).
  "GET /admin/reviews/photos/:file": row(404, 404, 404, 200, { params: (f) => ({ file: f.reviewPhotoFile }) }),
  "GET /admin/orders/load-sheet": row("login", "home", "home", { redirect: "/admin/orders" }),
  "POST /admin/orders/load-sheet": row("login", "home", "home", { redirect: "/admin/orders" }),
  "GET /admin/reports": ADMIN_PAGE,
  "GET /admin/reports/:name": row("login", "home", "home", 200, { params: () => ({ name: "deliveries" }) }),
  // A report's CSV download: the admin's only.
  "GET /admin/reports/:name/export.csv": row("login", "home", "home", 200, { params: () => ({ name: "stock" }) }),
  // What each courier owes, and its CSV: no courier is booked through its API in this store, so
  // the admin is told there is no such page (tests/integration/courier-ledger.test.ts opens both).
  "GET /admin/couriers": row("login", "home", "home", 404),
  "GET /admin/couriers/export.csv": row("login", "home", "home", 404),
  "GET /admin/messages": ADMIN_PAGE,
  "GET /admin/discounts": ADMIN_PAGE,
  // An empty deactivate form is refused with a message on the list.
  "POST /admin/discounts": row("login", "home", "home", { redirect: "/admin/discounts" }),
  "GET /admin/discounts/new": ADMIN_PAGE,
  "POST /admin/discounts/new": row("login", "home", "home", 400),
  "GET /admin/discounts/:discountId/edit": ADMIN_PAGE,
  "POST /admin/discounts/:discountId/edit": row("login", "home", "home", 400),
  "GET /admin/returns": ADMIN_PAGE,
  "GET /admin/returns/:returnId": ADMIN_PAGE,
  "GET /admin/reviews": ADMIN_PAGE,
  // An empty form names no review: the list says it was not found.
  "POST /admin/reviews": row("login", "home", "home", 404),
  "POST /admin/returns/:returnId": row("login", "home", "home", 400),
  "GET /admin/brands": ADMIN_PAGE,
  "GET /admin/brands/:slug": row("login", "home", "home", 200, { params: () => ({ slug: "matrix-brand" }) }),
  // An empty form sends no text at all (the form's empty box sends an empty one): refused.
  "POST /admin/brands/:slug": row("login", "home", "home", 400, { params: () => ({ slug: "matrix-brand" }) }),
  "GET /admin/outbox": ADMIN_PAGE,
  // The order rules: an empty form turns every rule off, a blocklist entry without a value is refused.
  "GET /admin/settings/orders": ADMIN_PAGE,
  "POST /admin/settings/orders": row("login", "home", "home", { redirect: "/admin/settings/orders" }),
  // Retrying a message: an empty form is refused with a message on the failed list.
  "POST /admin/outbox": row("login", "home", "home", { redirect: "/admin/outbox?state=failed" }),
  "GET /admin/products": ADMIN_PAGE,
  "GET /admin/products/new": ADMIN_PAGE,
  "POST /admin/products/new": row("login", "home", "home", 400),
  "GET /admin/products/:productId/edit": ADMIN_PAGE,
  "POST /admin/products/:productId/edit": row("login", "home", "home", 400),
  "GET /admin/products/:productId/delete": ADMIN_PAGE,
  "POST /admin/products/:productId/delete": row(
    "login",
    "home",
    "home",
    { redirect: "/admin/products" },
    { params: victimProduct },
  ),
  "GET /sitemap.xml": everyone(200),
  "GET /sitemaps/:file": everyone(200),
  "GET /robots.txt": everyone(200),
  "GET /lite-mode": everyone("home"), // no returnTo: back home, with the choice kept
  "GET /*": everyone(404),
};

/** Default values of page parameters, by name. */
const PAGE_PARAMS = (fixtures: Fixtures): Record<string, string> => ({
  productId: fixtures.productId,
  orderId: fixtures.customerOrderId,
  userId: fixtures.customerId,
  discountId: fixtures.discountId,
  returnId: fixtures.returnId,
  file: "products-1.xml",
  token: "A".repeat(43),
  "*": "no-such-page",
});

/**
 * Routes of the Express app: the /api/v1 router (server/api-routes.ts plus the OpenAPI document)
 * and the health checks. Bodies are empty objects unless said: a 400 means the guard let the
 * call through and the input was refused. A guest gets 401 before a customer would get 403,
 * and both come before any validation.
 */
const EXPRESS_MATRIX: Record<string, Row> = {
  "GET /healthz": everyone(200),
  "GET /readyz": everyone(200),
  // The messaging providers' webhooks: no sign-in, their signature is the key. Without the
  // verification token, or without a signature, refused by anyone (tests/integration/confirmation-webhooks.test.ts).
  "GET /webhooks/whatsapp": everyone(403),
  "POST /webhooks/whatsapp": everyone(401),
  "POST /webhooks/sms": everyone(401),
  "GET /api/v1/openapi.json": everyone(200),
  "POST /api/v1/auth/register": everyone(400),
  "POST /api/v1/auth/login": everyone(400),
  "POST /api/v1/auth/logout": row(401, 200, 200, 200),
  "GET /api/v1/auth/me": row(401, 200, 200, 200),
  "PUT /api/v1/auth/update-profile": row(401, 400, 400, 400),
  "PUT /api/v1/auth/change-password": row(401, 400, 400, 400),
  "POST /api/v1/auth/forgot-password": everyone(400),
  "POST /api/v1/auth/reset-password": everyone(400),
  "GET /api/v1/products": everyone(200),
  "GET /api/v1/products/:id": everyone(200, { params: (f) => ({ id: f.productId }) }),
  // No sign-in needed; an empty body is refused.
  "POST /api/v1/products/:id/notify": everyone(400, { params: (f) => ({ id: f.soldOutProductId }) }),
  "POST /api/v1/products": row(401, 403, 403, 400),
  "PUT /api/v1/products/:id": row(401, 403, 403, 400, { params: (f) => ({ id: f.productId }) }),
  "DELETE /api/v1/products/:id": row(401, 403, 403, 200, { params: async (f) => ({ id: await f.victimProduct() }) }),
  // A JSON body where a photo belongs: the admin gets 415, after the guard.
  "POST /api/v1/products/:id/image": row(401, 403, 403, 415, { params: (f) => ({ id: f.productId }) }),
  "DELETE /api/v1/products/:id/image": row(401, 403, 403, 200, {
    params: async (f) => ({ id: await f.victimProduct() }),
  }),
  // Photos' files are public, like the pages that show them.
  "GET /photos/:file": everyone(200, { params: (f) => ({ file: f.photoFile }) }),
  "GET /api/v1/cart": row(401, 200, 200, 200),
  "POST /api/v1/cart": row(401, 400, 400, 400),
  "PUT /api/v1/cart": row(401, 400, 400, 400),
  "DELETE /api/v1/cart/items/:productId": row(401, 200, 200, 200),
  "DELETE /api/v1/cart": row(401, 200, 200, 200),
  "POST /api/v1/orders": row(401, 400, 400, 400),
  "GET /api/v1/orders/me": row(401, 200, 200, 200),
  "GET /api/v1/orders": row(401, 403, 403, 200),
  // The customer's order: another customer gets 404, as for an id that does not exist.
  "GET /api/v1/orders/:id": row(401, 200, 404, 200, { params: (f) => ({ id: f.customerOrderId }) }),
  "PATCH /api/v1/orders/:id/status": row(401, 403, 403, 400, { params: (f) => ({ id: f.customerOrderId }) }),
  "POST /api/v1/orders/:id/confirm": row(401, 403, 403, 200, { params: (f) => ({ id: f.customerOrderId }) }),
  // The parcel's outcome: an empty body is refused; the customer's Pending order was never returned (409).
  "POST /api/v1/orders/:id/outcome": row(401, 403, 403, 400, { params: (f) => ({ id: f.customerOrderId }) }),
  // A transfer's reference (an empty body is refused, for anyone signed in) and the admin's verdict.
  "POST /api/v1/orders/:id/payment-reference": row(401, 400, 400, 400, {
    params: (f) => ({ id: f.customerOrderId }),
  }),
  "PATCH /api/v1/orders/:id/payment": row(401, 403, 403, 400, { params: (f) => ({ id: f.customerOrderId }) }),
  // The transfer's screenshot, by the page's check: its owner and admins; anyone else the 404 of no such order.
  "GET /api/v1/orders/:id/payment-screenshot": row(401, 200, 404, 200, {
    params: (f) => ({ id: f.customerOrderId }),
  }),
  "GET /api/v1/settings/orders": row(401, 403, 403, 200),
  "PUT /api/v1/settings/orders": row(401, 403, 403, 200),
  "GET /api/v1/reports/sales": row(401, 403, 403, 200),
  "GET /api/v1/reports/products": row(401, 403, 403, 200),
  "GET /api/v1/reports/deliveries": row(401, 403, 403, 200),
  "GET /api/v1/reports/confirmation": row(401, 403, 403, 200),
  "GET /api/v1/reports/payments": row(401, 403, 403, 200),
  "GET /api/v1/reports/stock": row(401, 403, 403, 200),
  "POST /api/v1/orders/:id/received-back": row(401, 403, 403, 409, { params: (f) => ({ id: f.customerOrderId }) }),
  // Booking with a courier's API: an empty body names no courier (400); there is no booking to cancel (409).
  "POST /api/v1/orders/:id/shipment": row(401, 403, 403, 400, { params: (f) => ({ id: f.customerOrderId }) }),
  "DELETE /api/v1/orders/:id/shipment": row(401, 403, 403, 409, { params: (f) => ({ id: f.customerOrderId }) }),
  // Following every open parcel now: a store without couriers asks none (200).
  "POST /api/v1/shipments/sync": row(401, 403, 403, 200),
  // The owner's order is Pending (409); to anyone else it does not exist, admins included.
  "POST /api/v1/orders/:id/returns": row(401, 409, 404, 404, {
    params: (f) => ({ id: f.customerOrderId }),
    body: { items: [{ productId: "00000000-0000-4000-8000-000000000000", quantity: 1 }], reason: "Other" },
  }),
  "GET /api/v1/returns": row(401, 403, 403, 200),
  // Reviews: anyone reads the published; only the buyer of a delivered watch writes (the others 403).
  "GET /api/v1/products/:id/reviews": everyone(200, { params: (f) => ({ id: f.productId }) }),
  "POST /api/v1/products/:id/reviews": row(401, 201, 403, 403, {
    params: (f) => ({ id: f.productId }),
    body: { rating: 5, title: "Keeps time", text: "A good watch." },
  }),
  "GET /api/v1/reviews": row(401, 403, 403, 200),
  // A brand's text: admins only; an empty body gives no description (400).
  "PUT /api/v1/brands/:slug": row(401, 403, 403, 400, { params: () => ({ slug: "matrix-brand" }) }),
  "PATCH /api/v1/reviews/:id": row(401, 403, 403, 400, {
    params: () => ({ id: "00000000-0000-4000-8000-000000000000" }),
  }),
  "PATCH /api/v1/returns/:id": row(401, 403, 403, 400, { params: (f) => ({ id: f.returnId }) }),
  "GET /api/v1/discounts": row(401, 403, 403, 200),
  "POST /api/v1/discounts": row(401, 403, 403, 400),
  "PUT /api/v1/discounts/:id": row(401, 403, 403, 400, { params: (f) => ({ id: f.discountId }) }),
  // Only the owner cancels; anyone else, admins included, gets 404.
  "POST /api/v1/orders/:id/cancel": row(401, 200, 404, 404, {
    params: async (f) => ({ id: await f.victimOrder() }),
  }),
  "GET /api/v1/users": row(401, 403, 403, 200),
  "POST /api/v1/users/create-admin": row(401, 403, 403, 400),
  "PUT /api/v1/users/:userId/role": row(401, 403, 403, 400),
  "DELETE /api/v1/users/:userId": row(401, 403, 403, 200, { params: victimUser }),
};

const API_PARAMS = (fixtures: Fixtures): Record<string, string> => ({
  productId: fixtures.productId,
  userId: fixtures.customerId,
});

// ---- The route tables ----

type ConfigRoute = { id?: string; path?: string; index?: boolean; file: string; children?: ConfigRoute[] };

/** Every route of app/routes.ts with its full path, nested routes included. */
function configRoutes(routes: ConfigRoute[], parent = ""): { path: string; file: string; id?: string }[] {
  return routes.flatMap((route) => {
    const path = route.index || !route.path ? parent : `${parent}/${route.path}`.replace(/\/+/g, "/");
    const own = route.path !== undefined || route.index ? [{ path: path || "/", file: route.file, id: route.id }] : [];
    return [...own, ...configRoutes(route.children ?? [], path)];
  });
}

/** "METHOD path" of every page request: GET for each route, POST for each route with an action. */
async function pageRouteKeys(): Promise<string[]> {
  const build = await (await loadServerBuild()).loadPageBuild();
  return configRoutes(routeConfig as ConfigRoute[]).flatMap(({ path, file, id: given }) => {
    // A file serving two paths has an id of its own for each (app/routes.ts).
    const id = given ?? file.replace(/\.[jt]sx?$/, "");
    const module = build.routes[id]?.module as { action?: unknown } | undefined;
    if (!module) throw new Error(`app/routes.ts names ${file}, which the build does not have (rebuild?)`);
    return [`GET ${path}`, ...(typeof module.action === "function" ? [`POST ${path}`] : [])];
  });
}

type Layer = {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string;
};

/** "METHOD path" of every route mounted on the Express app, through its routers. */
function expressRouteKeys(app: Express): string[] {
  const walk = (stack: Layer[], prefix: string): string[] =>
    stack.flatMap((layer) => {
      if (layer.route) {
        return Object.keys(layer.route.methods)
          .filter((method) => method !== "_all")
          .map((method) => `${method.toUpperCase()} ${prefix}${layer.route!.path}`);
      }
      if (layer.handle?.stack)
        return walk(layer.handle.stack, prefix + (layer.rawPath && layer.rawPath !== "/" ? layer.rawPath : ""));
      return [];
    });
  return walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "");
}

function concretePath(template: string, params: Record<string, string>): string {
  return template.replace(/:(\w+)|\*$/g, (match, name: string | undefined) => {
    const value = params[name ?? "*"];
    if (value === undefined) throw new Error(`No value for ${match} in ${template}: give the row params`);
    return name ? encodeURIComponent(value) : value;
  });
}

// ---- The people and their things ----

let server: TestServer;
let fixtures: Fixtures;
const clients = {} as Record<Role, TestClient>;
const credentials: Record<Exclude<Role, "guest">, { email: string; password: string; id?: string }> = {
  customer: { email: "customer@matrix.test", password: "customerpass1" },
  other: { email: "other@matrix.test", password: "otherpass1" },
  admin: { email: "admin@matrix.test", password: "adminpass1" },
};
/** Text only its owner (and an admin) may ever see: each user's email and street. */
const privateText: Record<Exclude<Role, "guest">, string[]> = {
  customer: ["customer@matrix.test", "Customer Private Lane"],
  other: ["other@matrix.test", "Other Private Lane"],
  admin: ["admin@matrix.test", "Admin Private Lane"],
};

async function signedIn(role: Exclude<Role, "guest">) {
  const client = new TestClient(server.baseUrl);
  const response = await client.postForm("/login", {
    email: credentials[role].email,
    password: credentials[role].password,
  });
  expect(response.status).toBe(303);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  for (const role of ["customer", "other", "admin"] as const) {
    const [user] = await db("users")
      .insert({
        name: `Matrix ${role}`,
        email: credentials[role].email,
        // A cheap bcrypt cost: many log-ins below (log-in accepts any cost).
        passwordHash: await hashPassword(credentials[role].password, 4),
        role: role === "admin" ? "admin" : "customer",
        street: privateText[role][1],
      })
      .returning("id");
    credentials[role].id = user.id;
  }
  const [productId, soldOutProductId] = await insertProducts(server, [
    { name: "Matrix Watch", stock: 50, brand: "Matrix Brand" },
    { name: "Matrix Sold Out", stock: 0 },
  ]);
  const withPhoto = await server.services.catalog.setProductPhoto(productId!, {
    bytes: await plainImage(200, 200),
    truncated: false,
  });
  await server.services.cart.addItem(credentials.customer.id!, { productId, quantity: 1 });
  const order = await server.services.checkout.placeOrder(credentials.customer.id!, {
    address: {
      street: "Customer Private Lane",
      city: "Lahore",
      state: "Punjab",
      zipCode: "54000",
      country: "Pakistan",
    },
  });
  // A screenshot for the customer's order, stored as the flow stores one: who may see it is
  // decided by who asks, not by the order's payment.
  const screenshotBytes = await plainImage(120, 240, "webp");
  await db("payment_screenshots").insert({
    orderId: order._id,
    image: screenshotBytes,
    width: 120,
    height: 240,
    thumbnail: screenshotBytes,
  });
  // A second order of the customer, delivered, with a return asked for.
  await server.services.cart.addItem(credentials.customer.id!, { productId, quantity: 1 });
  const delivered = await server.services.checkout.placeOrder(credentials.customer.id!, {
    address: {
      street: "Customer Private Lane",
      city: "Lahore",
      state: "Punjab",
      zipCode: "54000",
      country: "Pakistan",
    },
  });
  await server.services.fulfilment.updateStatus(delivered._id, { status: "Delivered" });
  const orderReturn = await server.services.returns.requestReturn(credentials.customer.id!, delivered._id, {
    items: [{ productId, quantity: 1 }],
    reason: "Other",
  });
  // A pending review with a photo, of a watch of its own delivered to the customer.
  const [reviewedProductId] = await insertProducts(server, [{ name: "Matrix Reviewed Watch", stock: 5 }]);
  await server.services.cart.addItem(credentials.customer.id!, { productId: reviewedProductId, quantity: 1 });
  const reviewedOrder = await server.services.checkout.placeOrder(credentials.customer.id!, {
    address: {
      street: "Customer Private Lane",
      city: "Lahore",
      state: "Punjab",
      zipCode: "54000",
      country: "Pakistan",
    },
  });
  await server.services.fulfilment.updateStatus(reviewedOrder._id, { status: "Delivered" });
  const review = await server.services.reviews.submitReview(
    credentials.customer.id!,
    reviewedProductId!,
    { rating: 4, title: "Matrix review", text: "Keeps time." },
    [{ bytes: await plainImage(200, 200), truncated: false }],
  );
  const discount = await db("discount_codes").where({ code: "FIRST10" }).first("id");
  let victims = 0;
  fixtures = {
    productId: productId!,
    customerId: credentials.customer.id!,
    otherId: credentials.other.id!,
    adminId: credentials.admin.id!,
    customerOrderId: order._id,
    discountId: discount.id,
    returnId: orderReturn._id,
    soldOutProductId: soldOutProductId!,
    async victimOrder() {
      await server.services.cart.addItem(credentials.customer.id!, { productId, quantity: 1 });
      const victim = await server.services.checkout.placeOrder(credentials.customer.id!, {
        address: {
          street: "Customer Private Lane",
          city: "Lahore",
          state: "Punjab",
          zipCode: "54000",
          country: "Pakistan",
        },
      });
      return victim._id;
    },
    photoFile: withPhoto.images[0]!.url.split("/photos/")[1]!,
    reviewPhotoFile: review.photos[0]!.images[0]!.url.split("/photos/")[1]!,
    async victimProduct() {
      victims += 1;
      return (await insertProducts(server, [{ name: `Victim Watch ${victims}` }]))[0]!;
    },
    async victimUser() {
      victims += 1;
      const [user] = await db("users")
        .insert({ name: `Victim ${victims}`, email: `victim${victims}@matrix.test`, passwordHash: "x" })
        .returning("id");
      return user.id;
    },
  };
  clients.guest = new TestClient(server.baseUrl);
  clients.customer = await signedIn("customer");
  clients.other = await signedIn("other");
  clients.admin = await signedIn("admin");
});
afterAll(async () => {
  await server?.close();
});

function expectAnswer(context: string, response: { status: number; headers: Headers }, answer: Answer, path: string) {
  const location = response.headers.get("location");
  if (typeof answer === "number") {
    expect(response.status, `${context}: status (location ${location})`).toBe(answer);
    return;
  }
  expect([302, 303], `${context}: a redirect, got ${response.status}`).toContain(response.status);
  const expected =
    answer === "login"
      ? `/login?redirectTo=${encodeURIComponent(path)}`
      : answer === "home"
        ? "/"
        : // ":orderId" in an expected redirect is the id the request was made with.
          answer.redirect.replace(":orderId", /[0-9a-f]{8}-[0-9a-f-]{27}/.exec(path)?.[0] ?? "");
  expect(location, `${context}: redirect target`).toBe(expected);
}

/** Changes nothing: refusals, and an empty form or body that is refused. */
const isRefusal = (answer: Answer) =>
  answer === "login" || answer === "home" || (typeof answer === "number" && answer >= 400);

function expectNoLeak(context: string, role: Role, text: string) {
  if (role === "admin") return;
  for (const owner of ["customer", "other", "admin"] as const) {
    if (owner === role) continue;
    for (const secret of privateText[owner])
      expect(text.includes(secret), `${context}: shows ${owner}'s "${secret}"`).toBe(false);
  }
}

describe("the authorization matrix", () => {
  it("has a line for every page of app/routes.ts and every route of the Express app, and none for routes that are gone", async () => {
    const pages = await pageRouteKeys();
    const routes = expressRouteKeys(server.app);
    expect(routes.length).toBeGreaterThan(20);
    expect({
      "pages without a line in PAGE_MATRIX (add one)": pages.filter((key) => !(key in PAGE_MATRIX)),
      "lines of PAGE_MATRIX whose page is no longer in app/routes.ts": Object.keys(PAGE_MATRIX).filter(
        (key) => !pages.includes(key),
      ),
      "Express routes without a line in EXPRESS_MATRIX (add one)": routes.filter((key) => !(key in EXPRESS_MATRIX)),
      "lines of EXPRESS_MATRIX whose route is no longer mounted": Object.keys(EXPRESS_MATRIX).filter(
        (key) => !routes.includes(key),
      ),
    }).toEqual({
      "pages without a line in PAGE_MATRIX (add one)": [],
      "lines of PAGE_MATRIX whose page is no longer in app/routes.ts": [],
      "Express routes without a line in EXPRESS_MATRIX (add one)": [],
      "lines of EXPRESS_MATRIX whose route is no longer mounted": [],
    });
  });

  describe.each(Object.entries(PAGE_MATRIX))("page %s", (key, matrixRow) => {
    it.each(ROLES)("as %s", async (role) => {
      const [method, template] = key.split(" ") as [string, string];
      const params = { ...PAGE_PARAMS(fixtures), ...(await matrixRow.params?.(fixtures)) };
      const path = concretePath(template, params);
      const answer = matrixRow.answers[role];
      // Logging out ends the session: that one gets a session of its own.
      const client =
        method === "POST" && template === "/logout" && role !== "guest" ? await signedIn(role) : clients[role];
      const before = method !== "GET" && isRefusal(answer) ? await databaseFingerprint(server) : null;
      const response =
        method === "GET"
          ? await client.get(path)
          : await client.postForm(path, (matrixRow.body ?? {}) as Record<string, string>);
      const context = `${role} ${method} ${path}`;
      expectAnswer(context, response, answer, path);
      expectNoLeak(context, role, await response.text());
      if (before) expect(await databaseFingerprint(server), `${context} changed the database`).toEqual(before);
    });
  });

  describe.each(Object.entries(EXPRESS_MATRIX))("%s", (key, matrixRow) => {
    it.each(ROLES)("as %s", async (role) => {
      const [method, template] = key.split(" ") as [string, string];
      const params = { ...API_PARAMS(fixtures), ...(await matrixRow.params?.(fixtures)) };
      const path = concretePath(template, params);
      const answer = matrixRow.answers[role];
      // A token of its own for each request (log-out ends the one it is sent with).
      const token =
        role === "guest" ? undefined : (await server.services.accounts.issueToken(credentials[role].id!)).token;
      const before = method !== "GET" && isRefusal(answer) ? await databaseFingerprint(server) : null;
      const response = await fetch(server.baseUrl + path, {
        method,
        headers: {
          accept: "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" }),
        },
        body: method === "GET" || method === "DELETE" ? undefined : JSON.stringify(matrixRow.body ?? {}),
      });
      const context = `${role} ${method} ${path}`;
      expectAnswer(context, response, answer, path);
      const text = await response.text();
      if (path.startsWith("/api/v1/")) {
        const reply = {
          method,
          path: path.slice("/api/v1".length),
          status: response.status,
          headers: response.headers,
          text,
        };
        // Each answer as the OpenAPI document gives it (tests/support/api-contract.ts).
        expect((await contractOf(server.baseUrl)).problemsWith(reply), context).toEqual([]);
      }
      if (response.status >= 400 && path.startsWith("/api/")) {
        const body = JSON.parse(text);
        expect(body.success, context).toBe(false);
        expect(typeof body.message, context).toBe("string");
      }
      expectNoLeak(context, role, text);
      if (before) expect(await databaseFingerprint(server), `${context} changed the database`).toEqual(before);
    });
  });
});
