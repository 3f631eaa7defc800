/**
 * Orders a courier can deliver, through the pages (without JavaScript, as plain forms): the
 * checkout's mobile number, shipping with a courier and a tracking number, the confirmation by
 * phone, finding orders, packing slips and the CSV export (docs/product.md, "Orders",
 * "Shipping an order", "Confirming an order by phone", "Packing slips", "Finding and exporting orders").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient } from "../support/http-client";
import { insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";
import { pageOf, signedInClient } from "../support/page-clients";

let server: TestServer;
let admin: TestClient;

const PHONE_MESSAGE = "Enter a Pakistani mobile number, e.g. 0300-1234567";
const address = { street: "12 Canal Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  server = await startTestServer();
  await insertUser(server, { name: "Desk Admin", email: "admin@desk.test", password: "adminpass1", role: "admin" });
  admin = await signedIn("admin@desk.test", "adminpass1");
});
afterAll(async () => {
  await server?.close();
});

const signedIn = (email: string, password: string) => signedInClient(server.baseUrl, email, password);

let shopperNumber = 0;
/** A new customer (with a profile phone when given), signed in through the log-in page, a watch in the cart. */
async function shopperWithCart(profilePhone = "") {
  shopperNumber += 1;
  const email = `shopper${shopperNumber}@desk.test`;
  const id = await insertUser(server, { name: `Shopper ${shopperNumber}`, email, password: "shopperpass1" });
  if (profilePhone) await server.database.db("users").where({ id }).update({ phone: profilePhone });
  const [productId] = await insertProducts(server, [{ name: `Desk Watch ${shopperNumber}`, price: 5000, stock: 5 }]);
  const client = await signedIn(email, "shopperpass1");
  await client.postForm("/cart", { intent: "add", productId: productId!, quantity: "1", then: "cart" });
  return { id, email, client, productId: productId! };
}

const html = pageOf;

/** The `<input>` tag of a form field, by its id. */
const inputTag = (page: string, id: string) => new RegExp(`<input id="${id}"[^>]*>`).exec(page)?.[0] ?? "";

/** The ids of the orders a page of the admin list shows, in order. */
const listedIds = (page: string) =>
  [...page.matchAll(/class="order-number" title="([0-9a-f-]{36})"/g)].map((match) => match[1]!);

/** A placed order through the checkout page. */
async function checkedOut(phone = "0300-1234567") {
  const shopper = await shopperWithCart();
  const placed = await shopper.client.postForm("/checkout", { ...address, phone, checkoutKey: `k-${shopperNumber}` });
  expect(placed.status).toBe(303);
  return { ...shopper, orderId: placed.headers.get("location")!.split("/").pop()! };
}

const orderRow = async (id: string) => server.database.db("orders").where({ id }).first();

type OrderRow = {
  name: string;
  email?: string;
  userId?: string | null;
  phone?: string | null;
  status?: string;
  createdAt?: Date;
  totalPrice?: number;
  street?: string;
  city?: string;
  courier?: string | null;
  trackingNumber?: string | null;
  items?: { name: string; quantity: number; unitPrice: number }[];
};

/** An order written straight into the database, so that each test states what it starts from. */
async function insertOrder(order: OrderRow): Promise<string> {
  const db = server.database.db;
  const items = order.items ?? [{ name: "Archived Watch", quantity: 1, unitPrice: order.totalPrice ?? 1000 }];
  const [row] = await db("orders")
    .insert({
      userId: order.userId ?? null,
      customerName: order.name,
      customerEmail: order.email ?? `${order.name.replace(/\W+/g, ".").toLowerCase() || "x"}@desk.test`,
      ...address,
      street: order.street ?? address.street,
      city: order.city ?? address.city,
      phone: order.phone ?? null,
      totalPrice: order.totalPrice ?? items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0),
      status: order.status ?? "Pending",
      paymentMethod: "Cash on Delivery",
      courier: order.courier ?? null,
      trackingNumber: order.trackingNumber ?? null,
      createdAt: order.createdAt ?? new Date(),
    })
    .returning("id");
  await db("order_items").insert(
    items.map((item, position) => ({
      orderId: row.id,
      productId: null,
      productName: item.name,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      position,
    })),
  );
  return row.id;
}

