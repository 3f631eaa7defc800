/**
 * The admin desk as its pages are served (docs/product.md, "Admin"): one admin menu on every admin
 * page of app/routes.ts (the printable slips and the CSV download excepted), the lists written
 * by one component (a table whose cells carry their column's name, for the cards of a phone), and
 * every date in one format, Pakistan time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "../../app/routes";
import { FakePostex } from "../support/courier-fakes";
import { type TestClient } from "../support/http-client";
import { insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";
import { signedInClient } from "../support/page-clients";

let server: TestServer;
let postex: FakePostex;
let admin: TestClient;
let params: Record<string, string>;

/** The admin areas, in the menu's order (app/admin/admin-menu.tsx). */
const AREAS = [
  ["/admin", "Dashboard"],
  ["/admin/reports", "Reports"],
  ["/admin/orders", "Orders"],
  // In a store with a courier booked through its API, as this one (tests/integration/courier-ledger.test.ts: not otherwise).
  ["/admin/couriers", "Couriers"],
  ["/admin/products", "Products"],
  ["/admin/brands", "Brands"],
  ["/admin/returns", "Returns"],
  ["/admin/reviews", "Reviews"],
  ["/admin/discounts", "Discounts"],
  ["/admin/users", "Users"],
  ["/admin/outbox", "Outbox"],
  ["/admin/messages", "Messages"],
  ["/admin/settings/orders", "Order Settings"],
] as const;

/** The store's one date format: "25 Nov 2026, 7:29 pm" (server/modules/shared/store-dates.shared.ts). */
const STORE_DATE_TIME = /\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{1,2}:\d{2} [ap]m\b/;
/** The formats the admin pages used before: "25-Nov-2026, 7:29 pm" and "25/11/2026". */
const OTHER_DATES = /\b\d{1,2}-[A-Z][a-z]{2}-\d{4}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b/;

beforeAll(async () => {
  postex = await new FakePostex().start();
  server = await startTestServer(postex.settings());
  await insertUser(server, { name: "Desk Admin", email: "admin@desk.test", password: "adminpass1", role: "admin" });
  const customerId = await insertUser(server, {
    name: "Desk Shopper",
    email: "shopper@desk.test",
    password: "pass12345",
  });
  const [productId] = await insertProducts(server, [
    { name: "Desk Watch", price: 9000, stock: 5, brand: "Desk Brand" },
  ]);
  admin = await signedIn("admin@desk.test", "adminpass1");

  const shopper = await signedIn("shopper@desk.test", "pass12345");
  await shopper.postForm("/cart", { intent: "add", productId: productId!, quantity: "1", then: "cart" });
  const placed = await shopper.postForm("/checkout", {
    street: "9 Mall Road",
    city: "Lahore",
    state: "Punjab",
    zipCode: "54000",
    country: "Pakistan",
    phone: "0300-1234567",
    checkoutKey: "desk-1",
  });
  const orderId = placed.headers.get("location")!.split("/").pop()!;
  await server.services.fulfilment.updateStatus(orderId, { status: "Delivered" });
  const orderReturn = await server.services.returns.requestReturn(customerId, orderId, {
    items: [{ productId: productId!, quantity: 1 }],
    reason: "Other",
  });
  const discount = await server.database.db("discount_codes").where({ code: "FIRST10" }).first("id");
  params = {
    orderId,
    productId: productId!,
    userId: customerId,
    returnId: orderReturn._id,
    discountId: discount.id,
    // A report's page (any of the six).
    name: "deliveries",
    // The brand the products' trigger made from the watch's brand text.
    slug: "desk-brand",
  };
});
afterAll(async () => {
  await server?.close();
  await postex?.stop();
});

const signedIn = (email: string, password: string) => signedInClient(server.baseUrl, email, password);

