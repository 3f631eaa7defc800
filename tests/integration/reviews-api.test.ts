/**
 * Reviews through the JSON API (docs/product.md and docs/api.md, "Reviews"): only the buyer of a
 * delivered watch writes one, once (also when two arrive at once); an admin publishes it (the
 * author is mailed) or hides it with a reason, and the product's rating and reviewCount follow.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertUser } from "../support/fixtures";
import { ReviewScene } from "../support/review-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let client: TestClient;
let adminToken: string;
let scene: ReviewScene;

beforeAll(async () => {
  server = await startTestServer();
  client = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@reviews.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(client, "admin@reviews.test", "adminpass1");
  scene = new ReviewScene(server, client, adminToken, "reviews.test");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  const db = server.database.db;
  await db("reviews").del();
  await db("outbox").del();
});

const review = {
  rating: 4,
  title: "  Keeps time  ",
  text: "Lost two seconds in a month. The strap is stiff at first.",
};
const postReview = (token: string | undefined, productId: string, body: unknown = review) =>
  client.api("POST", `/products/${productId}/reviews`, { body, ...(token ? { token } : {}) });
const reviewCount = async () => Number((await server.database.db("reviews").count("* as count").first())!.count);
const productOf = async (id: string) => (await client.api("GET", `/products/${id}`)).body.data;

describe("who may review", () => {
  it("lets the buyer of a delivered watch review it once: 201, pending, verified, with the month of purchase", async () => {
    const watch = await scene.watch("Orient Bambino");
    const buyer = await scene.shopper("Ayesha Khan");
    await scene.order(buyer.token, watch);

    const written = await postReview(buyer.token, watch);
    expect(written.status).toBe(201);
    expect(written.body.data).toEqual({
      _id: expect.any(String),
      product: watch,
      author: "Ayesha K.",
      rating: 4,
      title: "Keeps time",
      text: review.text,
      photos: [],
      verifiedPurchase: true,
      purchasedAt: expect.any(String),
      status: "pending",
      hiddenReason: null,
      publishedAt: null,
      createdAt: expect.any(String),
    });
    // Pending: nobody reads it yet, and the product's figures have not moved.
    expect((await client.api("GET", `/products/${watch}/reviews`)).body.data).toEqual([]);
    expect(await productOf(watch)).toMatchObject({ rating: null, reviewCount: 0 });

    const again = await postReview(buyer.token, watch, { ...review, title: "Second thoughts" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("You have already reviewed this watch");
    expect(await reviewCount()).toBe(1);
  });

  it("refuses a signed-in customer without a delivered order of the watch (403), and a guest (401)", async () => {
    const watch = await scene.watch("Seiko 5");
    const stranger = await scene.shopper();
    const waiting = await scene.shopper();
    await scene.order(waiting.token, watch, "Shipped");
    const otherWatch = await scene.watch("Casio Duro");
    const otherBuyer = await scene.shopper();
    await scene.order(otherBuyer.token, otherWatch);

    for (const token of [stranger.token, waiting.token, otherBuyer.token]) {
      const refused = await postReview(token, watch);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe("Only a customer whose order of this watch was delivered may review it");
    }
    expect((await postReview(undefined, watch)).status).toBe(401);
    expect((await postReview(stranger.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect(await reviewCount()).toBe(0);
  });

  it("answers 400 for invalid input, naming each field, and writes nothing", async () => {
    const watch = await scene.watch("Citizen Eco-Drive");
    const buyer = await scene.shopper();
    await scene.order(buyer.token, watch);
    const refused = await postReview(buyer.token, watch, { rating: 6, title: " ", text: "x".repeat(2001) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        { field: "rating", message: "Rating must be a whole number from 1 to 5" },
        { field: "title", message: "Title is required" },
        { field: "text", message: "Review must be at most 2000 characters" },
      ]),
    );
    expect((await postReview(buyer.token, watch, { rating: 3.5, title: "t", text: "t" })).status).toBe(400);
    expect(await reviewCount()).toBe(0);
  });

  it("keeps one review when the same buyer sends two at once: the unique index decides", async () => {
    const watch = await scene.watch("Tissot PRX");
    const buyer = await scene.shopper();
    await scene.order(buyer.token, watch);
    const answers = await Promise.all(Array.from({ length: 6 }, () => postReview(buyer.token, watch)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await reviewCount()).toBe(1);
  });
});

describe("moderation", () => {
  it("lists pending first, publishes with a mail to the author, hides with a reason; the figures follow", async () => {
    const watch = await scene.watch("Hamilton Khaki");
    const first = await scene.shopper("Bilal Ahmed");
    const second = await scene.shopper("Sana Mir");
    await scene.order(first.token, watch);
    await scene.order(second.token, watch);
    const one = (await postReview(first.token, watch, { ...review, rating: 5 })).body.data;
    const two = (await postReview(second.token, watch, { ...review, rating: 2 })).body.data;

    const approved = await client.api("PATCH", `/reviews/${one._id}`, {
      body: { status: "approved" },
      token: adminToken,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: "approved", publishedAt: expect.any(String) });
    expect(await productOf(watch)).toMatchObject({ rating: 5, reviewCount: 1 });
    const reviewMails = () =>
      server.database.db("outbox").where("kind", "review-published").select("kind", "recipient", "subject");
    expect(await reviewMails()).toEqual([
      { kind: "review-published", recipient: first.email, subject: "Your review of Hamilton Khaki is published" },
    ]);

    const listed = await client.api("GET", "/reviews?limit=1", { token: adminToken });
    expect(listed.body.data.map((item: { _id: string }) => item._id)).toEqual([two._id]);
    expect(listed.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect((await client.api("GET", "/reviews?status=approved", { token: adminToken })).body.pagination.total).toBe(1);

    await client.api("PATCH", `/reviews/${two._id}`, { body: { status: "approved" }, token: adminToken });
    expect(await productOf(watch)).toMatchObject({ rating: 3.5, reviewCount: 2 });
    const published = await client.api("GET", `/products/${watch}/reviews`);
    expect(published.body.data.map((item: { _id: string }) => item._id)).toEqual([two._id, one._id]);
    expect(published.body.pagination).toEqual({ page: 1, limit: 10, total: 2, totalPages: 1 });

    const noReason = await client.api("PATCH", `/reviews/${one._id}`, {
      body: { status: "hidden" },
      token: adminToken,
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual([{ field: "reason", message: "Say why the review is hidden" }]);
    const hidden = await client.api("PATCH", `/reviews/${one._id}`, {
      body: { status: "hidden", reason: "Names a competitor's shop" },
      token: adminToken,
    });
    expect(hidden.body.data).toMatchObject({ status: "hidden", hiddenReason: "Names a competitor's shop" });
    expect(await productOf(watch)).toMatchObject({ rating: 2, reviewCount: 1 });
    expect((await client.api("GET", `/products/${watch}/reviews`)).body.data).toHaveLength(1);
    // Hiding mails nobody.
    expect(await reviewMails()).toHaveLength(2);
  });

  it("is for admins only", async () => {
    const customer = await scene.shopper();
    expect((await client.api("GET", "/reviews", { token: customer.token })).status).toBe(403);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(
      (await client.api("PATCH", `/reviews/${missing}`, { body: { status: "approved" }, token: customer.token }))
        .status,
    ).toBe(403);
    expect(
      (await client.api("PATCH", `/reviews/${missing}`, { body: { status: "approved" }, token: adminToken })).status,
    ).toBe(404);
  });
});