describe("checkout's Mobile Number", () => {
  it("is a labelled, required tel field, prefilled from the profile's phone when it is a mobile number", async () => {
    const mobile = await shopperWithCart("+92 300 7654321");
    const page = (await html(mobile.client, "/checkout")).text;
    expect(page).toContain('<label for="field-phone">Mobile Number</label>');
    const field = inputTag(page, "field-phone");
    for (const attribute of ['type="tel"', 'name="phone"', 'value="0300-7654321"', 'required=""', 'autoComplete="tel"'])
      expect(field).toContain(attribute);
    const landline = await shopperWithCart("042 3578 1234");
    expect(inputTag((await html(landline.client, "/checkout")).text, "field-phone")).toContain('value=""');
  });

  it("refuses a missing or foreign number with 400 beside the field, keeping what was typed, placing nothing", async () => {
    const shopper = await shopperWithCart();
    for (const phone of ["", "12345", "+44 7700 900123", "0300-123456"]) {
      const response = await shopper.client.postForm("/checkout", { ...address, phone, checkoutKey: `bad-${phone}` });
      expect(response.status, phone).toBe(400);
      const text = await response.text();
      expect(text).toContain(PHONE_MESSAGE);
      expect(text).toContain('value="12 Canal Road"');
      if (phone) expect(text).toContain(`value="${phone}"`);
    }
    expect(await server.database.db("orders").where({ userId: shopper.id }).first()).toBeUndefined();
    expect((await server.database.db("products").where({ id: shopper.productId }).first()).stock).toBe(5);
  });

  it("stores the number as +923…, fills an empty profile phone and says it will call", async () => {
    const { id, client, orderId } = await checkedOut("+92 300 1234567");
    expect((await orderRow(orderId)).phone).toBe("+923001234567");
    expect((await server.database.db("users").where({ id }).first()).phone).toBe("0300-1234567");
    const success = (await html(client, `/order-success/${orderId}`)).text;
    expect(success).toContain("We call you on 0300-1234567 to confirm your order");
    // The next checkout is prefilled with it.
    await insertProducts(server, [{ name: "Second Watch", stock: 3 }]).then(([productId]) =>
      client.postForm("/cart", { intent: "add", productId: productId!, quantity: "1", then: "cart" }),
    );
    expect(inputTag((await html(client, "/checkout")).text, "field-phone")).toContain('value="0300-1234567"');
  });
});

