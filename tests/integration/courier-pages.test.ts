/**
 * The admin's pages for couriers booked through their APIs (docs/product.md, "Couriers through
 * their APIs"), as plain form posts against local fakes of PostEx and Leopards: a product's
 * weight, booking from an order's page and from the list, the airway bill, the barcode on the
 * packing slip and PostEx's load sheet; and nothing of it for customers, guests, or a store
 * without courier settings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_LOAD_SHEET, FAKE_PDF, FakeLeopards, FakePostex } from "../support/courier-fakes";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { TestClient } from "../support/http-client";
import { pageOf, signedInClient } from "../support/page-clients";
import { startTestServer, type TestServer } from "../support/test-server";

let postex: FakePostex;
let leopards: FakeLeopards;
let server: TestServer;
let bare: TestServer;
let api: TestClient;
let admin: TestClient;
let customer: TestClient;
let adminToken: string;
let customerToken: string;

beforeAll(async () => {
  postex = await new FakePostex().start();
  leopards = await new FakeLeopards().start();
  server = await startTestServer({ ...postex.settings(), ...leopards.settings(), COURIER_TIMEOUT_SECONDS: "0.5" });
  bare = await startTestServer({}, { shareDatabaseOf: server });
  api = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Desk Admin", email: "admin@cpages.test", password: "adminpass1", role: "admin" });
  await insertUser(server, { name: "Ayesha Khan", email: "ayesha@cpages.test", password: "shopperpass1" });
  adminToken = await apiToken(api, "admin@cpages.test", "adminpass1");
  customerToken = await apiToken(api, "ayesha@cpages.test", "shopperpass1");
  admin = await signedInClient(server.baseUrl, "admin@cpages.test", "adminpass1");
  customer = await signedInClient(server.baseUrl, "ayesha@cpages.test", "shopperpass1");
});
afterAll(async () => {
  await bare?.close();
  await server?.close();
  await postex?.stop();
  await leopards?.stop();
});
beforeEach(() => {
  postex.mode = { kind: "ok" };
  leopards.mode = { kind: "ok" };
});

/** A confirmed Pending order placed through the API, of `lines` (a new watch each), to `city`. */
async function confirmedOrder(
  city = "Lahore",
  lines: { weightGrams?: number; quantity: number }[] = [{ quantity: 1 }],
) {
  for (const line of lines) {
    const [productId] = await insertProducts(server, [
      { name: "Seiko 5", price: 2250.5, stock: 10, ...(line.weightGrams ? { weightGrams: line.weightGrams } : {}) },
    ]);
    const added = await api.api("POST", "/cart", {
      body: { productId, quantity: line.quantity },
      token: customerToken,
    });
    expect(added.status).toBe(200);
  }
  const placed = await api.api("POST", "/orders", {
    body: {
      address: { street: "12 Canal Road", city, state: "Punjab", zipCode: "54000", country: "Pakistan" },
      phone: "0300-1234567",
    },
    token: customerToken,
  });
  expect(placed.status).toBe(201);
  const id = placed.body.data._id as string;
  expect((await api.api("POST", `/orders/${id}/confirm`, { token: adminToken })).status).toBe(200);
  return id;
}

const reference = (id: string) => id.slice(-8).toUpperCase();
const consignmentsOf = (fake: FakePostex | FakeLeopards, id: string) =>
  fake.consignments.filter((consignment) => consignment.reference === reference(id));
const orderRow = (id: string) => server.database.db("orders").where({ id }).first();

