/**
 * Product photos (docs/product.md, "Products"; docs/api.md, "Photos"): uploaded from the product
 * form and the API, read by their bytes, refused with the reason beside the field and nothing
 * changed, processed once into variants without their EXIF metadata, served for a year by any
 * app server, kept by the orders that sold them and deleted when nothing shows them.
 */
import http from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HEIC_SAMPLE, acceptedPhotoFormats } from "../../server/modules/catalog/photo-processing";
import { databaseFingerprint } from "../support/db-fingerprint";
import { TestClient } from "../support/http-client";
import { apiToken, insertProducts, insertUser } from "../support/fixtures";
import { phonePhoto, photoForm, plainImage } from "../support/photos";
import { startTestServer, type TestServer } from "../support/test-server";

const PUBLIC_URL = "https://shop.example.pk";

let server: TestServer;
let admin: TestClient;
let adminToken: string;
let customerToken: string;
let customerId: string;
/** The 12-megapixel phone photo, made once (a few seconds). */
let phone: Buffer;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL });
  await insertUser(server, { name: "Admin", email: "admin@photos.test", password: "adminpass1", role: "admin" });
  customerId = await insertUser(server, { name: "Shopper", email: "shopper@photos.test", password: "shopperpass1" });
  admin = new TestClient(server.baseUrl);
  expect((await admin.postForm("/login", { email: "admin@photos.test", password: "adminpass1" })).status).toBe(303);
  adminToken = await apiToken(admin, "admin@photos.test", "adminpass1");
  customerToken = await apiToken(new TestClient(server.baseUrl), "shopper@photos.test", "shopperpass1");
  phone = await phonePhoto();
}, 120_000);
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  const db = server.database.db;
  await db("order_items").del();
  await db("orders").del();
  await db("products").del();
  await db("product_photos").del();
});