describe("shipping from the admin pages", () => {
  it("sends Shipped from the list to the page that asks for the courier and the tracking number", async () => {
    const { orderId } = await checkedOut();
    const chosen = await admin.postForm("/admin/orders", {
      intent: "status",
      orderId,
      status: "Shipped",
      returnTo: "/admin/orders?status=Pending",
    });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("location")).toBe(
      `/admin/orders/${orderId}/ship?returnTo=${encodeURIComponent("/admin/orders?status=Pending")}`,
    );
    expect((await orderRow(orderId)).status).toBe("Pending");
    const page = (await html(admin, chosen.headers.get("location")!)).text;
    expect(page).toContain('<label for="field-courier">Courier</label>');
    expect(page).toContain('<label for="field-trackingNumber">Tracking Number</label>');
    for (const courier of [
      "TCS",
      "Leopards",
      "M&amp;P",
      "Trax",
      "PostEx",
      "BlueEx",
      "Call Courier",
      "Pakistan Post",
      "Other",
    ])
      expect(page).toContain(`>${courier}</option>`);
    expect(page).toContain("Not confirmed yet");
    expect(page).toContain('name="returnTo" value="/admin/orders?status=Pending"');
  });

  it("requires both on the page, keeps what was typed, and asks once more for an order not confirmed by phone", async () => {
    const { client, orderId } = await checkedOut();
    const empty = await admin.postForm(`/admin/orders/${orderId}/ship`, { courier: "", trackingNumber: "" });
    expect(empty.status).toBe(400);
    const emptyText = await empty.text();
    expect(emptyText).toContain("Choose the courier</p>");
    expect(emptyText).toContain("Tracking number is required");

    const bad = await admin.postForm(`/admin/orders/${orderId}/ship`, { courier: "TCS", trackingNumber: "T#1" });
    expect(bad.status).toBe(400);
    const badText = await bad.text();
    expect(badText).toContain("Tracking number must be 4 to 40 letters, digits and dashes");
    expect(badText).toContain('value="T#1"');
    expect(badText).toMatch(/<option value="TCS" selected="">TCS<\/option>/);

    const asked = await admin.postForm(`/admin/orders/${orderId}/ship`, {
      courier: "TCS",
      trackingNumber: "TCS-778899",
      returnTo: "/admin/orders",
    });
    expect(asked.status).toBe(409);
    const question = await asked.text();
    expect(question).toContain("has not been confirmed by phone. Ship it anyway with TCS, tracking number TCS-778899?");
    expect(question).toContain('name="shipUnconfirmed" value="true"');
    expect(question).toContain('name="courier" value="TCS"');
    expect(question).toContain('name="trackingNumber" value="TCS-778899"');
    expect(await orderRow(orderId)).toMatchObject({ status: "Pending", courier: null, trackingNumber: null });

    const shipped = await admin.postForm(`/admin/orders/${orderId}/ship`, {
      courier: "TCS",
      trackingNumber: "TCS-778899",
      returnTo: "/admin/orders",
      shipUnconfirmed: "true",
    });
    expect(shipped.status).toBe(303);
    expect(shipped.headers.get("location")).toBe("/admin/orders");
    expect((await html(admin, "/admin/orders")).text).toContain("Order status updated to Shipped");
    expect(await orderRow(orderId)).toMatchObject({ status: "Shipped", courier: "TCS", trackingNumber: "TCS-778899" });

    // The customer sees them on My Orders, and still after Delivered.
    const mine = (await html(client, "/my-orders")).text;
    expect(mine).toContain("Courier: <strong>TCS</strong>");
    // Linked to TCS's page for this parcel (server/providers/couriers/courier-tracking.shared.ts).
    expect(mine).toContain(
      'Tracking number: <a href="https://www.tcsexpress.com/track/TCS-778899" rel="noreferrer" class="tracking-link"><strong class="tracking-number">TCS-778899</strong>',
    );
    await admin.postForm("/admin/orders", { orderId, status: "Delivered" });
    expect((await html(client, "/my-orders")).text).toContain("TCS-778899");
    expect((await html(client, "/my-orders")).text).toContain('class="status status--delivered"');
  });

  it("ships an order confirmed by phone at the first submit, and corrects the tracking number of a shipped one", async () => {
    const { orderId } = await checkedOut();
    await admin.postForm("/admin/orders", { intent: "confirm", orderId });
    const shipped = await admin.postForm(`/admin/orders/${orderId}/ship`, {
      courier: "M&P",
      trackingNumber: "MP-1" + "0".repeat(5),
    });
    expect(shipped.status).toBe(303);
    expect(shipped.headers.get("location")).toBe(`/admin/orders/${orderId}`);
    const details = (await html(admin, `/admin/orders/${orderId}`)).text;
    expect(details).toContain("M&amp;P");
    expect(details).toContain("Change courier or tracking number");
    const edit = (await html(admin, `/admin/orders/${orderId}/ship`)).text;
    expect(edit).toContain('value="MP-100000"');
    expect(edit).toContain(">Save<");
    expect(
      (await admin.postForm(`/admin/orders/${orderId}/ship`, { courier: "Leopards", trackingNumber: "LP-42424" }))
        .status,
    ).toBe(303);
    expect(await orderRow(orderId)).toMatchObject({
      status: "Shipped",
      courier: "Leopards",
      trackingNumber: "LP-42424",
    });
  });

  it("does not ask again for an order already shipped (unconfirmed) when only its tracking number changes", async () => {
    const { orderId } = await checkedOut();
    await server.services.fulfilment.updateStatus(orderId, { status: "Shipped" });
    const changed = await admin.postForm(`/admin/orders/${orderId}/ship`, {
      courier: "Trax",
      trackingNumber: "TRX-5555",
    });
    expect(changed.status).toBe(303);
    expect(await orderRow(orderId)).toMatchObject({ courier: "Trax", trackingNumber: "TRX-5555" });
  });

  it("answers the 404 page for an unknown order", async () => {
    expect((await html(admin, "/admin/orders/00000000-0000-4000-8000-000000000000/ship")).status).toBe(404);
    expect((await html(admin, "/admin/orders/not-an-id/slip")).status).toBe(404);
  });
});