describe("a product's weight", () => {
  const product = {
    name: "Weighed Watch",
    brand: "Casio",
    description: "Made in a test",
    price: "4500",
    stock: "7",
    category: "Men",
    imageUrl: "/images/placeholder-watch.svg",
  };

  it("is a field of the product form, checked beside it, kept by the API, and bounded by the database", async () => {
    const refused = await admin.postForm("/admin/products/new", { ...product, weightGrams: "0" });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('id="field-weightGrams-error" role="alert">Weight must be at least 1 gram<');
    expect(refusedHtml).toMatch(/<input[^>]*name="weightGrams"[^>]*value="0"/);
    expect(await server.database.db("products").where({ name: "Weighed Watch" }).first()).toBeUndefined();

    expect((await admin.postForm("/admin/products/new", { ...product, weightGrams: "750" })).status).toBe(303);
    const { id: productId } = await server.database.db("products").where({ name: "Weighed Watch" }).first();
    const shown = await api.api("GET", `/products/${productId}`);
    expect(shown.body.data.weightGrams).toBe(750);
    const edit = await pageOf(admin, `/admin/products/${productId}/edit`);
    expect(edit.text).toMatch(/<input[^>]*name="weightGrams"[^>]*value="750"/);
    // A PUT without it keeps it; the API's limits are the form's.
    const { _id, createdAt, updatedAt, rating, reviewCount, images, imagePlaceholder, weightGrams, ...rest } =
      shown.body.data;
    void [_id, createdAt, updatedAt, rating, reviewCount, images, imagePlaceholder, weightGrams];
    const kept = await api.api("PUT", `/products/${productId}`, { body: rest, token: adminToken });
    expect(kept.body.data.weightGrams).toBe(750);
    const tooHeavy = await api.api("PUT", `/products/${productId}`, {
      body: { ...rest, weightGrams: 30_001 },
      token: adminToken,
    });
    expect(tooHeavy.body.errors).toEqual([{ field: "weightGrams", message: "Weight must be at most 30000 grams" }]);
    await expect(server.database.db("products").where({ id: productId }).update({ weightGrams: 0 })).rejects.toThrow(
      /products_weight_grams_valid/,
    );
  });

  it("books each line's weight times its quantity, and 500 g a piece for a watch without one", async () => {
    const id = await confirmedOrder("Lahore", [{ weightGrams: 750, quantity: 2 }, { quantity: 1 }]);
    const booked = await api.api("POST", `/orders/${id}/shipment`, {
      body: { courier: "leopards" },
      token: adminToken,
    });
    expect(booked.status).toBe(200);
    expect(consignmentsOf(leopards, id)[0]!.booking).toMatchObject({
      booked_packet_weight: 2000,
      booked_packet_no_piece: 3,
    });
    const other = await confirmedOrder("Karachi", [{ weightGrams: 120, quantity: 3 }]);
    expect(
      (await api.api("POST", `/orders/${other}/shipment`, { body: { courier: "postex" }, token: adminToken })).status,
    ).toBe(200);
    expect(consignmentsOf(postex, other)[0]!.booking).toMatchObject({ bookingWeight: 0.36, items: 3 });
  });
});

/** The order's page, as an admin's browser without JavaScript gets it. */
const orderPage = async (id: string, client = admin) => pageOf(client, `/admin/orders/${id}`);
const bookFromPage = (id: string, fields: Record<string, string>, client = admin) =>
  client.postForm(`/admin/orders/${id}`, { intent: "book", ...fields });
/** The options of the city <select> of a courier's booking form. */
const cityOptions = (html: string, courier: string) => {
  const select = new RegExp(`<select id="field-city-${courier}"[\\s\\S]*?</select>`).exec(html)?.[0] ?? "";
  return [...select.matchAll(/<option value="([^"]*)"( selected="")?/g)].map((m) => (m[2] ? `[${m[1]}]` : m[1]));
};

