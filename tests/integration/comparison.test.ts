import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COMPARE_COOKIE } from "../../server/modules/catalog/comparison-values.shared";
import { TestClient } from "../support/http-client";
import { insertProducts } from "../support/fixtures";
import { pageOf } from "../support/page-clients";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let ids: string[];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("products").del();
  ids = await insertProducts(server, [
    { name: "Seiko Presage", brand: "Seiko", movement: "Automatic", caseDiameterMm: 40.5, waterResistanceM: 50 },
    { name: "Casio Duro", brand: "Casio", movement: "Quartz", caseDiameterMm: 44, waterResistanceM: 200 },
    { name: "Orient Bambino", brand: "Orient", movement: "Automatic", caseDiameterMm: 40.5 },
    { name: "Citizen Tsuyosa", brand: "Citizen", movement: "Automatic", caseDiameterMm: 40 },
    { name: "Tissot PRX", brand: "Tissot", movement: "Quartz", caseDiameterMm: 40 },
  ]);
});

/** Presses Compare on a watch, from the page at `from`, as a browser without JavaScript does. */
const pressCompare = (client: TestClient, productId: string, from = "/products") =>
  client.postForm("/compare", { intent: "add", productId, returnTo: from });

/** The text of the comparison table's row named `label`, cells joined by " | ". */
function rowOf(html: string, label: string): { cells: string; differs: boolean } | null {
  const row = [...html.matchAll(/<tr( class="compare__row--differs")?><th scope="row">(.*?)<\/th>(.*?)<\/tr>/g)].find(
    (match) => match[2]!.startsWith(label),
  );
  if (!row) return null;
  const cells = [...row[3]!.matchAll(/<td>(.*?)<\/td>/g)].map((cell) => cell[1]).join(" | ");
  return { cells, differs: row[1] !== undefined };
}