describe("confirmed by phone, on the admin pages", () => {
  it("confirms from the list, says who and when on the order's page, and undoes", async () => {
    const { orderId } = await checkedOut();
    const list = (await html(admin, "/admin/orders")).text;
    expect(list).toContain("Not confirmed yet");
    expect(list).toMatch(/Confirmed by phone<span class="visually-hidden">: order #/);

    const confirmed = await admin.postForm("/admin/orders", { intent: "confirm", orderId, returnTo: "/admin/orders" });
    expect(confirmed.headers.get("location")).toBe("/admin/orders");
    expect((await html(admin, "/admin/orders")).text).toContain(
      `Order #${orderId.slice(-8).toUpperCase()} confirmed by phone`,
    );
    const row = await orderRow(orderId);
    expect(row.confirmedAt).toBeInstanceOf(Date);
    expect(row.confirmedByName).toBe("Desk Admin");

    const details = (await html(admin, `/admin/orders/${orderId}`)).text;
    expect(details).toContain('<span class="confirmation__badge">Confirmed by phone</span>');
    expect(details).toMatch(/by Desk Admin, \d{1,2} \w{3} \d{4}/);
    expect(details).toContain(">Undo<");

    await admin.postForm("/admin/orders", { intent: "unconfirm", orderId, returnTo: `/admin/orders/${orderId}` });
    expect((await html(admin, `/admin/orders/${orderId}`)).text).toContain(
      `Confirmation of order #${orderId.slice(-8).toUpperCase()} undone`,
    );
    expect(await orderRow(orderId)).toMatchObject({ confirmedAt: null, confirmedBy: null, confirmedByName: null });
  });

  it("refuses to confirm an order that is no longer Pending, with the reason on the next page", async () => {
    const { orderId } = await checkedOut();
    await server.services.fulfilment.updateStatus(orderId, { status: "Delivered" });
    await admin.postForm("/admin/orders", { intent: "confirm", orderId, returnTo: `/admin/orders/${orderId}` });
    const details = (await html(admin, `/admin/orders/${orderId}`)).text;
    expect(details).toContain("Only pending orders can be confirmed");
    expect(details).toContain("Not confirmed by phone");
    expect((await orderRow(orderId)).confirmedAt).toBeNull();
  });

  it("shows the customer's record (delivered, cancelled), counted over all their orders", async () => {
    const { id, orderId } = await checkedOut();
    const email = `shopper${shopperNumber}@desk.test`;
    for (const status of ["Delivered", "Delivered", "Cancelled", "Shipped"])
      await insertOrder({ name: "Record", email, userId: id, status });
    expect((await html(admin, `/admin/orders/${orderId}`)).text).toContain("2 delivered, 1 cancelled");
    expect((await html(admin, `/admin/orders?search=${encodeURIComponent(email)}`)).text).toContain(
      "2 delivered, 1 cancelled",
    );
  });

  it("filters the Pending orders not yet confirmed", async () => {
    const waiting = await insertOrder({ name: "Unconfirmed Filter Waiting" });
    const confirmed = await insertOrder({ name: "Unconfirmed Filter Called" });
    await server.services.fulfilment.confirmOrder(confirmed, {
      _id: (await server.database.db("users").where({ email: "admin@desk.test" }).first()).id,
      name: "Desk Admin",
    });
    const shipped = await insertOrder({ name: "Unconfirmed Filter Shipped", status: "Shipped" });
    const page = (
      await html(admin, `/admin/orders?status=Unconfirmed&search=${encodeURIComponent("Unconfirmed Filter")}`)
    ).text;
    expect(page).toContain('<option value="Unconfirmed" selected="">Pending, not confirmed by phone</option>');
    expect(listedIds(page)).toEqual([waiting]);
    expect(listedIds(page)).not.toContain(shipped);
  });
});

describe("finding orders", () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {
      ayesha: await insertOrder({ name: "Ayesha Siddiqui", email: "ayesha.s@findme.pk", phone: "+923125550001" }),
      bilal: await insertOrder({ name: "Bilal Chaudhry", email: "bchaudhry@findme.pk", phone: "+923217654321" }),
      nophone: await insertOrder({ name: "Percent 100% Khan", email: "percent@findme.pk" }),
    };
  });
  const found = async (search: string) =>
    listedIds((await html(admin, `/admin/orders?search=${encodeURIComponent(search)}`)).text);

  it("by the order number the store shows (8 characters, with or without #, any case) or the whole id", async () => {
    const number = ids.ayesha!.slice(-8);
    expect(await found(number.toUpperCase())).toEqual([ids.ayesha]);
    expect(await found(`#${number.toLowerCase()}`)).toEqual([ids.ayesha]);
    expect(await found(ids.bilal!)).toEqual([ids.bilal]);
  });

  it("by any part of the customer's name or email, any case", async () => {
    expect(await found("siddiq")).toEqual([ids.ayesha]);
    expect(await found("BILAL CH")).toEqual([ids.bilal]);
    expect(await found("bchaudhry@")).toEqual([ids.bilal]);
    expect((await found("@findme.pk")).sort()).toEqual([ids.ayesha, ids.bilal, ids.nophone].sort());
    // LIKE's wildcards are data: "%" finds the name with a percent sign only.
    expect(await found("100%")).toEqual([ids.nophone]);
  });

  it("by the mobile number in any accepted form, or a part of it", async () => {
    for (const phone of ["0312-5550001", "03125550001", "+92 312 5550001", "0312 555", "5550001"])
      expect(await found(phone), phone).toEqual([ids.ayesha]);
    expect(await found("0321-7654321")).toEqual([ids.bilal]);
    expect(await found("+44 7700 900123")).toEqual([]);
    expect((await html(admin, "/admin/orders?search=0399-0000000")).text).toContain("No orders found");
  });

  it("by a range of days in Pakistan's time, both ends included", async () => {
    // Midnight in Karachi (UTC+5) is 19:00 UTC the day before.
    const at = (iso: string) => new Date(iso);
    const edges = {
      lastOf9th: await insertOrder({ name: "Edge Day", createdAt: at("2026-03-09T18:59:59.999Z") }),
      firstOf10th: await insertOrder({ name: "Edge Day", createdAt: at("2026-03-09T19:00:00.000Z") }),
      lastOf10th: await insertOrder({ name: "Edge Day", createdAt: at("2026-03-10T18:59:59.999Z") }),
      firstOf11th: await insertOrder({ name: "Edge Day", createdAt: at("2026-03-10T19:00:00.000Z") }),
    };
    const between = async (query: string) =>
      listedIds((await html(admin, `/admin/orders?search=Edge+Day&${query}`)).text);
    expect(await between("from=2026-03-10&to=2026-03-10")).toEqual([edges.lastOf10th, edges.firstOf10th]);
    expect(await between("to=2026-03-09")).toEqual([edges.lastOf9th]);
    expect(await between("from=2026-03-11")).toEqual([edges.firstOf11th]);
    expect(await between("from=2026-03-09&to=2026-03-11")).toHaveLength(4);
    // The list's pages keep the filter.
    const filtered = (await html(admin, "/admin/orders?search=Edge+Day&from=2026-03-10&status=Pending")).text;
    expect(filtered).toContain('href="/admin/orders/slips?status=Pending&amp;search=Edge+Day&amp;from=2026-03-10"');
    expect(filtered).toContain(
      'href="/admin/orders/export.csv?status=Pending&amp;search=Edge+Day&amp;from=2026-03-10"',
    );
  });

  it("says which date is wrong, beside its field, keeping what was typed", async () => {
    const wrong = await html(admin, "/admin/orders?from=2026-02-30&to=2026-03-01");
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("From must be a date written YYYY-MM-DD");
    expect(wrong.text).toContain('value="2026-02-30"');
    const backwards = await html(admin, "/admin/orders?from=2026-03-02&to=2026-03-01");
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain("To must not be before From");
    // An unknown status is forgiven, as on every page.
    expect((await html(admin, "/admin/orders?status=Lost")).status).toBe(200);
  });
});

