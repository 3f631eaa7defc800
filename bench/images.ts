/**
 * `npm run bench:images` (and a step of `npm run bench`): how many bytes of image each page type
 * costs a phone and a desktop once the catalogue has real photos. Seeds a small catalogue of
 * its own, uploads 12-megapixel phone photos (made with sharp, as the tests make them) to the
 * newest watches through the API, fills a shopper's cart and order history with them, then
 * opens each page in Debian's Chromium at a phone's and a desktop's size and adds up every image
 * the browser loaded: at first (the first screen) and after scrolling to the end. Writes
 * bench/results/images.{json,md}.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type BrowserContextOptions } from "@playwright/test";
import { phonePhoto } from "../tests/support/photos";
import { setCodRules } from "./checkout";
import { BENCH_PASSWORD, openBenchDatabase, seedBenchData } from "./database";
import { buildStore, ROOT, startStore, type Started } from "./processes";
import { imagesMarkdown, kbText, type ImageResults, type ImageWeight } from "./image-results";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    photos: { type: "string", default: "12" },
    out: { type: "string", default: "bench/results" },
  },
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export type Viewport = { id: string; title: string; options: BrowserContextOptions };
const VIEWPORTS: Viewport[] = [
  {
    id: "phone",
    title: "Phone (390×844 CSS px, 3×)",
    options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  },
  {
    id: "phone-save-data",
    title: "Phone with Save-Data: on",
    options: {
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
      extraHTTPHeaders: { "save-data": "on" },
    },
  },
  {
    id: "desktop",
    title: "Desktop (1366×768, 1×)",
    options: { viewport: { width: 1366, height: 768 }, deviceScaleFactor: 1 },
  },
  {
    id: "desktop-2x",
    title: "Desktop (1440×900, 2×)",
    options: { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2 },
  },
];

async function main() {
  if (!fs.existsSync(CHROMIUM)) {
    console.error(
      `The image bench needs Chromium at ${CHROMIUM} (sudo apt-get install chromium, or set CHROMIUM_PATH).`,
    );
    process.exit(1);
  }
  if (!args["skip-build"]) buildStore();
  const photoCount = Number(args.photos);
  const database = await openBenchDatabase({ keep: false });
  let store: Started | null = null;
  try {
    const seed = await seedBenchData(database.db, {
      products: 60,
      users: 4,
      orders: 10,
      browsers: 1,
      checkoutShoppers: 0,
      lastUnitShoppers: 0,
    });
    const db = database.db;
    // The shopper's order below is a first cash-on-delivery order of two watches, over the
    // first-order limit the store starts with: the rules are off here, as for checkout's default
    // run (bench/checkout.ts), since this bench weighs images, not orders.
    await setCodRules(db, false);
    const shopperEmail = seed.browserEmails[0]!;
    const admin = await db("users").whereNot({ email: shopperEmail }).orderBy("email").first("id", "email");
    await db("users").where({ id: admin.id }).update({ role: "admin" });
    store = await startStore({ databaseUrl: database.url, countQueries: false });
    const baseUrl = store.baseUrl;

    // Three kinds of phone photo, as shops take them: upright, square, and landscape.
    console.log(`Making and uploading ${photoCount} photos of 12 megapixels…`);
    const originals = [
      await phonePhoto(),
      await phonePhoto({ width: 3464, height: 3464 }),
      await phonePhoto({ width: 4032, height: 3024, orientation: 1 }),
    ];
    const adminToken = await apiLogin(baseUrl, admin.email);
    const products: { id: string }[] = await db("products")
      .where("stock", ">", 0)
      .orderBy("createdAt", "desc")
      .limit(photoCount)
      .select("id");
    const uploadSeconds: number[] = [];
    const originalOf = new Map<string, number>();
    for (const [index, product] of products.entries()) {
      const bytes = originals[index % originals.length]!;
      const form = new FormData();
      form.append("image", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), `IMG_${index}.JPG`);
      const started = Date.now();
      const response = await fetch(`${baseUrl}/api/v1/products/${product.id}/image`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}` },
        body: form,
      });
      if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
      uploadSeconds.push((Date.now() - started) / 1000);
      const { data } = (await response.json()) as { data: { images: { url: string }[] } };
      for (const image of data.images) originalOf.set(new URL(image.url).pathname, bytes.length);
    }
    const stored = await db("photo_variants").sum({ bytes: "size" }).first();

    // A shopper with two photo watches in an order and three in the cart.
    const shopperToken = await apiLogin(baseUrl, shopperEmail);
    const api = (method: string, apiPath: string, body?: unknown) =>
      fetch(`${baseUrl}/api/v1${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${shopperToken}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (response) => {
        if (response.status >= 300)
          throw new Error(`${method} ${apiPath}: ${response.status} ${await response.text()}`);
      });
    await api("DELETE", "/cart");
    for (const product of products.slice(0, 2)) await api("POST", "/cart", { productId: product.id, quantity: 1 });
    await api("POST", "/orders", {
      address: { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" },
    });
    for (const product of products.slice(2, 5)) await api("POST", "/cart", { productId: product.id, quantity: 1 });
    const shopperCookie = await pageLogin(baseUrl, shopperEmail);
    const adminCookie = await pageLogin(baseUrl, admin.email);

    const pages: { page: string; path: string; cookie?: string }[] = [
      { page: "Home", path: "/" },
      { page: "Catalogue", path: "/products" },
      { page: "Product", path: `/products/${products[0]!.id}` },
      { page: "Cart", path: "/cart", cookie: shopperCookie },
      { page: "Checkout", path: "/checkout", cookie: shopperCookie },
      { page: "My Orders", path: "/my-orders", cookie: shopperCookie },
      { page: "Admin products", path: "/admin/products", cookie: adminCookie },
    ];

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    const results: ImageWeight[] = [];
    try {
      for (const viewport of VIEWPORTS) {
        for (const entry of pages) {
          results.push(await measure(browser, baseUrl, viewport, entry, originalOf));
          const last = results[results.length - 1]!;
          console.log(
            `  ${viewport.id.padEnd(16)} ${entry.page.padEnd(15)} first screen ${kbText(last.firstScreenBytes).padStart(8)}, whole page ${kbText(last.wholePageBytes).padStart(8)} (${last.photoFiles.length} photo files)`,
          );
        }
      }
    } finally {
      await browser.close();
    }

    const output: ImageResults = {
      date: new Date().toISOString(),
      chromium: (await chromiumVersion()) ?? "Chromium",
      machine: `${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? "unknown"}), Node ${process.version}`,
      photos: {
        count: products.length,
        originalBytes: originals.map((bytes) => bytes.length),
        uploadSeconds,
        storedBytesPerPhoto: Math.round(Number(stored?.bytes ?? 0) / Math.max(1, products.length)),
      },
      viewports: VIEWPORTS.map(({ id, title }) => ({ id, title })),
      pages: results,
    };
    const outDir = path.resolve(ROOT, args.out!);
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, "images.json"), JSON.stringify(output, null, 2) + "\n");
    const markdown = imagesMarkdown(output).join("\n") + "\n";
    fs.writeFileSync(path.join(outDir, "images.md"), markdown);
    console.log("\n" + markdown);
  } finally {
    await store?.stop();
    await database.close();
  }
}

async function measure(
  browser: import("@playwright/test").Browser,
  baseUrl: string,
  viewport: Viewport,
  entry: { page: string; path: string; cookie?: string },
  originalOf: Map<string, number>,
): Promise<ImageWeight> {
  const context = await browser.newContext(viewport.options);
  if (entry.cookie) {
    const [name, value] = entry.cookie.split("=") as [string, string];
    await context.addCookies([{ name, value, url: baseUrl }]);
  }
  const page = await context.newPage();
  const loaded: { url: string; bytes: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "image" || response.url().startsWith("data:")) return;
    pending.push(
      response.body().then(
        (body) => void loaded.push({ url: response.url(), bytes: body.length }),
        () => undefined,
      ),
    );
  });
  await page.goto(baseUrl + entry.path);
  await page.waitForLoadState("networkidle");
  await Promise.all(pending);
  const firstScreenBytes = loaded.reduce((sum, image) => sum + image.bytes, 0);
  // Scrolled to the end a screen at a time, so that lazy images load as a shopper's would.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = viewport.options.viewport!.height;
  for (let y = step; y < height + step; y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(150);
  }
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
  await Promise.all(pending);
  await context.close();
  const photoFiles = loaded.map((image) => new URL(image.url).pathname).filter((url) => url.startsWith("/photos/"));
  return {
    page: entry.page,
    path: entry.path.replace(/[0-9a-f-]{36}/, "{id}"),
    viewport: viewport.id,
    firstScreenBytes,
    wholePageBytes: loaded.reduce((sum, image) => sum + image.bytes, 0),
    images: loaded.length,
    photoFiles,
    originalsBytes: photoFiles.reduce((sum, file) => sum + (originalOf.get(file) ?? 0), 0),
  };
}

async function chromiumVersion(): Promise<string | null> {
  try {
    const { execFileSync } = await import("node:child_process");
    return execFileSync(CHROMIUM, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

async function apiLogin(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (!body.data?.token) throw new Error(`API log-in of ${email} failed: ${response.status}`);
  return body.data.token;
}

async function pageLogin(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: new URLSearchParams({ email, password: BENCH_PASSWORD, redirectTo: "/" }).toString(),
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("waqt.sid="));
  if (!cookie) throw new Error(`page log-in of ${email} failed: ${response.status}`);
  return cookie.split(";")[0]!;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