/** POST /api/v1/products/{id}/image with a multipart body, as an API client sends it. */
async function uploadPhoto(
  productId: string,
  photo: { bytes: Uint8Array; name?: string; type?: string } | null,
  options: { token?: string; body?: BodyInit; contentType?: string; field?: string } = {},
) {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.token !== undefined || adminToken) headers.authorization = `Bearer ${options.token ?? adminToken}`;
  if (options.contentType) headers["content-type"] = options.contentType;
  const response = await fetch(`${server.baseUrl}/api/v1/products/${productId}/image`, {
    method: "POST",
    headers,
    body: options.body ?? photoForm({}, photo ?? undefined, options.field),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const product = (name = "Photo Watch") => insertProducts(server, [{ name, imageUrl: "/images/watches/x.svg" }]);
const variantRows = () => server.database.db("photo_variants").select("file", "width", "height", "type", "size");
const photoRows = async () => Number((await server.database.db("product_photos").count("* as n"))[0]!.n);

/** The file name of a variant's address. */
const fileOf = (url: string) => url.split("/photos/")[1]!;

describe("uploading a photo through the API", () => {
  it.each([
    ["JPEG", "jpeg"],
    ["PNG", "png"],
    ["WebP", "webp"],
    ["AVIF", "avif"],
  ] as const)("accepts a %s, read from its bytes whatever its name and declared type", async (_name, format) => {
    const [id] = await product();
    const bytes = await plainImage(1000, 800, format);
    // A misleading name and type: only the bytes count.
    const response = await uploadPhoto(id!, { bytes, name: "photo.txt", type: "text/plain" });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const data = response.body.data;
    expect(data.images.length).toBeGreaterThan(0);
    expect(data.images.every((image: { url: string }) => image.url.startsWith(`${PUBLIC_URL}/photos/`))).toBe(true);
    // Never wider than the photo: 1000 pixels wide, so no 1440.
    const widths = data.images.filter((image: any) => image.type === "image/webp").map((image: any) => image.width);
    expect(widths).toEqual([160, 320, 480, 720, 1000]);
    expect(data.imageUrl).toBe(
      data.images.find((image: any) => image.type === "image/webp" && image.width === 1000).url,
    );
    expect(data.imagePlaceholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/=]+$/);
    expect(data.imagePlaceholder.length).toBeLessThan(400);
  });

  it("accepts HEIC exactly when the installed sharp decodes it, and says so otherwise", async () => {
    const [id] = await product();
    const before = await databaseFingerprint(server);
    const response = await uploadPhoto(id!, { bytes: HEIC_SAMPLE, name: "IMG_0001.HEIC", type: "image/heic" });
    if ((await acceptedPhotoFormats()).includes("HEIC")) {
      expect(response.status).toBe(200);
      expect(response.body.data.images.length).toBeGreaterThan(0);
    } else {
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        { field: "image", message: "HEIC photos cannot be read here: please choose a JPEG, PNG, WebP or AVIF image" },
      ]);
      expect(await databaseFingerprint(server)).toEqual(before);
    }
  });

  it("makes WebP and AVIF variants at six widths from a 12-megapixel phone photo, upright, without its EXIF", async () => {
    const [id] = await product();
    const response = await uploadPhoto(id!, { bytes: phone, name: "IMG_2041.JPG" });
    expect(response.status).toBe(200);
    const images: { url: string; width: number; height: number; type: string }[] = response.body.data.images;
    const webp = images.filter((image) => image.type === "image/webp");
    expect(webp.map((image) => image.width)).toEqual([160, 320, 480, 720, 960, 1440]);
    // EXIF orientation 6 applied: the 4000×3000 sensor image is shown 3 wide by 4 high.
    for (const image of images) expect(image.height).toBe(Math.round((image.width * 4) / 3));
    const rows = await variantRows();
    expect(rows).toHaveLength(images.length);
    // AVIF only at widths where it is smaller than the WebP (by a twentieth at least).
    for (const avif of rows.filter((row) => row.type === "image/avif")) {
      const webp = rows.find((row) => row.type === "image/webp" && row.width === avif.width)!;
      expect(avif.size).toBeLessThanOrEqual(webp.size * 0.95);
    }
    for (const image of images) {
      const file = await fetch(`${server.baseUrl}/photos/${fileOf(image.url)}`);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe(image.type);
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(file.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(Number(file.headers.get("content-length"))).toBe(bytes.length);
      const metadata = await sharp(bytes).metadata();
      expect([metadata.width, metadata.height]).toEqual([image.width, image.height]);
      expect(metadata.format).toBe(image.type === "image/avif" ? "heif" : "webp");
      // Nothing of the camera's metadata: no EXIF block (where the GPS position was), no XMP, no
      // maker. (Searching compressed bytes for a three-letter tag matches by chance.)
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(bytes.includes(Buffer.from("Waqt Test Phone"))).toBe(false);
      // A variant is far lighter than the 3–4 MB original.
      expect(bytes.length).toBeLessThan(image.width <= 720 ? 60_000 : 400_000);
    }
    console.info(
      `12-megapixel photo (${(phone.length / 1024 / 1024).toFixed(1)} MB): ` +
        rows.map((row) => `${row.type.slice(6)} ${row.width} ${(row.size / 1024).toFixed(1)} kB`).join(", "),
    );
  });

  it("names each file by a hash of its bytes, and answers a repeat visit with 304", async () => {
    const [first, second] = await insertProducts(server, [{ name: "One" }, { name: "Two" }]);
    const bytes = await plainImage(400, 400, "png");
    const a = (await uploadPhoto(first!, { bytes })).body.data.images[0].url;
    const b = (await uploadPhoto(second!, { bytes })).body.data.images[0].url;
    expect(fileOf(a)).toMatch(/^[A-Za-z0-9_-]{16}-160w\.webp$/);
    // The same photo uploaded twice is two photos, each with files of its own.
    expect(a).not.toBe(b);
    const etag = (await fetch(`${server.baseUrl}/photos/${fileOf(a)}`)).headers.get("etag")!;
    // As a browser revalidates (fetch() would add Cache-Control: no-cache and ask for the whole file).
    const status = await new Promise<number | undefined>((resolve, reject) =>
      http
        .get(`${server.baseUrl}/photos/${fileOf(a)}`, { headers: { "if-none-match": etag } }, (response) => {
          response.resume();
          resolve(response.statusCode);
        })
        .on("error", reject),
    );
    expect(status).toBe(304);
    expect((await fetch(`${server.baseUrl}/photos/${"A".repeat(16)}-160w.webp`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/photos/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });

  describe("refusals change nothing", () => {
    let id: string;
    let before: Record<string, string>;
    beforeEach(async () => {
      [id] = (await product()) as [string];
      // The product already has a photo: a refused upload must leave it as it was.
      expect((await uploadPhoto(id, { bytes: await plainImage(300, 300) })).status).toBe(200);
      before = await databaseFingerprint(server);
    });

    const refused = async (
      response: { status: number; body: any },
      status: number,
      message: string | RegExp,
      field: string | null = "image",
    ) => {
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.success).toBe(false);
      expect(response.body.message).toMatch(message);
      if (field) expect(response.body.errors?.[0]?.field).toBe(field);
      expect(await databaseFingerprint(server)).toEqual(before);
    };

    it("a file over 10 MB: 413", async () => {
      const bytes = Buffer.concat([await plainImage(100, 100, "jpeg"), Buffer.alloc(10 * 1024 * 1024)]);
      await refused(await uploadPhoto(id, { bytes }), 413, "The photo must be at most 10 MB");
    });

    it("a body over 32 MB: 413 before it is read", async () => {
      const bytes = Buffer.alloc(33 * 1024 * 1024);
      await refused(await uploadPhoto(id, { bytes }), 413, "The photo must be at most 10 MB");
    });

    it("more than 40 megapixels: 400", async () => {
      const bytes = await plainImage(8000, 5001, "png");
      expect(bytes.length).toBeLessThan(1024 * 1024);
      await refused(
        await uploadPhoto(id, { bytes }),
        400,
        "The photo must be at most 40 megapixels (this one has 40.0)",
      );
    });

    it("a text file renamed photo.jpg: 400", async () => {
      const bytes = Buffer.from("This is not a photo, whatever its name says.\n".repeat(20));
      await refused(
        await uploadPhoto(id, { bytes, name: "photo.jpg", type: "image/jpeg" }),
        400,
        "The photo must be a JPEG, PNG, WebP or AVIF image",
      );
    });

    it("a truncated JPEG: 400", async () => {
      const jpeg = await plainImage(1200, 900, "jpeg");
      const detailed = await sharp(phone).resize(1200).jpeg().toBuffer();
      for (const bytes of [
        jpeg.subarray(0, Math.floor(jpeg.length / 2)),
        detailed.subarray(0, detailed.length - 2000),
      ]) {
        await refused(
          await uploadPhoto(id, { bytes }),
          400,
          "The photo could not be read: the file is damaged or incomplete",
        );
      }
    });

    it("no photo, a photo under another name, or JSON: 400 or 415", async () => {
      await refused(await uploadPhoto(id, null), 400, "Choose a photo to upload");
      await refused(
        await uploadPhoto(id, { bytes: await plainImage(100, 100) }, { field: "photo" }),
        400,
        "Choose a photo to upload",
      );
      await refused(
        await uploadPhoto(id, null, { body: JSON.stringify({ image: "x" }), contentType: "application/json" }),
        415,
        /multipart\/form-data/,
        null,
      );
      await refused(
        await uploadPhoto(id, null, { body: "--nope\r\nbroken", contentType: "multipart/form-data; boundary=nope" }),
        400,
        "The form could not be read",
        null,
      );
    });

    it("a customer: 403; an unknown product: 404", async () => {
      const bytes = await plainImage(100, 100);
      await refused(
        await uploadPhoto(id, { bytes }, { token: customerToken }),
        403,
        "Not authorized as an admin",
        null,
      );
      await refused(
        await uploadPhoto("00000000-0000-4000-8000-000000000000", { bytes }),
        404,
        "Product not found",
        null,
      );
    });
  });
});

describe("a photo's life", () => {
  it("keeps the photo when an old client PUTs back the imageUrl it was given; another URL replaces it", async () => {
    const [id] = await product();
    const uploaded = (await uploadPhoto(id!, { bytes: await plainImage(800, 600, "jpeg") })).body.data;
    const { images } = uploaded;
    // What an old client does: it sends back the product it was given, with its change.
    const fields = { ...uploaded, price: 777 };
    const put = await admin.api("PUT", `/products/${id}`, { token: adminToken, body: fields });
    expect(put.status).toBe(200);
    expect(put.body.data.imageUrl).toBe(uploaded.imageUrl);
    expect(put.body.data.images).toEqual(images);
    expect(put.body.data.price).toBe(777);

    const replaced = await admin.api("PUT", `/products/${id}`, {
      token: adminToken,
      body: { ...fields, imageUrl: "https://cdn.example.com/watch.jpg" },
    });
    expect(replaced.body.data.imageUrl).toBe("https://cdn.example.com/watch.jpg");
    expect(replaced.body.data.images).toEqual([]);
    // No order sold it: the photo and its files are gone.
    expect(await photoRows()).toBe(0);
    expect(await variantRows()).toEqual([]);
    expect((await fetch(`${server.baseUrl}/photos/${fileOf(images[0].url)}`)).status).toBe(404);
  });

  it("removing a photo goes back to the Image URL, or to the placeholder without one", async () => {
    const [id] = await product();
    await uploadPhoto(id!, { bytes: await plainImage(500, 500) });
    const removed = await admin.api("DELETE", `/products/${id}/image`, { token: adminToken });
    expect(removed.status).toBe(200);
    expect(removed.body.data.imageUrl).toBe(`${PUBLIC_URL}/images/watches/x.svg`);
    expect(removed.body.data.images).toEqual([]);
    expect(removed.body.data.imagePlaceholder).toBeNull();
    expect(await photoRows()).toBe(0);
    // Again: nothing to remove, the product as it is.
    expect((await admin.api("DELETE", `/products/${id}/image`, { token: adminToken })).status).toBe(200);
  });

  it("replacing a photo deletes the old one, unless an order sold it: order history keeps its image", async () => {
    const [id] = await product();
    const first = (await uploadPhoto(id!, { bytes: await plainImage(600, 600) })).body.data;
    await server.services.cart.addItem(customerId, { productId: id!, quantity: 1 });
    const order = await server.services.checkout.placeOrder(customerId, {
      address: { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
    });
    expect(order.items[0]!.product.images.map((image) => `${PUBLIC_URL}${image.url}`)).toEqual(
      first.images.map((image: any) => image.url),
    );

    const second = (await uploadPhoto(id!, { bytes: await plainImage(700, 700, "jpeg") })).body.data;
    expect(second.imageUrl).not.toBe(first.imageUrl);
    // Two photos: the product's new one and the one the order keeps.
    expect(await photoRows()).toBe(2);
    const ordered = await admin.api("GET", `/orders/${order._id}`, { token: adminToken });
    expect(ordered.body.data.items[0].product.imageUrl).toBe(first.imageUrl);
    expect(ordered.body.data.items[0].product.images).toEqual(first.images);
    for (const image of first.images)
      expect((await fetch(`${server.baseUrl}/photos/${fileOf(image.url)}`)).status).toBe(200);

    // The third photo replaces the second, which no order sold: it goes.
    await uploadPhoto(id!, { bytes: await plainImage(650, 650) });
    expect(await photoRows()).toBe(2);
    expect((await fetch(`${server.baseUrl}/photos/${fileOf(second.images[0].url)}`)).status).toBe(404);

    // Deleting the product takes its photo; the order's stays.
    expect((await admin.api("DELETE", `/products/${id}`, { token: adminToken })).status).toBe(200);
    expect(await photoRows()).toBe(1);
    const myOrders = await admin.api("GET", "/orders/me", { token: customerToken });
    expect(myOrders.body.data[0].items[0].product).toMatchObject({ _id: null, imageUrl: first.imageUrl });
  });

  it("is served by every app server from the one database", async () => {
    const other = await startTestServer({ PUBLIC_URL }, { shareDatabaseOf: server });
    try {
      const [id] = await product();
      const { images } = (await uploadPhoto(id!, { bytes: phone })).body.data;
      for (const image of images) {
        const [here, there] = await Promise.all(
          [server, other].map((app) => fetch(`${app.baseUrl}/photos/${fileOf(image.url)}`)),
        );
        expect([here!.status, there!.status]).toEqual([200, 200]);
        expect(Buffer.from(await there!.arrayBuffer()).equals(Buffer.from(await here!.arrayBuffer()))).toBe(true);
        expect(there!.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      }
      // The other server's pages show it too.
      const html = await (await fetch(`${other.baseUrl}/products/${id}`)).text();
      expect(html).toContain(fileOf(images[images.length - 1].url));
    } finally {
      await other.close();
    }
  });
});

describe("the product form with a photo, without JavaScript", () => {
  const fields = {
    name: "Form Photo Watch",
    brand: "Waqt",
    description: "Uploaded from the form",
    price: "15000",
    stock: "4",
    category: "Women",
    imageUrl: "",
  };

  it("adds a product with only a photo, and edits it keeping, replacing and removing the photo", async () => {
    const created = await admin.postMultipart(
      "/admin/products/new",
      photoForm(fields, { bytes: await plainImage(900, 900, "jpeg"), name: "watch.jpg" }),
    );
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe("/admin/products");
    const stored = await server.database.db("products").where({ name: fields.name }).first();
    expect(stored.photoId).toBeTruthy();
    expect(stored.imageUrl).toMatch(/^\/photos\/[A-Za-z0-9_-]{16}-900w\.webp$/);
    const id = stored.id as string;

    // The edit form: the photo with a way to remove it, an empty Image URL, the file input.
    const form = await (await admin.get(`/admin/products/${id}/edit`)).text();
    expect(form).toMatch(/enctype="multipart\/form-data"/i);
    expect(form).toMatch(/<input[^>]*type="file"[^>]*name="image"|<input[^>]*name="image"[^>]*type="file"/);
    expect(form).toContain('name="removeImage"');
    expect(form).toMatch(/<input[^>]*name="imageUrl"[^>]*value=""|<input[^>]*value=""[^>]*name="imageUrl"/);

    // Saving without a new file keeps the photo; the URL typed waits for when it is removed.
    const kept = await admin.postMultipart(
      `/admin/products/${id}/edit`,
      photoForm({ ...fields, price: "16000", imageUrl: "/images/watches/spare.svg" }),
    );
    expect(kept.status).toBe(303);
    let row = await server.database.db("products").where({ id }).first();
    expect([row.photoId, row.imageUrl, Number(row.price)]).toEqual([stored.photoId, stored.imageUrl, 16000]);

    const replaced = await admin.postMultipart(
      `/admin/products/${id}/edit`,
      photoForm({ ...fields, imageUrl: "/images/watches/spare.svg" }, { bytes: await plainImage(500, 500, "png") }),
    );
    expect(replaced.status).toBe(303);
    row = await server.database.db("products").where({ id }).first();
    expect(row.photoId).not.toBe(stored.photoId);
    expect(await photoRows()).toBe(1);

    const removed = await admin.postMultipart(
      `/admin/products/${id}/edit`,
      photoForm({ ...fields, imageUrl: "/images/watches/spare.svg", removeImage: "on" }),
    );
    expect(removed.status).toBe(303);
    row = await server.database.db("products").where({ id }).first();
    expect([row.photoId, row.imageUrl, row.images]).toEqual([null, "/images/watches/spare.svg", []]);
    expect(await photoRows()).toBe(0);
  });

  it("still takes the urlencoded form of old, with an Image URL", async () => {
    const response = await admin.postForm("/admin/products/new", { ...fields, imageUrl: "/images/watches/a.svg" });
    expect(response.status).toBe(303);
  });

  type Chosen = { bytes: Uint8Array; name?: string; type?: string } | undefined;
  it.each<[string, () => Promise<Chosen>, number, string]>([
    [
      "a photo over 10 MB",
      async () => ({ bytes: Buffer.concat([await plainImage(50, 50, "jpeg"), Buffer.alloc(10 * 1024 * 1024 + 10)]) }),
      413,
      "The photo must be at most 10 MB",
    ],
    [
      "more than 40 megapixels",
      async () => ({ bytes: await plainImage(7000, 6000, "png") }),
      400,
      "at most 40 megapixels",
    ],
    [
      "a text file called photo.jpg",
      async () => ({ bytes: Buffer.from("not a photo at all"), name: "photo.jpg", type: "image/jpeg" }),
      400,
      "The photo must be a JPEG, PNG, WebP or AVIF image",
    ],
    [
      "a truncated JPEG",
      async () => {
        const jpeg = await plainImage(800, 600, "jpeg");
        return { bytes: jpeg.subarray(0, jpeg.length / 2) };
      },
      400,
      "The photo could not be read: the file is damaged or incomplete",
    ],
    ["neither a photo nor an Image URL", async () => undefined, 400, "Choose a photo or enter an image URL"],
  ])(
    "refuses %s beside the photo field, keeps what was typed, and changes nothing",
    async (_name, photo, status, message) => {
      const [id] = await product("Unchanged Watch");
      await uploadPhoto(id!, { bytes: await plainImage(300, 300) });
      const typed = { ...fields, name: "Typed But Refused", description: "Kept after the refusal" };
      for (const path of ["/admin/products/new", `/admin/products/${id}/edit`]) {
        const before = await databaseFingerprint(server);
        // The edit form without a photo is fine (the product has one): only the new form lacks one.
        const chosen = await photo();
        if (!chosen && path !== "/admin/products/new") continue;
        const response = await admin.postMultipart(path, photoForm(typed, chosen));
        const html = await response.text();
        expect(response.status, path).toBe(status);
        expect(html).toMatch(new RegExp(`<p class="field-error" id="field-image-error" role="alert">[^<]*${message}`));
        expect(html).toContain('value="Typed But Refused"');
        expect(html).toContain("Kept after the refusal");
        expect(await databaseFingerprint(server), path).toEqual(before);
      }
    },
  );

  it("refuses a form too large to read, and any other page's multipart post", async () => {
    const big = await fetch(`${server.baseUrl}/admin/products/new`, {
      method: "POST",
      headers: {
        origin: server.baseUrl,
        cookie: admin.cookieHeader(),
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(40 * 1024 * 1024),
      },
      body: "--x--",
    }).catch((error: Error) => error);
    // Either the 413 or, as the body is shorter than announced, a cut connection: never read whole.
    if (!(big instanceof Error)) expect(big.status).toBe(413);
    const other = await admin.postMultipart("/profile/edit", photoForm({ name: "x" }, { bytes: Buffer.from("x") }));
    expect(other.status).toBe(415);
  });
});

describe("pages show photos at the size their slot needs", () => {
  let id: string;
  let images: { url: string; width: number; type: string }[];
  beforeEach(async () => {
    [id] = (await product("Slot Watch")) as [string];
    ({ images } = (await uploadPhoto(id, { bytes: phone })).body.data);
  });

  it("the product page: srcset and sizes, AVIF in a <picture>, the photo fetched first, over its placeholder", async () => {
    const html = await (await fetch(`${server.baseUrl}/products/${id}`)).text();
    const main = /<img [^>]*class="product-detail__image"[^>]*>/.exec(html)![0];
    expect(main).toMatch(/fetchpriority="high"/i);
    expect(main).toContain('loading="eager"');
    expect(main).toContain('alt="Slot Watch"');
    expect(main).toMatch(/ width="600" height="800"/);
    expect(main).toContain('sizes="(max-width: 820px) and (min-resolution: 2.5dppx)');
    for (const image of images.filter((image) => image.type === "image/webp")) {
      expect(main).toContain(`/photos/${fileOf(image.url)} ${image.width}w`);
    }
    if (images.some((image) => image.type === "image/avif")) {
      expect(html).toMatch(/<picture><source type="image\/avif" srcset="\/photos\/[^"]+-160w\.avif 160w/i);
    }
    expect(html).toMatch(/<img class="product-detail__image photo__placeholder" src="data:image\/webp;base64,/);
  });

  it("lite mode and Save-Data: one file per viewport width, the narrowest that fills the slot", async () => {
    for (const headers of [{ "save-data": "on" }, { cookie: "waqt.lite=1" }] as Record<string, string>[]) {
      const html = await (await fetch(`${server.baseUrl}/products/${id}`, { headers })).text();
      expect(html).not.toMatch(/<script(?! type="application\/ld\+json")/);
      expect(html).not.toMatch(/ \d+w[,"]/);
      expect(html).toMatch(
        /<source media="\(max-width: 512px\)" type="image\/(avif|webp)" srcset="\/photos\/[^"]+-480w\.(avif|webp)"/i,
      );
    }
  });

  it("cards (the first row eager), the cart, checkout, orders and the admin table offer the photo's widths", async () => {
    await insertProducts(
      server,
      Array.from({ length: 6 }, (_, index) => ({
        name: `Older ${index}`,
        createdAt: new Date(Date.UTC(2020, 0, index + 1)),
      })),
    );
    const list = await (await fetch(`${server.baseUrl}/products`)).text();
    const card = /<img [^>]*srcset="[^"]*-160w\.webp 160w[^>]*>/i.exec(list)![0];
    // One card a row below 360px, two on a phone (app/components/image-slots.ts, CARD_SLOT).
    expect(card).toContain('sizes="(max-width: 359px) and (min-resolution: 2.5dppx)');
    expect(card).toContain("(max-width: 639px) calc(50vw - 40px)");
    expect(card).not.toContain('loading="lazy"');

    const shopper = new TestClient(server.baseUrl);
    await shopper.postForm("/login", { email: "shopper@photos.test", password: "shopperpass1" });
    await server.services.cart.addItem(customerId, { productId: id, quantity: 1 });
    for (const path of ["/cart", "/checkout"]) {
      const html = await (await shopper.get(path)).text();
      expect(html, path).toMatch(/<img [^>]*srcset="[^"]*-160w\.webp 160w[^"]*"[^>]*sizes="[^"]*(96|56)px"/i);
    }
    await server.services.checkout.placeOrder(customerId, {
      address: { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
    });
    expect(await (await shopper.get("/my-orders")).text()).toMatch(
      /<img [^>]*srcset="[^"]*-160w\.webp 160w[^"]*"[^>]*sizes="[^"]*56px"/i,
    );
    expect(await (await admin.get("/admin/products")).text()).toMatch(
      /<img [^>]*srcset="[^"]*-160w\.webp 160w[^"]*"[^>]*sizes="[^"]*48px"/i,
    );
  });
});