describe("packing slips", () => {
  it("prints one order's slip: shop and return address, the receiver in large type, items and the amount to collect", async () => {
    const orderId = await insertOrder({
      name: "Zainab Raza",
      phone: "+923451112223",
      street: "House 7, Street 3, F-8/2",
      city: "Islamabad",
      items: [
        { name: "Seamaster Slip", quantity: 2, unitPrice: 25000 },
        { name: "Casio Slip", quantity: 1, unitPrice: 1999.99 },
      ],
    });
    const { status, text } = await html(admin, `/admin/orders/${orderId}/slip`);
    expect(status).toBe(200);
    expect(text).not.toContain('class="site-header"');
    expect(text).not.toContain('class="site-footer"');
    expect(text).not.toContain("<nav");
    expect(text).toContain('class="slips slips--a6"');
    for (const part of [
      '<div class="slip__shop">Waqt</div>',
      "Return address: 45 MM Alam Road, Gulberg III, Lahore, Pakistan",
      '<p class="slip__name">Zainab Raza</p>',
      '<p class="slip__phone">0345-1112223</p>',
      "House 7, Street 3, F-8/2",
      "Islamabad, Punjab 54000",
      `Order #${orderId.slice(-8).toUpperCase()}`,
      "<td>Seamaster Slip</td><td>2</td>",
      "<td>Casio Slip</td><td>1</td>",
      "Cash on Delivery: collect Rs. 51,999.99",
    ])
      expect(text).toContain(part);
    expect((await html(admin, `/admin/orders/${orderId}/slip?paper=a4`)).text).toContain('class="slips slips--a4"');
  });

  it("prints the slips of the list's filter, one each, leaving Cancelled orders out", async () => {
    const sent = [
      await insertOrder({ name: "Slip Batch One", phone: "+923000000001" }),
      await insertOrder({ name: "Slip Batch Two", status: "Shipped", courier: "PostEx", trackingNumber: "PX-1000" }),
    ];
    const cancelled = await insertOrder({ name: "Slip Batch Gone", status: "Cancelled" });
    const page = (await html(admin, "/admin/orders/slips?search=Slip+Batch")).text;
    expect(page.match(/<article class="slip"/g)).toHaveLength(2);
    expect(page).toContain("2 slips, one a page.");
    expect(page).toContain("Slip Batch One");
    expect(page).toContain("No mobile number");
    expect(page).toContain("PostEx PX-1000");
    expect(page).not.toContain(cancelled.slice(-8).toUpperCase());
    expect(page).toContain(sent[0]!.slice(-8).toUpperCase());
    const onlyPending = (await html(admin, "/admin/orders/slips?search=Slip+Batch&status=Pending&paper=a4")).text;
    expect(onlyPending.match(/<article class="slip"/g)).toHaveLength(1);
    expect(onlyPending).toContain('href="/admin/orders/slips?status=Pending&amp;search=Slip+Batch&amp;paper=a6"');
    const none = (await html(admin, "/admin/orders/slips?search=Slip+Batch&status=Cancelled")).text;
    expect(none).toContain("No orders to send for this filter");
    expect(none).not.toContain('<article class="slip"');
  });
});

