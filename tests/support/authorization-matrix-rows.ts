/**
 * The authorization matrix: every page of app/routes.ts (GET, and POST where the page has an
 * action) and every route mounted on the Express app (the /api/v1 router and the health checks),
 * each asked by a guest, a customer, another customer and an admin, with the answer expected.
 *
 * The list of routes is read from the route tables themselves, so a new route without a line
 * below fails "every route has a line" (tests/integration/authorization-matrix.test.ts) with its
 * name; a line whose route is gone fails too. Adding a route is a one-line change here, e.g. for
 * the pages of the content issue:
 *
 *   "GET /about": everyone(200),
 *   "GET /contact": everyone(200),
 *   "POST /contact": everyone(400),          // an empty form is refused, by anyone
 *   "GET /admin/messages": ADMIN_PAGE,
 *
 * The answers are checked in tests/integration/authorization-matrix-pages.test.ts and
 * authorization-matrix-api.test.ts.
 */
import type { Express } from "express";
import {
  ADMIN_PAGE,
  everyone,
  GUEST_PAGE,
  row,
  SIGNED_IN_PAGE,
  victimOrder,
  victimProduct,
  victimUser,
  type Fixtures,
  type Row,
} from "./authorization-matrix";
import { pageRoutes } from "./page-routes";

/**
 * Pages, keyed by method and the path as app/routes.ts writes it. Form posts send an empty form
 * unless said: a 400 means the guard let the request through and the form was refused.
 */
export const PAGE_MATRIX: Record<string, Row> = {
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
  // Writing a review: the customer received the watch; the others never did (403, told why). The
  // form is read only for someone who may write the review: the customer's empty form is refused,
  // the others' 403 comes before it (docs/decisions/2026-11-29-uploads-authorised-first.md).
  "GET /products/:productId/review": row("login", 200, 403, 403),
  "POST /products/:productId/review": row("login", 400, 403, 403),
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
  // A bank transfer's reference: the order is looked up before the form is read (anyone else,
  // admins included: 404); the customer's order is paid on delivery, which takes no reference (409).
  "POST /my-orders/:orderId": row("login", 409, 404, 404),
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
export const PAGE_PARAMS = (fixtures: Fixtures): Record<string, string> => ({
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
export const EXPRESS_MATRIX: Record<string, Row> = {
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
  // A transfer's reference: the order is looked up before the body is read (anyone else, admins
  // included: 404; the customer's order is paid on delivery: 409), and the admin's verdict.
  "POST /api/v1/orders/:id/payment-reference": row(401, 409, 404, 404, {
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
  // Recording a refund: admins only; an empty body names no method (400).
  "POST /api/v1/orders/:id/refund": row(401, 403, 403, 400, { params: (f) => ({ id: f.customerOrderId }) }),
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

export const API_PARAMS = (fixtures: Fixtures): Record<string, string> => ({
  productId: fixtures.productId,
  userId: fixtures.customerId,
});

// ---- The route tables ----

/** "METHOD path" of every page request: GET for each route, POST for each route with an action. */
export async function pageRouteKeys(): Promise<string[]> {
  return (await pageRoutes()).flatMap(({ path, hasAction }) => [`GET ${path}`, ...(hasAction ? [`POST ${path}`] : [])]);
}

type Layer = {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string;
};

/** "METHOD path" of every route mounted on the Express app, through its routers. */
export function expressRouteKeys(app: Express): string[] {
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
