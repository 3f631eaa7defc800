/**
 * A review's photos (docs/product.md, "Reviews"; docs/api.md, "Reviews"): up to 3 through the
 * product photos' pipeline, from the review form and the API; refused beside the field with the
 * text kept and nothing stored; shown with the published review at several widths; and served by
 * /photos only while the review is published.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { apiToken, insertUser } from "../support/fixtures";
import { pageOf, signedInClient } from "../support/page-clients";
import { photoForm, plainImage } from "../support/photos";
import { ReviewScene } from "../support/review-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
let api: TestClient;
let adminToken: string;
let scene: ReviewScene;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestClient(server.baseUrl);
  await insertUser(server, { name: "Admin", email: "admin@review-photos.test", password: "adminpass1", role: "admin" });
  adminToken = await apiToken(api, "admin@review-photos.test", "adminpass1");
  scene = new ReviewScene(server, api, adminToken, "review-photos.test");
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db("review_photos").del();
  await server.database.db("reviews").del();
});

/** A review's fields and photos as a multipart form, each photo in the field `image`. */
function reviewForm(fields: Record<string, string>, photos: Uint8Array[]): FormData {
  const form = photoForm(fields);
  for (const [index, bytes] of photos.entries()) {
    form.append("image", new Blob([new Uint8Array(bytes)], { type: "image/png" }), `wrist-${index + 1}.png`);
  }
  return form;
}

const fields = { rating: "4", title: "Sharp on the wrist", text: "The lume lasts the whole night." };
const storedPhotos = async () => Number((await server.database.db("review_photos").count("* as n"))[0]!.n);
const storedReviews = async () => Number((await server.database.db("reviews").count("* as n"))[0]!.n);
const fileOf = (url: string) => url.split("/photos/")[1]!;

async function approve(reviewId: string) {
  const approved = await api.api("PATCH", `/reviews/${reviewId}`, { body: { status: "approved" }, token: adminToken });
  expect(approved.status).toBe(200);
}