/** RFC 4180: fields split on commas outside quotes, quotes doubled inside them, records ended by CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ",") {
      row.push(field);
      field = "";
    } else if (character === "\r" && text[index + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      index += 1;
    } else field += character;
  }
  if (field || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe("CSV export", () => {
  const HEADER = [
    "Order",
    "Date",
    "Customer",
    "Email",
    "Phone",
    "City",
    "Address",
    "Items",
    "Subtotal",
    "Discount",
    "Total",
    "Refund",
    "Status",
    "Courier",
    "Tracking Number",
  ];
  async function exported(query: string) {
    const response = await admin.get(`/admin/orders/export.csv?${query}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
  }

  it("downloads UTF-8 with a byte order mark, fixed English headers and one row per order of the filter", async () => {
    const shipped = await insertOrder({
      name: "عائشہ خان",
      email: "csv.urdu@export.pk",
      phone: "+923001234567",
      status: "Shipped",
      courier: "Call Courier",
      trackingNumber: "CC-998877",
      street: 'Flat 2, "Rose" Apartments',
      city: "Karachi",
      createdAt: new Date("2026-03-09T19:00:00.000Z"),
      items: [
        { name: "Seamaster CSV", quantity: 2, unitPrice: 25000 },
        { name: "Casio CSV", quantity: 1, unitPrice: 1999.99 },
      ],
    });
    await insertOrder({ name: "Export Pending", email: "csv.pending@export.pk", totalPrice: 25000 });
    const { response, bytes, text } = await exported("search=export.pk&status=Shipped");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.startsWith(`\uFEFF${HEADER.join(",")}\r\n`)).toBe(true);
    const rows = parseCsv(text.slice(1));
    expect(rows).toEqual([
      HEADER,
      [
        `#${shipped.slice(-8).toUpperCase()}`,
        "2026-03-10 00:00",
        "عائشہ خان",
        "csv.urdu@export.pk",
        "0300-1234567",
        "Karachi",
        'Flat 2, "Rose" Apartments, Karachi, Punjab 54000, Pakistan',
        "Seamaster CSV × 2; Casio CSV × 1",
        "51999.99",
        "0",
        "51999.99",
        "0",
        "Shipped",
        "Call Courier",
        "CC-998877",
      ],
    ]);
    // Quoted as RFC 4180 asks: the address has commas and quotes.
    expect(text).toContain('"Flat 2, ""Rose"" Apartments, Karachi, Punjab 54000, Pakistan"');
    const all = parseCsv((await exported("search=export.pk")).text.slice(1));
    expect(all).toHaveLength(3);
    expect(all[1]![10]).toBe("25000");
    expect(all[2]![10]).toBe("51999.99");
  });

  it("shows each order's subtotal, discount, total and the refunds paid for its returns", async () => {
    const orderId = await insertOrder({ name: "Refund CSV", email: "refund@csvmoney.pk", totalPrice: 22500 });
    const [code] = await server.database
      .db("discount_codes")
      .insert({ code: "CSVEID", type: "fixed", value: 2500.5 })
      .returning("id");
    await server.database
      .db("orders")
      .where({ id: orderId })
      .update({ discountCodeId: code.id, discountCode: "CSVEID", discountAmount: 2500.5, status: "Delivered" });
    await server.database.db("order_returns").insert([
      { orderId, reason: "Wrong item", status: "Received", refundAmount: 7000.25, refundMethod: "JazzCash" },
      { orderId, reason: "Other", status: "Rejected", rejectionReason: "Worn", refundAmount: 900 },
    ]);
    const [header, row] = parseCsv((await exported("search=csvmoney.pk")).text.slice(1));
    const cell = (name: string) => row![header!.indexOf(name)];
    expect([cell("Subtotal"), cell("Discount"), cell("Total"), cell("Refund")]).toEqual([
      "25000.5",
      "2500.5",
      "22500",
      "7000.25",
    ]);
  });

  it("makes a cell that a spreadsheet would run inert with a leading quote mark", async () => {
    const names = ['=HYPERLINK("http://evil.example","Click")', "+92 trick", "-1+1", "@SUM(A1:A9)", "\t=1+1"];
    for (const name of names) await insertOrder({ name, email: `inert.${names.indexOf(name)}@formula.pk` });
    const rows = parseCsv((await exported("search=formula.pk")).text.slice(1)).slice(1);
    expect(rows.map((row) => row[2]).sort()).toEqual(names.map((name) => `'${name}`).sort());
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("takes the list's filter: dates in Pakistan's time, and refuses a bad date with 400", async () => {
    await insertOrder({
      name: "Dated CSV",
      email: "dated@csvdates.pk",
      createdAt: new Date("2026-04-01T18:59:00.000Z"),
    });
    await insertOrder({
      name: "Dated CSV",
      email: "dated@csvdates.pk",
      createdAt: new Date("2026-04-01T19:00:00.000Z"),
    });
    const april2 = parseCsv((await exported("search=csvdates&from=2026-04-02&to=2026-04-02")).text.slice(1));
    expect(april2.slice(1).map((row) => row[1])).toEqual(["2026-04-02 00:00"]);
    const april1 = parseCsv((await exported("search=csvdates&to=2026-04-01")).text.slice(1));
    expect(april1.slice(1).map((row) => row[1])).toEqual(["2026-04-01 23:59"]);
    const refused = await admin.get("/admin/orders/export.csv?from=yesterday");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe("From must be a date written YYYY-MM-DD");
  });
});