async function page(path: string) {
  const response = await admin.get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

type ConfigRoute = { path?: string; file: string; children?: ConfigRoute[] };

/** The pages inside the admin layout of app/routes.ts, with their parameters filled in. */
function deskPages(): string[] {
  const layout = (routeConfig as ConfigRoute[]).find((route) => route.file === "admin/admin-layout.tsx");
  expect(layout?.children?.length, "the admin layout in app/routes.ts").toBeGreaterThan(10);
  return layout!.children!.map((route) => `/${route.path!.replace(/:(\w+)/g, (_, name: string) => params[name]!)}`);
}

describe("the admin desk", () => {
  it("has one admin menu on every admin page, its area marked, and none on printable slips", async () => {
    const pages = deskPages();
    expect(pages).toEqual(expect.arrayContaining(AREAS.map(([path]) => path)));
    for (const path of pages) {
      const html = await page(path);
      const menus = html.match(/<nav class="admin-menu" aria-label="Admin">[\s\S]*?<\/nav>/g) ?? [];
      expect(menus, path).toHaveLength(1);
      const links = [...menus[0]!.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
      expect(links, path).toEqual(AREAS.map(([href, label]) => [href, label]));
      // The area the page belongs to is the current one: an order's page is in Orders.
      const area = [...AREAS].reverse().find(([href]) => path === href || path.startsWith(`${href}/`))!;
      expect(menus[0], path).toMatch(new RegExp(`<a aria-current="page" class="active" href="${area[0]}"`));
    }
    for (const path of [`/admin/orders/${params.orderId}/slip`, "/admin/orders/slips"]) {
      expect(await page(path), path).not.toContain('class="admin-menu"');
    }
  });

  it("writes every list with one component: each cell names its column, for the cards of a phone", async () => {
    const lists: [string, string[]][] = [
      // "Book": the tick for "Book selected", with PostEx on in this store.
      [
        "/admin/orders",
        ["Book", "Order", "Customer", "Date", "Items", "Total", "Phone confirmation", "Status", "Details"],
      ],
      ["/admin/products", ["Image", "Name", "Category", "Price", "Stock", "Actions"]],
      ["/admin/users", ["Name", "Email", "Role", "Joined", "Actions"]],
      ["/admin/returns", ["Order", "Requested", "Customer", "Items", "Reason", "Refund", "Status", "Details"]],
      ["/admin/discounts", ["Code", "Discount", "Who", "When", "Uses", "State", "Actions"]],
      ["/admin/outbox", ["Recipient", "Written", "Subject", "State", "Details"]],
    ];
    for (const [path, columns] of lists) {
      const html = await page(path);
      expect(html, path).toContain('<table class="table admin-table">');
      const headers = [...html.matchAll(/<th scope="col">([^<]+)<\/th>/g)].map((m) => m[1]);
      expect(headers, path).toEqual(columns);
      const firstRow = /<tbody><tr>([\s\S]*?)<\/tr>/.exec(html)![1]!;
      expect(
        [...firstRow.matchAll(/<td data-label="([^"]+)"/g)].map((m) => m[1]),
        path,
      ).toEqual(columns);
      // Every list filters with the same plain GET form, but the discount codes (a dozen at most).
      if (path !== "/admin/discounts") {
        expect(/<form class="filters" role="search"[^>]* method="get">/.test(html), path).toBe(true);
      }
    }
  });

  it("writes every date in one format, in Pakistan time", async () => {
    const order = await server.database.db("orders").where({ id: params.orderId }).first("createdAt");
    const placed = new Intl.DateTimeFormat("en-US", {
      timeZone: "Asia/Karachi",
      day: "numeric",
      month: "short",
      year: "numeric",
    }).formatToParts(order.createdAt);
    const part = (type: string) => placed.find((p) => p.type === type)!.value;
    const day = `${part("day")} ${part("month")} ${part("year")}`;
    for (const path of [
      "/admin",
      "/admin/orders",
      `/admin/orders/${params.orderId}`,
      `/admin/orders/${params.orderId}/slip`,
      "/admin/returns",
      `/admin/returns/${params.returnId}`,
      "/admin/users",
      "/admin/outbox",
    ]) {
      const text = (await page(path)).replace(/<[^>]+>/g, " ");
      expect(text, path).toMatch(STORE_DATE_TIME);
      expect(text, path).not.toMatch(OTHER_DATES);
      expect(text, path).toContain(day);
    }
  });
});
