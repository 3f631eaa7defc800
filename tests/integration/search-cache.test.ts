import type { Knex } from "knex";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

/**
 * The search result cache (server/modules/catalog/search-cache.ts, migration 21) on two app
 * servers sharing one database: the same search again is answered from the cache, and never
 * stale — a product added, renamed, moved, repriced, deleted or restocked between two identical
 * searches shows in the second, whichever app server made the change, or SQL directly.
 */
let serverA: TestServer;
let serverB: TestServer;
let clientA: TestClient;
let clientB: TestClient;
let adminToken: string;

beforeAll(async () => {
  serverA = await startTestServer();
  serverB = await startTestServer({}, { shareDatabaseOf: serverA });
  clientA = new TestClient(serverA.baseUrl);
  clientB = new TestClient(serverB.baseUrl);
  await insertUser(serverA, { name: "Admin", email: "admin@search.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(clientB, "admin@search.test", "adminpass1");
});
afterAll(async () => {
  await serverB?.close();
  await serverA?.close();
});
beforeEach(async () => {
  await serverA.database.db("products").del();
});

type Listed = { name: string; stock: number; _id: string };
type Searched = { names: string[]; stocks: number[]; total: number; queries: number };

/** A search through the API of one app server, and how many statements it sent to the database. */
async function search(server: TestServer, query: string): Promise<Searched> {
  const client = server === serverA ? clientA : clientB;
  const db = server.database.db as Knex;
  let queries = 0;
  const count = () => queries++;
  db.on("query", count);
  try {
    const response = await client.api("GET", `/products?${query}`);
    expect(response.status).toBe(200);
    const data = response.body.data as Listed[];
    return {
      names: data.map((product) => product.name),
      stocks: data.map((product) => product.stock),
      total: response.body.pagination.total,
      queries,
    };
  } finally {
    db.off("query", count);
  }
}

/** Searches until the answer comes from the cache: one statement (the page and the version). */
async function cachedSearch(server: TestServer, query: string): Promise<Searched> {
  await search(server, query);
  const again = await search(server, query);
  expect(again.queries, "the second identical search reads only its page").toBe(1);
  return again;
}

const product = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: "A watch.",
  price: 10000,
  category: "Men",
  imageUrl: "/images/placeholder-watch.svg",
  stock: 5,
  brand: "Waqt",
  ...extra,
});

