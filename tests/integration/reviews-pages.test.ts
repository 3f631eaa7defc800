/**
 * Reviews on the pages, without JavaScript (docs/product.md, "Reviews" and "Home page figures"):
 * the buyer's form (messages beside fields, input kept), a non-buyer told why (403), the admin's
 * Publish and Hide, the product page's reviews and JSON-LD only with published reviews, and the
 * home page's figures from the store's own data.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertUser } from "../support/fixtures";
import { pageOf, signedInClient } from "../support/page-clients";
import { ReviewScene } from "../support/review-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let api: TestClient;
let admin: TestClient;
let scene: ReviewScene;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@review-pages.test", password: "adminpass1", role: "admin" });
  const adminToken = await apiToken(api, "admin@review-pages.test", "adminpass1");
  admin = await signedInClient(server.baseUrl, "admin@review-pages.test", "adminpass1");
  scene = new ReviewScene(server, api, adminToken, "review-pages.test");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("reviews").del();
});

/** The JSON-LD of a product page. */
function structuredDataOf(html: string) {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return JSON.parse(match![1]!);
}

describe("the review form", () => {
  it("takes the buyer's review, keeps the input on a mistake, and the admin publishes it onto the page", async () => {
    const watch = await scene.watch("Seiko Presage Cocktail");
    const buyer = await scene.shopper("Hina Baloch");
    await scene.order(buyer.token, watch);
    const browser = await signedInClient(server.baseUrl, buyer.email, buyer.password);

    const product = await pageOf(browser, `/products/${watch}`);
    expect(product.text).toContain(`href="/products/${watch}/review"`);
    expect(product.text).toContain("No reviews yet");
    expect(structuredDataOf(product.text)).not.toHaveProperty("aggregateRating");
    expect(structuredDataOf(product.text)).not.toHaveProperty("review");
    expect((await pageOf(browser, "/my-orders")).text).toContain("Write a review");

    const mistaken = await browser.postForm(`/products/${watch}/review`, {
      rating: "",
      title: "Lovely dial",
      text: "",
    });
    expect(mistaken.status).toBe(400);
    const mistakenPage = await mistaken.text();
    expect(mistakenPage).toContain("Choose a rating");
    expect(mistakenPage).toContain("Write a few words about the watch");
    expect(mistakenPage).toContain('value="Lovely dial"');

    const sent = await browser.postForm(`/products/${watch}/review`, {
      rating: "5",
      title: "Lovely dial",
      text: "The blue dial <b>shines</b> in the sun.",
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(`/products/${watch}`);
    expect((await pageOf(browser, "/my-orders")).text).not.toContain("Write a review");
    // Pending: not on the page yet.
    expect((await pageOf(new TestClient(server.baseUrl), `/products/${watch}`)).text).not.toContain("Lovely dial");

    const desk = await pageOf(admin, "/admin/reviews");
    expect(desk.status).toBe(200);
    expect(desk.text).toContain("Lovely dial");
    const [reviewId] = await server.database.db("reviews").pluck("id");
    const refused = await admin.postForm("/admin/reviews", { reviewId, intent: "hide", reason: "" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Say why the review is hidden");
    expect((await admin.postForm("/admin/reviews", { reviewId, intent: "approve" })).status).toBe(303);

    const published = await pageOf(new TestClient(server.baseUrl), `/products/${watch}`);
    expect(published.text).toContain("Lovely dial");
    expect(published.text).toContain("Verified purchase");
    expect(published.text).toContain("Hina B.");
    expect(published.text).toContain("5 out of 5, 1 review");
    // The customer's words are text, never markup.
    expect(published.text).toContain("&lt;b&gt;shines&lt;/b&gt;");
    const data = structuredDataOf(published.text);
    expect(data.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: 5,
      reviewCount: 1,
      bestRating: 5,
      worstRating: 1,
    });
    expect(data.review).toEqual([
      expect.objectContaining({
        "@type": "Review",
        name: "Lovely dial",
        author: { "@type": "Person", name: "Hina B." },
        reviewRating: { "@type": "Rating", ratingValue: 5, bestRating: 5, worstRating: 1 },
      }),
    ]);
    // The catalogue's card shows the figure too.
    expect((await pageOf(new TestClient(server.baseUrl), "/products?search=Cocktail")).text).toContain(
      "5 out of 5, 1 review",
    );
  });

  it("tells a signed-in customer who never received the watch why not (403), and writes nothing", async () => {
    const watch = await scene.watch("Casio G-Shock");
    const stranger = await scene.shopper();
    const browser = await signedInClient(server.baseUrl, stranger.email, stranger.password);
    const page = await pageOf(browser, `/products/${watch}/review`);
    expect(page.status).toBe(403);
    expect(page.text).toContain("Only a customer whose order of this watch was delivered may review it");
    expect((await pageOf(browser, `/products/${watch}`)).text).not.toContain(`/products/${watch}/review`);
    const posted = await browser.postForm(`/products/${watch}/review`, { rating: "1", title: "Fake", text: "Fake" });
    expect(posted.status).toBe(403);
    expect(await posted.text()).toContain("Only a customer whose order of this watch was delivered may review it");
    expect(Number((await server.database.db("reviews").count("* as count").first())!.count)).toBe(0);
  });
});

describe("the home page's figures", () => {
  async function approvedReviews(ratings: number[]) {
    const watch = await scene.watch(`Figures Watch ${ratings.length}`);
    const users = await server.database
      .db("users")
      .insert(
        ratings.map((_, index) => ({
          name: `Reviewer ${index}`,
          email: `r${index}-${ratings.length}@f.test`,
          passwordHash: "x",
        })),
      )
      .returning("id");
    await server.database.db("reviews").insert(
      ratings.map((rating, index) => ({
        productId: watch,
        userId: users[index].id,
        authorName: `Reviewer ${index}`,
        purchasedAt: new Date(),
        rating,
        title: "Fine",
        body: "Fine",
        status: "approved",
        publishedAt: new Date(),
      })),
    );
  }

  it("never shows the old fixed claims, and hides the rating under 10 approved reviews", async () => {
    await approvedReviews([5, 5, 5, 5, 5, 5, 5, 5, 5]);
    const home = await pageOf(new TestClient(server.baseUrl), "/");
    expect(home.text).not.toContain("4.9/5");
    expect(home.text).not.toContain("500+");
    expect(home.text).not.toContain("1000+");
    expect(home.text).not.toContain("/5<");
    const counts = await server.services.reports.storeCounts();
    expect(counts.reviews).toBe(9);
  });

  it("shows the rating from 10 approved reviews, cut to one decimal, and counts rounded down", async () => {
    await approvedReviews([5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4]);
    // 57 / 12 = 4.75: shown as 4.7, never rounded up.
    const home = await pageOf(new TestClient(server.baseUrl), "/");
    expect(home.text).toContain("4.7/5");
    expect(home.text).toContain("Rating from 10+ reviews");
    const counts = await server.services.reports.storeCounts();
    const customers = Math.floor(counts.customers / 10) * 10;
    expect(home.text).toContain(`>${counts.customers < 10 ? counts.customers : `${customers}+`}<`);
  });
});
