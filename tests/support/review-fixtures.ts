import { expect } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import type { TestClient } from "./http-client";
import { apiToken, insertProducts } from "./fixtures";
import type { TestServer } from "./test-server";

const address = { street: "12 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

/**
 * Shoppers and their orders for the reviews' tests, made the way customers and admins make them:
 * the order placed through the API and moved to Delivered by an admin's PATCH.
 */
export class ReviewScene {
  private shoppers = 0;

  constructor(
    private readonly server: TestServer,
    private readonly client: TestClient,
    private readonly adminToken: string,
    private readonly domain: string,
  ) {}

  /** A new customer, with a bearer token (bcrypt cost 4: the tests make many). */
  async shopper(name?: string): Promise<{ id: string; email: string; token: string; password: string }> {
    this.shoppers += 1;
    const email = `shopper${this.shoppers}@${this.domain}`;
    const password = "shopperpass1";
    const [row] = await this.server.database
      .db("users")
      .insert({ name: name ?? `Shopper Number${this.shoppers}`, email, passwordHash: await hashPassword(password, 4) })
      .returning("id");
    return { id: row.id, email, password, token: await apiToken(this.client, email, password) };
  }

  async watch(name: string): Promise<string> {
    const [id] = await insertProducts(this.server, [{ name, price: 25_000, stock: 50 }]);
    return id!;
  }

  /** The shopper orders one of the watch; Delivered unless another status is named. */
  async order(token: string, productId: string, status: "Delivered" | "Pending" | "Shipped" = "Delivered") {
    expect((await this.client.api("POST", "/cart", { body: { productId, quantity: 1 }, token })).status).toBe(200);
    const placed = await this.client.api("POST", "/orders", { body: { address }, token });
    expect(placed.status).toBe(201);
    const orderId = placed.body.data._id as string;
    if (status !== "Pending") {
      const moved = await this.client.api("PATCH", `/orders/${orderId}/status`, {
        body: { status },
        token: this.adminToken,
      });
      expect(moved.status).toBe(200);
    }
    return orderId;
  }
}