describe("search result cache", () => {
  it("answers the same search again in one statement, with the same page and total", async () => {
    await insertProducts(serverA, [{ name: "Chrono One" }, { name: "Chrono Two" }, { name: "Diver" }]);
    const first = await search(serverA, "search=chrono");
    expect(first.queries).toBe(2);
    const second = await cachedSearch(serverA, "search=chrono");
    expect(second.names).toEqual(first.names);
    expect(second.total).toBe(2);
    expect(second.names).toEqual(["Chrono Two", "Chrono One"]);
  });

  it("shows a product added by SQL directly, on both app servers", async () => {
    await insertProducts(serverA, [{ name: "Chrono One" }]);
    await cachedSearch(serverA, "search=chrono");
    await cachedSearch(serverB, "search=chrono");
    await serverA.database.db.raw(
      `INSERT INTO products (name, description, price, category, image_url, stock, brand)
       VALUES ('Chrono Added', 'x', 1, 'Men', '/images/placeholder-watch.svg', 1, '')`,
    );
    for (const server of [serverA, serverB]) {
      const after = await search(server, "search=chrono");
      expect(after.total).toBe(2);
      expect(after.names).toEqual(["Chrono Added", "Chrono One"]);
    }
  });

  it("follows a rename made on the other app server, into and out of the matches", async () => {
    const [id] = await insertProducts(serverA, [{ name: "Plain Diver" }, { name: "Chrono One" }]);
    await cachedSearch(serverA, "search=chrono");
    await cachedSearch(serverA, "search=diver");
    const renamed = await clientB.api("PUT", `/products/${id}`, {
      token: adminToken,
      body: product("Chrono Diver"),
    });
    expect(renamed.status).toBe(200);
    const chrono = await search(serverA, "search=chrono");
    expect(chrono.total).toBe(2);
    expect(chrono.names).toContain("Chrono Diver");
    const diver = await search(serverA, "search=diver");
    expect(diver.names).toEqual(["Chrono Diver"]);
    await cachedSearch(serverA, "search=chrono");
    await serverA.database.db("products").where({ id }).update({ name: "Plain Watch" });
    const out = await search(serverA, "search=chrono");
    expect(out.names).toEqual(["Chrono One"]);
    expect(out.total).toBe(1);
  });

  it("drops a deleted product and counts one fewer, on both app servers", async () => {
    const [first, second] = await insertProducts(serverA, [{ name: "Chrono One" }, { name: "Chrono Two" }]);
    await cachedSearch(serverA, "search=chrono");
    await cachedSearch(serverB, "search=chrono");
    expect((await clientB.api("DELETE", `/products/${second}`, { token: adminToken })).status).toBe(200);
    for (const server of [serverA, serverB]) {
      const after = await search(server, "search=chrono");
      expect(after.names).toEqual(["Chrono One"]);
      expect(after.total).toBe(1);
    }
    await cachedSearch(serverA, "search=chrono");
    await serverA.database.db("products").where({ id: first }).del();
    const none = await search(serverA, "search=chrono");
    expect(none).toMatchObject({ names: [], total: 0 });
  });

  it("shows stock as it is now (read with the page), without searching again", async () => {
    const [id] = await insertProducts(serverA, [{ name: "Chrono One", stock: 5 }]);
    await cachedSearch(serverA, "search=chrono");
    await serverA.database.db("products").where({ id }).update({ stock: 0 });
    // A checkout's stock update leaves the matches as they were: still one statement.
    expect(await cachedSearch(serverA, "search=chrono")).toMatchObject({ stocks: [0], queries: 1 });
    const restocked = await clientB.api("PUT", `/products/${id}`, {
      token: adminToken,
      body: product("Chrono One", { stock: 7 }),
    });
    expect(restocked.status).toBe(200);
    expect(await search(serverA, "search=chrono")).toMatchObject({ names: ["Chrono One"], stocks: [7] });
  });

  it("follows a change of category, price or creation time in the filtered and sorted searches", async () => {
    const [cheap, dear] = await insertProducts(serverA, [
      { name: "Chrono Cheap", price: 100 },
      { name: "Chrono Dear", price: 900, category: "Women" },
    ]);
    expect((await cachedSearch(serverA, "search=chrono&category=Men")).names).toEqual(["Chrono Cheap"]);
    expect((await cachedSearch(serverA, "search=chrono&sort=price")).names).toEqual(["Chrono Cheap", "Chrono Dear"]);
    expect((await cachedSearch(serverA, "search=chrono")).names).toEqual(["Chrono Dear", "Chrono Cheap"]);

    await serverB.database.db("products").where({ id: dear }).update({ category: "Men" });
    expect(await search(serverA, "search=chrono&category=Men")).toMatchObject({
      names: ["Chrono Dear", "Chrono Cheap"],
      total: 2,
    });
    await serverB.database.db("products").where({ id: cheap }).update({ price: 1000 });
    expect((await search(serverA, "search=chrono&sort=price")).names).toEqual(["Chrono Dear", "Chrono Cheap"]);
    await serverB.database
      .db("products")
      .where({ id: cheap })
      .update({ createdAt: new Date(Date.UTC(2027, 0, 1)) });
    expect((await search(serverA, "search=chrono")).names).toEqual(["Chrono Cheap", "Chrono Dear"]);
  });

  it("does not see a change before it commits, and sees it as soon as it has", async () => {
    await insertProducts(serverA, [{ name: "Chrono One" }]);
    await cachedSearch(serverA, "search=chrono");
    const trx = await serverB.database.db.transaction();
    try {
      await trx("products").insert(product("Chrono Pending"));
      // Searched while the change is open: the result found then must not outlive the commit.
      expect(await search(serverA, "search=chrono")).toMatchObject({ names: ["Chrono One"], total: 1 });
      await trx.commit();
    } catch (error) {
      await trx.rollback();
      throw error;
    }
    expect(await search(serverA, "search=chrono")).toMatchObject({ names: ["Chrono Pending", "Chrono One"], total: 2 });
  });

  it("keeps pages past the cached first results exact, and the pages within them", async () => {
    await insertProducts(
      serverA,
      Array.from({ length: 130 }, (_, index) => ({ name: `Chrono ${String(index).padStart(3, "0")}` })),
    );
    // Limit 100: page 3 ends at 300, the last result kept; page 4 is searched every time.
    const second = await cachedSearch(serverA, "search=chrono&limit=100&page=2");
    expect(second.names).toHaveLength(30);
    expect(second.names[0]).toBe("Chrono 029");
    const beyond = await search(serverA, "search=chrono&limit=100&page=4");
    expect(beyond).toMatchObject({ names: [], total: 130, queries: 1 });
    await insertProducts(serverA, [{ name: "Chrono New", createdAt: new Date(Date.UTC(2027, 0, 1)) }]);
    const moved = await search(serverA, "search=chrono&limit=100&page=2");
    expect(moved.total).toBe(131);
    expect(moved.names[0]).toBe("Chrono 030");
  });

  it("searches once for the same search asked by many at once, each answer exact", async () => {
    await insertProducts(serverA, [{ name: "Chrono One" }, { name: "Chrono Two" }]);
    const db = serverA.database.db as Knex;
    let searches = 0;
    const count = (query: Knex.Sql) => {
      if (/WITH matches/.test(query.sql)) searches++;
    };
    db.on("query", count);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => serverA.services.catalog.listProducts({ search: "chrono two", limit: 12 })),
      );
      expect(searches).toBe(1);
      for (const answer of answers) {
        expect(answer.products.map((listed) => listed.name)).toEqual(["Chrono Two"]);
        expect(answer.pagination.total).toBe(1);
      }
    } finally {
      db.off("query", count);
    }
  });

  it("does not take a search under way, found before a change, for an answer after it", async () => {
    await insertProducts(serverA, [{ name: "Joined One" }]);
    const catalog = (serverA.services.catalog as unknown as { listing: { searching: Map<string, Promise<unknown>> } })
      .listing;
    const before = await serverA.database.db.raw("SELECT version FROM search_version");
    await insertProducts(serverA, [{ name: "Joined Two", createdAt: new Date(Date.UTC(2027, 0, 1)) }]);
    // As if a search had read its matches just before the insert and not yet answered.
    const [oneId] = (await serverA.database.db("products").where({ name: "Joined One" }).pluck("id")) as string[];
    const key = JSON.stringify(["joined", "", ""]);
    // A term not searched before in this file: nothing kept for it, so the search under way is used.
    catalog.searching.set(key, Promise.resolve({ version: before.rows[0].version, total: 1, ids: [oneId] }));
    try {
      const answer = await serverA.services.catalog.listProducts({ search: "joined", limit: 12 });
      expect(answer.products.map((listed) => listed.name)).toEqual(["Joined Two", "Joined One"]);
      expect(answer.pagination.total).toBe(2);
    } finally {
      catalog.searching.delete(key);
    }
  });
});
