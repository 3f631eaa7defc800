import { expect } from "vitest";
import { FakeLeopards, FakePostex } from "./courier-fakes";
import { apiToken, insertProducts, insertUser } from "./fixtures";
import { TestClient } from "./http-client";
import { startTestServer, type TestServer } from "./test-server";

/**
 * A store with couriers on, for the tests of booking and following parcels
 * (tests/integration/courier-*.test.ts): the PostEx and Leopards fakes (courier-fakes/), a test
 * server booking through them, its admin and a customer with their API tokens, and the orders
 * those tests hand to a courier, placed, confirmed and booked as an admin does it through the API.
 */
export type CourierStoreOptions = {
  /** Settings beyond the couriers' own; COURIER_TIMEOUT_SECONDS is 1 unless given here. */
  settings?: Record<string, string>;
  /** How the test server starts (its clock, its job runner). */
  server?: Parameters<typeof startTestServer>[1];
  /** The test file's admin (named Desk Admin) and customer: their addresses show in its mails and pages. */
  adminEmail: string;
  customer: { name: string; email: string };
};

export const ADMIN_PASSWORD = "adminpass1";
export const CUSTOMER_PASSWORD = "shopperpass1";

/** An order of one watch as the customer places it; what a test leaves out is an order to Lahore at Rs. 3,000. */
export type CourierOrder = {
  /** The watch's price. */
  price?: number;
  quantity?: number;
  city?: string;
  phone?: string;
  /** More of the order's fields as the API takes them (language, paymentMethod). */
  fields?: Record<string, unknown>;
};

export type Courier = "postex" | "leopards";

/** When the couriers' fakes report a parcel picked up unless a test says otherwise. */
const PICKED_UP_AT = new Date("2026-11-20T08:00:00Z");

export class CourierStore {
  private readonly others: TestServer[] = [];

  private constructor(
    readonly postex: FakePostex,
    readonly leopards: FakeLeopards,
    /** The couriers' settings this store was started with, for another server with the same couriers. */
    readonly courierSettings: Record<string, string>,
    readonly server: TestServer,
    readonly client: TestClient,
    readonly adminToken: string,
    readonly customerToken: string,
  ) {}

  static async start(options: CourierStoreOptions): Promise<CourierStore> {
    const postex = await new FakePostex().start();
    const leopards = await new FakeLeopards().start();
    let server: TestServer | null = null;
    try {
      const courierSettings = { ...postex.settings(), ...leopards.settings(), COURIER_TIMEOUT_SECONDS: "1" };
      server = await startTestServer({ ...courierSettings, ...options.settings }, options.server);
      const client = new TestClient(server.baseUrl);
      await insertUser(server, {
        name: "Desk Admin",
        email: options.adminEmail,
        password: ADMIN_PASSWORD,
        role: "admin",
      });
      await insertUser(server, { ...options.customer, password: CUSTOMER_PASSWORD });
      return new CourierStore(
        postex,
        leopards,
        courierSettings,
        server,
        client,
        await apiToken(client, options.adminEmail, ADMIN_PASSWORD),
        await apiToken(client, options.customer.email, CUSTOMER_PASSWORD),
      );
    } catch (error) {
      // A store that did not start leaves no fake listening and no database behind.
      await server?.close();
      await postex.stop();
      await leopards.stop();
      throw error;
    }
  }

  /** Another app server on this store's database with these settings (none: a store without couriers); closed with the store. */
  async sameDatabase(settings: Record<string, string> = {}): Promise<TestServer> {
    const other = await startTestServer(settings, { shareDatabaseOf: this.server });
    this.others.push(other);
    return other;
  }

  fakeOf(courier: Courier): FakePostex | FakeLeopards {
    return courier === "postex" ? this.postex : this.leopards;
  }

  /** Both couriers answer again, as a test that made one refuse, slow or down may have left them. */
  couriersAnswer(): void {
    this.postex.mode = { kind: "ok" };
    this.leopards.mode = { kind: "ok" };
  }

  /** Parcels of earlier tests are no longer followed (their stage is final), so a sync sees only a test's own. */
  async forgetEarlierParcels(): Promise<void> {
    await this.server.database.db("shipments").update({ stage: "delivered" });
  }

  /** The customer's order, placed through the API; answers its id. */
  async placedOrder(order: CourierOrder = {}): Promise<string> {
    const [productId] = await insertProducts(this.server, [{ name: "Seiko 5", price: order.price ?? 3000, stock: 10 }]);
    const quantity = order.quantity ?? 1;
    const added = await this.client.api("POST", "/cart", { body: { productId, quantity }, token: this.customerToken });
    expect(added.status).toBe(200);
    const placed = await this.client.api("POST", "/orders", {
      body: {
        address: {
          street: "12 Canal Road",
          city: order.city ?? "Lahore",
          state: "Punjab",
          zipCode: "54000",
          country: "Pakistan",
        },
        phone: order.phone ?? "0300-1234567",
        ...order.fields,
      },
      token: this.customerToken,
    });
    expect(placed.status).toBe(201);
    return placed.body.data._id as string;
  }

  /** The customer's order, confirmed by the admin and ready to book (Pending). */
  async confirmedOrder(order: CourierOrder = {}): Promise<string> {
    const id = await this.placedOrder(order);
    const confirmed = await this.client.api("POST", `/orders/${id}/confirm`, { token: this.adminToken });
    expect(confirmed.status).toBe(200);
    return id;
  }

  /** A confirmed order booked with the courier; answers its id and tracking number. */
  async bookedOrder(courier: Courier, order: CourierOrder = {}): Promise<{ id: string; trackingNumber: string }> {
    const id = await this.confirmedOrder(order);
    const booked = await this.client.api("POST", `/orders/${id}/shipment`, {
      body: { courier },
      token: this.adminToken,
    });
    expect(booked.status).toBe(200);
    return { id, trackingNumber: booked.body.data.trackingNumber as string };
  }

  /** A booked order the courier reports picked up at `at` (seen by the next sync). */
  async pickedUpOrder(
    courier: Courier,
    order: CourierOrder = {},
    at = PICKED_UP_AT,
  ): Promise<{ id: string; trackingNumber: string }> {
    const booked = await this.bookedOrder(courier, order);
    this.fakeOf(courier).report(booked.trackingNumber, { text: "Shipment Picked", code: "0003", at });
    return booked;
  }

  /** The admin's sync of the parcels, on this store's server or another on its database. */
  sync(on: TestServer = this.server) {
    return new TestClient(on.baseUrl).api("POST", "/shipments/sync", { token: this.adminToken });
  }

  async close(): Promise<void> {
    for (const other of this.others) await other.close();
    await this.server.close();
    await this.postex.stop();
    await this.leopards.stop();
  }
}