describe("booking from the order's page", () => {
  it("offers each courier that is on, books with one, and shows the booking with its airway bill and cancel", async () => {
    const id = await confirmedOrder();
    const before = await orderPage(id);
    expect(before.text).toContain(">Book with PostEx</button>");
    expect(before.text).toContain(">Book with Leopards</button>");

    const booked = await bookFromPage(id, { courier: "postex" });
    expect(booked.status).toBe(303);
    expect(booked.headers.get("location")).toBe(`/admin/orders/${id}`);
    const [consignment] = consignmentsOf(postex, id);
    const after = await orderPage(id);
    expect(after.text).toContain(`Booked with PostEx: tracking number ${consignment!.trackingNumber}`);
    expect(after.text).toContain(`href="/admin/orders/${id}/airway-bill"`);
    expect(after.text).toContain(">Cancel booking</button>");
    expect(after.text).not.toContain(">Book with PostEx</button>");
    expect(await orderRow(id)).toMatchObject({
      status: "Pending",
      courier: "PostEx",
      trackingNumber: consignment!.trackingNumber,
    });

    // A second press (an old tab) books nothing more and says why.
    const again = await bookFromPage(id, { courier: "postex" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(
      `This order is booked with PostEx already (tracking number ${consignment!.trackingNumber})`,
    );
    expect(consignmentsOf(postex, id)).toHaveLength(1);

    const cancelled = await admin.postForm(`/admin/orders/${id}`, { intent: "cancel-booking" });
    expect(cancelled.status).toBe(303);
    expect(consignment!.cancelled).toBe(true);
    const reopened = await orderPage(id);
    expect(reopened.text).toContain("Booking cancelled: the order can be booked again.");
    expect(reopened.text).toContain(">Book with PostEx</button>");
    expect(await orderRow(id)).toMatchObject({ courier: null, trackingNumber: null });
  });

  it("asks for the city from the courier's list when the order's does not match, keeping the choice, and books with it", async () => {
    const id = await confirmedOrder("Lahore Cantt");
    const unmatched = await bookFromPage(id, { courier: "leopards" });
    expect(unmatched.status).toBe(400);
    const unmatchedHtml = await unmatched.text();
    expect(unmatchedHtml).toContain(
      `id="field-city-leopards-error" role="alert">&quot;Lahore Cantt&quot; is not one of the Leopards cities: choose the city from the list<`,
    );
    expect(cityOptions(unmatchedHtml, "leopards")).toEqual([
      "[]",
      "Faisalabad",
      "Islamabad",
      "Karachi",
      "Lahore",
      "Rawalpindi",
    ]);
    const nothingChosen = await bookFromPage(id, { courier: "leopards", city: "" });
    expect(await nothingChosen.text()).toContain("Choose the city from the Leopards list");

    // Refused with a city chosen: the courier's words, the choice still selected, "Try again".
    leopards.mode = { kind: "refuse", message: "Invalid consignee phone" };
    const refused = await bookFromPage(id, { courier: "leopards", city: "Lahore" });
    expect(refused.status).toBe(502);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Leopards refused: Leopards: Invalid consignee phone");
    expect(cityOptions(refusedHtml, "leopards")).toContain("[Lahore]");
    expect(refusedHtml).toContain(">Try again with Leopards</button>");
    expect(consignmentsOf(leopards, id)).toHaveLength(0);

    leopards.mode = { kind: "ok" };
    expect((await bookFromPage(id, { courier: "leopards", city: "Lahore" })).status).toBe(303);
    const [consignment] = consignmentsOf(leopards, id);
    expect(consignment!.booking).toMatchObject({ destination_city: "789" });
    expect((await orderPage(id)).text).toContain(
      `Booked with Leopards: tracking number ${consignment!.trackingNumber}`,
    );
  });

  it("shows a refusal or no answer beside the buttons with Try again, the order unchanged", async () => {
    const id = await confirmedOrder();
    postex.mode = { kind: "refuse", message: "INVALID CUSTOMER PHONE" };
    const refused = await bookFromPage(id, { courier: "postex" });
    expect(refused.status).toBe(502);
    const html = await refused.text();
    expect(html).toContain('role="alert">PostEx refused: PostEx: INVALID CUSTOMER PHONE<');
    expect(html).toContain(">Try again with PostEx</button>");
    expect(html).toContain(">Book with Leopards</button>");
    expect(await orderRow(id)).toMatchObject({ status: "Pending", courier: null, trackingNumber: null });
    // Reloaded later, the page still says what the courier said.
    expect((await orderPage(id)).text).toContain("PostEx refused: PostEx: INVALID CUSTOMER PHONE");

    postex.mode = { kind: "down" };
    const down = await bookFromPage(id, { courier: "postex" });
    expect(down.status).toBe(502);
    const downHtml = await down.text();
    expect(downHtml).toContain("the booking is in doubt. Try again");
    // In doubt: only PostEx may be asked again (it is asked first whether it booked).
    expect(downHtml).toContain(">Try again with PostEx</button>");
    expect(downHtml).not.toContain(">Book with Leopards</button>");
    postex.mode = { kind: "ok" };
    expect((await bookFromPage(id, { courier: "postex" })).status).toBe(303);
    expect(consignmentsOf(postex, id)).toHaveLength(1);
  });
});

describe("Book selected on the orders list", () => {
  it("books each ticked order in turn and says what became of each", async () => {
    const ready = await confirmedOrder("Karachi");
    const cityToChoose = await confirmedOrder("Lahore Cantt");
    const bookedAlready = await confirmedOrder("Islamabad");
    expect((await bookFromPage(bookedAlready, { courier: "postex" })).status).toBe(303);

    const list = await pageOf(admin, "/admin/orders");
    expect(list.text).toMatch(/<form id="book-selected"[^>]* action="\/admin\/orders\/book" method="post">/);
    expect(list.text).toMatch(
      new RegExp(
        `<input type="checkbox" form="book-selected" aria-label="Select order #${reference(ready)} to book" name="orderId" value="${ready}"/>`,
      ),
    );
    expect(list.text).not.toContain(`aria-label="Select order #${reference(bookedAlready)} to book"`);

    const form = new URLSearchParams({ courier: "postex", returnTo: "/admin/orders" });
    for (const id of [ready, cityToChoose, bookedAlready]) form.append("orderId", id);
    const answer = await admin.postForm("/admin/orders/book", form);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const tracking = consignmentsOf(postex, ready)[0]!.trackingNumber;
    // What each line says, as read on the page (tags and entities aside).
    const lines = [...html.matchAll(/<li class="order-bookings__[^"]+">([\s\S]*?)<\/li>/g)].map((match) =>
      match[1]!
        .replace(/<[^>]+>/g, "")
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'"),
    );
    expect(html).toContain("1 of 3 orders booked.");
    expect(lines).toEqual([
      `Order #${reference(ready)}: booked with PostEx, tracking number ${tracking}`,
      `Order #${reference(cityToChoose)}: not booked. "Lahore Cantt" is not one of the PostEx cities: choose the city from the list: choose it on the order's page`,
      `Order #${reference(bookedAlready)}: not booked. This order is booked with PostEx already (tracking number ${consignmentsOf(postex, bookedAlready)[0]!.trackingNumber})`,
    ]);
    expect(html).toMatch(
      new RegExp(`<a href="/admin/orders/${cityToChoose}"[^>]*>choose it on the order&#x27;s page</a>`),
    );
    expect(consignmentsOf(postex, cityToChoose)).toHaveLength(0);
    expect(consignmentsOf(postex, bookedAlready)).toHaveLength(1);
  });
});

describe("the papers of a booked parcel", () => {
  it("serves PostEx's airway bill PDF through the store, and sends to Leopards' slip link", async () => {
    const id = await confirmedOrder();
    expect((await bookFromPage(id, { courier: "postex" })).status).toBe(303);
    const tracking = consignmentsOf(postex, id)[0]!.trackingNumber;
    const bill = await admin.get(`/admin/orders/${id}/airway-bill`);
    expect(bill.status).toBe(200);
    expect(bill.headers.get("content-type")).toBe("application/pdf");
    expect(bill.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.from(await bill.arrayBuffer())).toEqual(FAKE_PDF);
    // Asked with the store's token in a header, never in the address.
    const asked = postex.callsTo("/v1/get-invoice").at(-1)!;
    expect(asked.query.get("trackingNumbers")).toBe(tracking);
    expect(asked.headers.token).toBe(postex.settings().POSTEX_TOKEN);
    expect(postex.requests.some((request) => request.query.toString().includes(postex.settings().POSTEX_TOKEN!))).toBe(
      false,
    );

    const other = await confirmedOrder("Karachi");
    expect((await bookFromPage(other, { courier: "leopards" })).status).toBe(303);
    const slip = await server.database.db("shipments").where({ orderId: other, state: "booked" }).first();
    const link = await admin.get(`/admin/orders/${other}/airway-bill`);
    expect(link.status).toBe(302);
    expect(link.headers.get("location")).toBe(slip.airwayBillUrl);

    // Not booked: back to the order's page, saying so.
    const unbooked = await confirmedOrder();
    const none = await admin.get(`/admin/orders/${unbooked}/airway-bill`);
    expect(none.status).toBe(303);
    expect((await orderPage(unbooked)).text).toContain(
      "No airway bill: This order is not booked with a courier: there is no airway bill to print",
    );
  });

  it("prints the tracking number as a Code 128 barcode on the packing slip, and leaves an unbooked slip as it was", async () => {
    const id = await confirmedOrder();
    const unbookedSlip = await pageOf(admin, `/admin/orders/${id}/slip`);
    expect(unbookedSlip.status).toBe(200);
    expect(unbookedSlip.text).not.toContain("slip__barcode");
    expect(unbookedSlip.text).not.toContain("<svg");

    expect((await bookFromPage(id, { courier: "postex" })).status).toBe(303);
    const tracking = consignmentsOf(postex, id)[0]!.trackingNumber;
    const slip = await pageOf(admin, `/admin/orders/${id}/slip`);
    const figure = /<figure class="slip__barcode">[\s\S]*?<\/figure>/.exec(slip.text)?.[0] ?? "";
    expect(figure).toContain(`aria-label="Barcode of tracking number ${tracking}"`);
    expect(figure).toMatch(/<svg viewBox="[^"]+" xmlns="http:\/\/www.w3.org\/2000\/svg">\s*<path/);
    expect(figure).toContain(`<figcaption class="slip__barcode-number">${tracking}</figcaption>`);
    // The same bars as bwip-js draws for this number in Code 128: a scanner reads the number back.
    const { default: bwipjs } = await import("bwip-js/node");
    const expected = bwipjs.toSVG({ bcid: "code128", text: tracking, height: 12, scale: 2, paddingwidth: 4 });
    expect(figure).toContain(/d="([^"]+)"/.exec(expected)![1]);
    // The slips of a filter carry it too.
    expect((await pageOf(admin, `/admin/orders/slips?search=${reference(id)}`)).text).toContain(
      `Barcode of tracking number ${tracking}`,
    );
  });

  it("makes PostEx's load sheet of today's booked parcels, served through the store", async () => {
    const id = await confirmedOrder();
    expect((await bookFromPage(id, { courier: "postex" })).status).toBe(303);
    const cancelledOne = await confirmedOrder();
    expect((await bookFromPage(cancelledOne, { courier: "postex" })).status).toBe(303);
    expect((await admin.postForm(`/admin/orders/${cancelledOne}`, { intent: "cancel-booking" })).status).toBe(303);

    expect((await pageOf(admin, "/admin/orders")).text).toContain(
      '<form action="/admin/orders/load-sheet" method="post"><button type="submit" class="button button--ghost">PostEx load sheet (today)</button>',
    );
    const sheet = await admin.postForm("/admin/orders/load-sheet", {});
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await sheet.arrayBuffer())).toEqual(FAKE_LOAD_SHEET);
    const asked = postex.callsTo("/v2/generate-load-sheet").at(-1)!;
    const booked: { trackingNumber: string }[] = await server.database
      .db("shipments")
      .where({ courier: "PostEx", state: "booked" })
      .select("trackingNumber");
    expect(asked.body).toEqual({
      pickupAddress: "001",
      trackingNumbers: expect.arrayContaining(booked.map((row) => row.trackingNumber)),
    });
    expect(asked.body.trackingNumbers).toHaveLength(booked.length);
    expect(asked.body.trackingNumbers).not.toContain(consignmentsOf(postex, cancelledOne)[0]!.trackingNumber);

    postex.mode = { kind: "down" };
    const down = await admin.postForm("/admin/orders/load-sheet", {});
    expect(down.status).toBe(303);
    expect((await pageOf(admin, "/admin/orders")).text).toContain("No load sheet: PostEx is not answering (HTTP 503)");
  });
});

