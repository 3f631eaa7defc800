import type { WatchSpecs } from "../../server/modules/catalog/watch-specs.shared";
import { expect } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import type { TestClient } from "./http-client";
import type { TestServer } from "./test-server";

/** Rows written straight into the test database, so each test states exactly what it starts from. */
export async function insertUser(
  server: TestServer,
  user: { name: string; email: string; password: string; role?: "admin" | "customer" },
): Promise<string> {
  const [row] = await server.database
    .db("users")
    .insert({
      name: user.name,
      email: user.email,
      passwordHash: await hashPassword(user.password),
      role: user.role ?? "customer",
    })
    .returning("id");
  return row.id;
}

export type ProductRow = {
  name: string;
  description?: string;
  price?: number;
  category?: "Men" | "Women";
  imageUrl?: string;
  stock?: number;
  brand?: string;
  weightGrams?: number;
  createdAt?: Date;
} & Partial<WatchSpecs>;

/** Inserts products; without createdAt each is one minute newer than the one before. */
export async function insertProducts(server: TestServer, products: ProductRow[]): Promise<string[]> {
  const base = Date.UTC(2026, 0, 1);
  const rows = await server.database
    .db("products")
    .insert(
      products.map((product, index) => ({
        description: `${product.name} description`,
        price: 10000,
        category: "Men",
        imageUrl: "/images/placeholder-watch.svg",
        stock: 5,
        brand: "",
        ...product,
        createdAt: product.createdAt ?? new Date(base + index * 60_000),
      })),
    )
    .returning("id");
  return rows.map((row: { id: string }) => row.id);
}

export async function apiToken(client: TestClient, email: string, password: string): Promise<string> {
  const response = await client.api("POST", "/auth/login", { body: { email, password } });
  expect(response.status).toBe(200);
  return response.body.data.token;
}
