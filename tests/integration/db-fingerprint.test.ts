/**
 * The database fingerprint (tests/support/db-fingerprint.ts) is what two dozen tests compare to
 * say "a refused request changed nothing": if it could not change, none of them could fail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { databaseFingerprint } from "../support/db-fingerprint";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await insertUser(server, { name: "Print Person", email: "print@fingerprint.test", password: "printpass1" });
});
afterAll(async () => {
  await server?.close();
});

describe("the database fingerprint", () => {
  it("changes with any business table's rows, a column's value included, and not with a sign-in", async () => {
    const empty = await databaseFingerprint(server);
    expect(Object.keys(empty)).toEqual(expect.arrayContaining(["users", "products", "orders", "order_items"]));
    expect(Object.keys(empty)).not.toContain("sessions");

    const [productId] = await insertProducts(server, [{ name: "Printed Watch", stock: 3 }]);
    const withProduct = await databaseFingerprint(server);
    expect(withProduct.products).not.toBe(empty.products);
    expect(withProduct.users).toBe(empty.users);

    await server.database.db("products").where({ id: productId }).update({ stock: 4 });
    const restocked = await databaseFingerprint(server);
    expect(restocked.products).not.toBe(withProduct.products);

    await apiToken(new TestClient(server.baseUrl), "print@fingerprint.test", "printpass1");
    expect(await databaseFingerprint(server)).toEqual(restocked);
  });
});