describe("who may use them", () => {
  it("refuses customers and guests: nothing booked, no papers", async () => {
    const id = await confirmedOrder();
    const guest = new TestClient(server.baseUrl);
    for (const client of [customer, guest]) {
      const expected = client === guest ? /^\/login\?redirectTo=/ : /^\/$/;
      const booking = await bookFromPage(id, { courier: "postex" }, client);
      expect(booking.headers.get("location")).toMatch(expected);
      const selected = await client.postForm("/admin/orders/book", { orderId: id, courier: "postex" });
      expect(selected.headers.get("location")).toMatch(expected);
      const bill = await client.get(`/admin/orders/${id}/airway-bill`);
      expect(bill.headers.get("location")).toMatch(expected);
      const sheet = await client.postForm("/admin/orders/load-sheet", {});
      expect(sheet.headers.get("location")).toMatch(expected);
    }
    expect(consignmentsOf(postex, id)).toHaveLength(0);
    expect(consignmentsOf(leopards, id)).toHaveLength(0);
    expect(await orderRow(id)).toMatchObject({ courier: null, trackingNumber: null });
  });

  it("changes nothing for a store without courier settings", async () => {
    const id = await confirmedOrder();
    const bareAdmin = await signedInClient(bare.baseUrl, "admin@cpages.test", "adminpass1");
    const page = await pageOf(bareAdmin, `/admin/orders/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Courier booking");
    expect(page.text).not.toContain("Book with");
    const list = await pageOf(bareAdmin, "/admin/orders");
    expect(list.text).not.toContain("Book selected");
    expect(list.text).not.toContain("load sheet");
    expect(list.text).not.toContain('form="book-selected"');
    const selected = await bareAdmin.postForm("/admin/orders/book", { orderId: id, courier: "postex" });
    expect(selected.status).toBe(400);
    expect(await selected.text()).toContain("Choose a courier to book with");
    expect(consignmentsOf(postex, id)).toHaveLength(0);
  });
});