describe("comparing watches", () => {
  it("keeps up to four watches for a guest in a cookie and shows them side by side, differences marked", async () => {
    const guest = new TestClient(server.baseUrl);
    const added = await pressCompare(guest, ids[0]!, "/products?category=Men");
    expect(added.status).toBe(303);
    expect(added.headers.get("location")).toBe("/products?category=Men");
    const setCookie = added.headers.getSetCookie().find((cookie) => cookie.startsWith(`${COMPARE_COOKIE}=`));
    expect(setCookie).toContain("; Path=/; HttpOnly; SameSite=Lax");
    const back = await pageOf(guest, "/products?category=Men");
    expect(back.text).toContain("Seiko Presage added to your comparison (1 of 4).");
    await pressCompare(guest, ids[1]!);
    await pressCompare(guest, ids[2]!);

    const compare = await pageOf(guest, "/compare");
    expect(compare.status).toBe(200);
    expect(compare.text).toContain('<meta name="robots" content="noindex');
    // In the order they were added, with the top bar's link counting them.
    const names = [...compare.text.matchAll(/class="compare__product".*?<span>(.*?)<\/span>/g)].map((m) => m[1]);
    expect(names).toEqual(["Seiko Presage", "Casio Duro", "Orient Bambino"]);
    expect(compare.text).toMatch(/href="\/compare"[^>]*>Compare <span class="badge[^"]*">3<\/span>/);
    expect(rowOf(compare.text, "Movement")).toEqual({ cells: "Automatic | Quartz | Automatic", differs: true });
    expect(rowOf(compare.text, "Case diameter")).toEqual({ cells: "40.5 mm | 44 mm | 40.5 mm", differs: true });
    expect(rowOf(compare.text, "Water resistance")).toEqual({ cells: "50 m | 200 m | —", differs: true });
    expect(rowOf(compare.text, "Price")).toEqual({ cells: "Rs. 10,000 | Rs. 10,000 | Rs. 10,000", differs: false });
    // A specification no compared watch has is not a row.
    expect(rowOf(compare.text, "Crystal")).toBeNull();
    // Each watch can be bought from here.
    expect(compare.text.match(/Add to Cart<span class="visually-hidden">/g)).toHaveLength(3);
  });

  it("refuses a fifth watch with the reason, the list unchanged, and changes nothing when a watch is added twice", async () => {
    const guest = new TestClient(server.baseUrl);
    for (const id of ids.slice(0, 4)) expect((await pressCompare(guest, id)).status).toBe(303);
    const cookie = guest.cookie(COMPARE_COOKIE);

    const fifth = await pressCompare(guest, ids[4]!);
    expect(fifth.status).toBe(409);
    const refusal = await fifth.text();
    expect(refusal).toContain("You can compare up to 4 watches. Remove one on the compare page first.");
    // The compare page, where one can be removed: the four watches, not the fifth.
    expect(refusal).toContain("<span>Citizen Tsuyosa</span>");
    expect(refusal).not.toContain("<span>Tissot PRX</span>");
    expect(guest.cookie(COMPARE_COOKIE)).toBe(cookie);

    const twice = await pressCompare(guest, ids[0]!);
    expect(twice.status).toBe(303);
    expect(guest.cookie(COMPARE_COOKIE)).toBe(cookie);
    expect((await pageOf(guest, "/products")).text).toContain("Seiko Presage is already in your comparison (4 of 4).");
  });

  it("removes a watch and clears the list, and the cookie goes with the last one", async () => {
    const guest = new TestClient(server.baseUrl);
    await pressCompare(guest, ids[0]!);
    await pressCompare(guest, ids[1]!);
    const removed = await guest.postForm("/compare", { intent: "remove", productId: ids[0]!, returnTo: "/compare" });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("location")).toBe("/compare");
    const after = await pageOf(guest, "/compare");
    expect(after.text).not.toContain("Seiko Presage");
    expect(after.text).toContain("Casio Duro");

    expect((await guest.postForm("/compare", { intent: "clear", returnTo: "/compare" })).status).toBe(303);
    expect(guest.cookie(COMPARE_COOKIE)).toBeUndefined();
    const empty = await pageOf(guest, "/compare");
    expect(empty.text).toContain("No watches to compare yet.");
    expect(empty.text).not.toContain('class="compare-link"');
  });

  it("answers bad input beside the form, the list unchanged", async () => {
    const guest = new TestClient(server.baseUrl);
    await pressCompare(guest, ids[0]!);
    const cookie = guest.cookie(COMPARE_COOKIE);
    const unknown = await pressCompare(guest, "00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Product not found");
    const malformed = await pressCompare(guest, "'; DROP TABLE products; --");
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain("Choose a watch");
    const noIntent = await guest.postForm("/compare", { intent: "swap", productId: ids[1]! });
    expect(noIntent.status).toBe(400);
    expect(guest.cookie(COMPARE_COOKIE)).toBe(cookie);
    // An offsite returnTo is not followed.
    const offsite = await pressCompare(guest, ids[1]!, "//evil.example/");
    expect(offsite.headers.get("location")).toBe("/compare");
  });

  it("trusts nothing in the cookie: only ids of watches still sold, each once, at most four", async () => {
    // As React Router's cookie writes a value: its JSON in base64.
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
    const page = async (cookieValue: string) =>
      (await fetch(`${server.baseUrl}/compare`, { headers: { cookie: `${COMPARE_COOKIE}=${cookieValue}` } })).text();
    await server.database.db("products").where({ id: ids[1] }).del();

    const mixed = await page(encode([ids[0], "not-an-id", ids[0], ids[1], { id: ids[2] }, ids[2], ids[3], ids[4]]));
    const names = [...mixed.matchAll(/class="compare__product".*?<span>(.*?)<\/span>/g)].map((m) => m[1]);
    // Casio Duro is no longer sold; Tissot PRX was the fifth valid id.
    expect(names).toEqual(["Seiko Presage", "Orient Bambino", "Citizen Tsuyosa"]);
    for (const garbage of ["%%%", encode({ ids }), encode("x".repeat(5000)), "e30"]) {
      const text = await page(garbage);
      expect(text).toContain("No watches to compare yet.");
    }
  });

  it("never answers a shopper with a comparison from the guest page cache, nor keeps their page for guests", async () => {
    const guest = new TestClient(server.baseUrl);
    await pressCompare(guest, ids[0]!);
    // Asked twice: a page for everyone would be kept the first time and answered the second.
    for (let i = 0; i < 2; i++) {
      const response = await guest.get("/products");
      expect(response.headers.get("x-page-cache")).not.toBe("hit");
      expect(await response.text()).toMatch(/Compare <span class="badge[^"]*">1<\/span>/);
    }
    for (let i = 0; i < 2; i++) {
      const anonymous = await fetch(`${server.baseUrl}/products`);
      expect(await anonymous.text()).not.toContain('class="compare-link"');
    }
  });
});