describe("photos on the review form", () => {
  it("stores the buyer's photos and shows them with the published review, at several widths", async () => {
    const watch = await scene.watch("Orient Bambino");
    const buyer = await scene.shopper("Sana Mir");
    await scene.order(buyer.token, watch);
    const browser = await signedInClient(server.baseUrl, buyer.email, buyer.password);

    const form = await pageOf(browser, `/products/${watch}/review`);
    expect(form.text).toMatch(/enctype="multipart\/form-data"/i);
    expect(form.text).toMatch(/<input id="field-image" type="file" multiple=""[^>]*name="image"/);

    const photos = [await plainImage(1200, 900, "jpeg"), await plainImage(800, 800, "png")];
    const sent = await browser.postMultipart(`/products/${watch}/review`, reviewForm(fields, photos));
    expect(sent.status).toBe(303);
    expect(await storedPhotos()).toBe(2);

    const [reviewId] = await server.database.db("reviews").pluck("id");
    await approve(reviewId);
    const page = await pageOf(new TestClient(server.baseUrl), `/products/${watch}`);
    expect(page.text).toContain("Photo 1 of Sana M.&#x27;s review");
    expect(page.text).toContain("Photo 2 of Sana M.&#x27;s review");
    // Responsive as a product's photo: a srcset of the variants.
    expect(page.text).toMatch(/srcSet="\/photos\/[^"]*-160w.webp 160w, [^"]*-320w.webp 320w/);

    const listed = await api.api("GET", `/products/${watch}/reviews`);
    expect(listed.body.data[0].photos).toHaveLength(2);
    const image = listed.body.data[0].photos[0].images[0];
    const file = await fetch(`${server.baseUrl}/photos/${fileOf(image.url)}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe(image.type);
  });

  it("refuses a photo over 10 MB beside the field, keeps the text, and stores nothing", async () => {
    const watch = await scene.watch("Citizen Tsuyosa");
    const buyer = await scene.shopper();
    await scene.order(buyer.token, watch);
    const browser = await signedInClient(server.baseUrl, buyer.email, buyer.password);

    const tooLarge = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    const refused = await browser.postMultipart(`/products/${watch}/review`, reviewForm(fields, [tooLarge]));
    expect(refused.status).toBe(413);
    const page = await refused.text();
    expect(page).toMatch(/id="field-image-error"[^>]*>The photo must be at most 10 MB</);
    expect(page).toContain('value="Sharp on the wrist"');
    expect(page).toContain("The lume lasts the whole night.");
    expect(page).toMatch(/<input[^>]*value="4"[^>]*checked|<input[^>]*checked[^>]*value="4"/);
    expect(await storedReviews()).toBe(0);
    expect(await storedPhotos()).toBe(0);
  });
});

describe("photos through the API", () => {
  it("takes up to 3 photos with the review as multipart/form-data, and refuses a 4th", async () => {
    const watch = await scene.watch("Tissot PRX");
    const buyer = await scene.shopper();
    await scene.order(buyer.token, watch);
    const photo = await plainImage(900, 600, "webp");

    const four = await api.api("POST", `/products/${watch}/reviews`, {
      body: reviewForm(fields, [photo, photo, photo, photo]),
      token: buyer.token,
    });
    expect(four.status).toBe(400);
    expect(four.body.errors).toEqual([{ field: "image", message: "At most 3 photos" }]);
    expect(await storedReviews()).toBe(0);

    const notAPhoto = await api.api("POST", `/products/${watch}/reviews`, {
      body: reviewForm(fields, [photo, Buffer.from("not a photo at all")]),
      token: buyer.token,
    });
    expect(notAPhoto.status).toBe(400);
    expect(notAPhoto.body.errors[0].field).toBe("image");
    expect(notAPhoto.body.errors[0].message).toMatch(/^Photo 2: The photo must be a JPEG, PNG, WebP or AVIF/);
    expect(await storedPhotos()).toBe(0);

    const three = await api.api("POST", `/products/${watch}/reviews`, {
      body: reviewForm(fields, [photo, photo, photo]),
      token: buyer.token,
    });
    expect(three.status).toBe(201);
    expect(three.body.data).toMatchObject({ rating: 4, title: "Sharp on the wrist", status: "pending" });
    expect(three.body.data.photos).toHaveLength(3);
    expect(await storedPhotos()).toBe(3);
  });
});

describe("who sees a review's photo", () => {
  it("serves it only while the review is published: not pending, not hidden", async () => {
    const watch = await scene.watch("Seiko 5 Sports");
    const buyer = await scene.shopper();
    await scene.order(buyer.token, watch);
    const sent = await api.api("POST", `/products/${watch}/reviews`, {
      body: reviewForm(fields, [await plainImage(640, 480, "png")]),
      token: buyer.token,
    });
    expect(sent.status).toBe(201);
    const url = `${server.baseUrl}/photos/${fileOf(sent.body.data.photos[0].images[0].url)}`;

    expect((await fetch(url)).status).toBe(404);
    await approve(sent.body.data._id);
    const shown = await fetch(url);
    expect(shown.status).toBe(200);
    // Not kept for a year as a product's photo: a hidden review's photo must go from caches soon.
    expect(shown.headers.get("cache-control")).toBe("public, max-age=300");

    const hidden = await api.api("PATCH", `/reviews/${sent.body.data._id}`, {
      body: { status: "hidden", reason: "A photo of someone's face" },
      token: adminToken,
    });
    expect(hidden.status).toBe(200);
    // Asked again after it was served: this server kept no copy of it.
    expect((await fetch(url)).status).toBe(404);
  });
});

describe("the admins moderating a review see its photos", () => {
  it("shows a pending review's photos on /admin/reviews, served to admins only and kept by no cache", async () => {
    const watch = await scene.watch("Casio Edifice");
    const buyer = await scene.shopper("Hina Rabbani");
    await scene.order(buyer.token, watch);
    const sent = await api.api("POST", `/products/${watch}/reviews`, {
      body: reviewForm(fields, [await plainImage(1000, 750, "png")]),
      token: buyer.token,
    });
    expect(sent.status).toBe(201);
    const files: string[] = sent.body.data.photos[0].images.map((image: { url: string }) => fileOf(image.url));

    await insertUser(server, { name: "Desk", email: "desk@review-photos.test", password: "deskpass12", role: "admin" });
    const admin = await signedInClient(server.baseUrl, "desk@review-photos.test", "deskpass12");
    const desk = await pageOf(admin, "/admin/reviews");
    expect(desk.status).toBe(200);
    // A thumbnail inside a link to the largest size, every address the admins' route.
    const images: { url: string; width: number; type: string }[] = sent.body.data.photos[0].images;
    const largest = images.reduce((wide, image) => (image.width > wide.width ? image : wide));
    expect(desk.text).toContain(`<a href="/admin/reviews/photos/${fileOf(largest.url)}">`);
    expect(desk.text).toContain('alt="Photo 1 of Hina R.&#x27;s review, full size"');
    expect(desk.text).toMatch(/srcSet="\/admin\/reviews\/photos\/[^"]*-160w.webp 160w/);
    expect(desk.text, "no public /photos address on the page").not.toMatch(/["\s,]\/photos\//);

    for (const file of files) {
      const seen = await admin.get(`/admin/reviews/photos/${file}`);
      expect(seen.status, file).toBe(200);
      expect(seen.headers.get("content-type")).toBe(images.find((image) => image.url.endsWith(file))!.type);
      expect(seen.headers.get("cache-control")).toBe("private, no-store");
      expect((await seen.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }

    // Anyone else gets 404: a guest, the review's own author, another customer.
    const author = await signedInClient(server.baseUrl, buyer.email, buyer.password);
    const other = await scene.shopper();
    const otherBrowser = await signedInClient(server.baseUrl, other.email, other.password);
    for (const client of [new TestClient(server.baseUrl), author, otherBrowser]) {
      const refused = await client.get(`/admin/reviews/photos/${files[0]}`);
      expect(refused.status).toBe(404);
      expect(refused.headers.get("cache-control")).toBe("private, no-store");
      expect(await refused.text()).toBe("Not found");
    }
    // The public address of a pending review's photo still answers 404.
    expect((await fetch(`${server.baseUrl}/photos/${files[0]}`)).status).toBe(404);
    // The admins' route serves review photos only: not a product's photo, nor a name that is no file.
    const product = await server.services.catalog.setProductPhoto(watch, {
      bytes: await plainImage(300, 300),
      truncated: false,
    });
    expect((await admin.get(`/admin/reviews/photos/${fileOf(product.images[0]!.url)}`)).status).toBe(404);
    expect((await admin.get("/admin/reviews/photos/..%2F..%2Fetc%2Fpasswd")).status).toBe(404);
  });
});
