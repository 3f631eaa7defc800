import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  ADMIN,
  addToCart,
  adminToken,
  createDiscountCode,
  logIn,
  placeOrder,
  productsInStock,
  registerCustomer,
  requestReturn,
  setOrderStatus,
  shortId,
} from "./store-api";

/**
 * Every page type of the shop and of its admin on a phone (390×844 CSS pixels, the first screen
 * with the browser's own bars excluded) and on a desktop (1280×800), with JavaScript off and on
 * (playwright.config.ts): each is photographed (test-results/artifacts) and fails when anything
 * is wider than the screen or the page scrolls sideways. Then what a phone must show first:
 * price and Add to Cart, two cards a row, new arrivals, what is paid before Place Order, and the
 * admin menu as a drawer (docs/product.md, "Pages on a phone").
 */
const PHONE = { name: "phone", width: 390, height: 844 } as const;
const DESKTOP = { name: "desktop", width: 1280, height: 800 } as const;
const SCREENS = [PHONE, DESKTOP] as const;

/**
 * What is wider than the screen: the page itself, or an element wider than the viewport or
 * reaching past its right edge (unless an ancestor clips it out of sight on purpose, as the
 * visually hidden headers of a list on a phone are).
 */
async function sidewaysProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) problems.push(`the page is ${pageWidth}px wide on a ${width}px screen`);
    const hiddenByAncestor = (element: Element) => {
      for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) {
        const overflow = getComputedStyle(ancestor).overflowX;
        if ((overflow === "hidden" || overflow === "clip") && ancestor.getBoundingClientRect().right <= width + 0.5) {
          return true;
        }
      }
      return false;
    };
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const tooWide = box.width > width + 0.5;
      if (!tooWide && (box.right <= width + 0.5 || hiddenByAncestor(element))) continue;
      const name = `${element.tagName.toLowerCase()}${[...element.classList].map((c) => `.${c}`).join("")}`;
      const text = (element.textContent ?? "").trim().slice(0, 40);
      problems.push(`${name} "${text}" spans ${Math.round(box.left)}..${Math.round(box.right)}px`);
    }
    return problems.slice(0, 8);
  });
}

/** Opens each page at each screen size, photographs it, and answers what was too wide. */
async function visitAll(page: Page, testInfo: TestInfo, paths: [string, string][], status = 200): Promise<string[]> {
  const problems: string[] = [];
  for (const screen of SCREENS) {
    await page.setViewportSize({ width: screen.width, height: screen.height });
    for (const [label, path] of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(label.startsWith("404") ? 404 : status);
      const shot = testInfo.outputPath(`${screen.name}-${label}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      problems.push(...(await sidewaysProblems(page)).map((problem) => `${screen.name} ${path}: ${problem}`));
    }
  }
  return problems;
}

test.describe("on a phone and on a desktop", () => {
  // Dozens of pages, each at two sizes and photographed whole.
  test.describe.configure({ timeout: 300_000 });

  test("the shop's pages for a guest fit the screen", async ({ page }, testInfo) => {
    const products = await productsInStock(page.request);
    const longest = [...products].sort((a, b) => b.name.length - a.name.length)[0]!;
    const problems = await visitAll(page, testInfo, [
      ["home", "/"],
      ["catalogue", "/products"],
      ["catalogue-filtered", "/products?category=Women&sort=price&page=2"],
      ["catalogue-empty", "/products?search=no+such+watch"],
      ["product", `/products/${longest._id}`],
      ["about", "/about"],
      ["faq", "/faq"],
      ["contact", "/contact"],
      ["login", "/login"],
      ["login-for-cart", `/login?redirectTo=%2Fproducts%2F${longest._id}&reason=cart`],
      ["signup", "/signup"],
      ["forgot-password", "/forgot-password"],
      ["cart-guest", "/cart"],
      ["404", "/no-such-page"],
    ]);
    expect(problems).toEqual([]);
  });

  test("a customer's pages fit the screen, a long email address too", async ({ page }, testInfo) => {
    // An address with no place to break it: it must wrap, not widen the page.
    const customer = await registerCustomer(page.request, "zainab.malik.long.address.test");
    const [first, second] = await productsInStock(page.request, 3);
    const pending = await placeOrder(page.request, customer, first!._id);
    const delivered = await placeOrder(page.request, customer, second!._id);
    const token = await adminToken(page.request);
    const shipped = await page.request.patch(`/api/v1/orders/${delivered}/status`, {
      headers: { authorization: `Bearer ${token}` },
      data: { status: "Shipped", courier: "TCS", trackingNumber: "TCS-0012345678" },
    });
    expect(shipped.status()).toBe(200);
    await setOrderStatus(page.request, token, delivered, "Delivered");
    await addToCart(page.request, customer, first!._id, 2);
    await logIn(page, customer);

    const problems = await visitAll(page, testInfo, [
      ["cart", "/cart"],
      ["checkout", "/checkout"],
      ["order-success", `/order-success/${pending}`],
      ["my-orders", "/my-orders"],
      ["order", `/my-orders/${delivered}`],
      ["order-cancel", `/my-orders/${pending}/cancel`],
      ["order-return", `/my-orders/${delivered}/return`],
      ["profile", "/profile"],
      ["profile-edit", "/profile/edit"],
      ["profile-password", "/profile/password"],
    ]);
    expect(problems).toEqual([]);

    // The order success page names the long address; a delivered order says where it was delivered.
    await page.goto(`/order-success/${pending}`);
    await expect(page.getByText(`We have emailed this confirmation to ${customer.email}.`)).toBeVisible();
    await page.goto(`/my-orders/${delivered}`);
    await expect(page.getByText("Delivered to", { exact: true })).toBeVisible();
    await expect(page.getByText("Delivering to")).toHaveCount(0);
    // TCS has a public tracking page: the number links to it.
    await expect(page.getByRole("link", { name: /^TCS-0012345678/ })).toHaveAttribute(
      "href",
      "https://www.tcsexpress.com/track/TCS-0012345678",
    );
  });

  test("the admin's pages fit the screen", async ({ page }, testInfo) => {
    const customer = await registerCustomer(page.request, "desk.screens");
    const [product] = await productsInStock(page.request, 2);
    const orderId = await placeOrder(page.request, customer, product!._id);
    const token = await adminToken(page.request);
    const returned = await placeOrder(page.request, customer, product!._id);
    await setOrderStatus(page.request, token, returned, "Delivered");
    const returnId = await requestReturn(page.request, customer, returned, product!._id);
    const discount = await createDiscountCode(page.request, token);
    await logIn(page, ADMIN);

    const problems = await visitAll(page, testInfo, [
      ["dashboard", "/admin"],
      ["orders", "/admin/orders"],
      ["orders-filtered", "/admin/orders?status=Pending"],
      ["order", `/admin/orders/${orderId}`],
      ["order-ship", `/admin/orders/${orderId}/ship`],
      ["order-slip", `/admin/orders/${orderId}/slip`],
      ["order-slips", "/admin/orders/slips?status=Pending"],
      ["products", "/admin/products"],
      ["product-new", "/admin/products/new"],
      ["product-edit", `/admin/products/${product!._id}/edit`],
      ["product-delete", `/admin/products/${product!._id}/delete`],
      ["users", "/admin/users"],
      ["user-new", "/admin/users/new"],
      ["user-role", `/admin/users/${customer.id}/role?role=admin`],
      ["user-delete", `/admin/users/${customer.id}/delete`],
      ["returns", "/admin/returns"],
      ["return", `/admin/returns/${returnId}`],
      ["discounts", "/admin/discounts"],
      ["discount-new", "/admin/discounts/new"],
      ["discount-edit", `/admin/discounts/${discount._id}/edit`],
      ["outbox", "/admin/outbox"],
      ["messages", "/admin/messages"],
    ]);
    expect(problems).toEqual([]);

    // On a phone the orders are cards: each with its status, total, confirmation and actions in sight.
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await page.goto(`/admin/orders?search=${shortId(orderId)}`);
    const card = page.locator("tbody tr").filter({ hasText: `#${shortId(orderId)}` });
    for (const part of [
      card.locator(".status--pending"),
      card.getByText(/^Rs\. [\d,]+$/),
      card.getByRole("button", { name: /^Confirmed by phone/ }),
      card.getByLabel(`Status of order #${shortId(orderId)}`),
      card.getByRole("link", { name: `View order #${shortId(orderId)}` }),
    ]) {
      await expect(part).toBeVisible();
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
  });

  test("a phone's first screen shows the price and Add to Cart; the home page, new arrivals within two", async ({
    page,
  }) => {
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    // The watch with the longest name, whose heading takes the most room.
    const products = await productsInStock(page.request);
    const longest = [...products].sort((a, b) => b.name.length - a.name.length)[0]!;
    await page.goto(`/products/${longest._id}`);
    for (const part of [
      page.locator(".product-detail__price"),
      page.getByRole("button", { name: `Add to Cart ${longest.name}` }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(box.y + box.height, "within the first screen").toBeLessThanOrEqual(PHONE.height);
    }
    // The bar stays at the bottom of the screen while the description is read.
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const button = (await page.getByRole("button", { name: `Add to Cart ${longest.name}` }).boundingBox())!;
    expect(button.y).toBeGreaterThanOrEqual(0);
    expect(button.y + button.height).toBeLessThanOrEqual(PHONE.height);

    await page.goto("/");
    const firstArrival = page
      .getByRole("heading", { name: "New arrivals" })
      .locator("..")
      .locator(".product-card")
      .first();
    const arrival = (await firstArrival.boundingBox())!;
    expect(arrival.y, "the first new arrival begins within two screens").toBeLessThan(2 * PHONE.height);
  });

  test("the catalogue: two cards a row from 360px, and no lone card on the last row of a full page", async ({
    page,
  }) => {
    /** The cards of each row, top to bottom. */
    const rows = async () => {
      const tops = await page
        .locator(".product-card")
        .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
      const counts = new Map<number, number>();
      for (const top of tops) counts.set(top, (counts.get(top) ?? 0) + 1);
      return [...counts.values()];
    };
    for (const [width, columns] of [
      [360, 2],
      [390, 2],
      [700, 3],
      [1024, 4],
      [1280, 4],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/products");
      await expect(page.locator(".product-card")).toHaveCount(12);
      expect(await rows(), `${width}px`).toEqual(Array(12 / columns).fill(columns));
      // Each card holds its own Add to Cart.
      await expect(
        page
          .locator("li.product-card")
          .first()
          .getByRole("button", { name: /^Add to Cart / }),
      ).toBeVisible();
    }
  });

  test("checkout on a phone: the summary, discount and total before Place Order; Country as tall as ZIP", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "phone.checkout");
    const [product] = await productsInStock(page.request, 2);
    await addToCart(page.request, customer, product!._id, 1);
    await logIn(page, customer);
    for (const screen of SCREENS) {
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await page.goto("/checkout");
      const zip = (await page.getByLabel("ZIP / Postal Code").boundingBox())!;
      const country = (await page.getByLabel("Country").boundingBox())!;
      expect(country.height, screen.name).toBeCloseTo(zip.height, 0);
      expect(country.y, screen.name).toBeCloseTo(zip.y, 0);
    }
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await page.goto("/checkout");
    const placeOrder = (await page.getByRole("button", { name: "Place Order" }).boundingBox())!;
    for (const part of [
      page.getByRole("heading", { name: "Order Summary" }),
      page.getByLabel("Discount code"),
      page.locator(".cart__total"),
    ]) {
      expect((await part.boundingBox())!.y).toBeLessThan(placeOrder.y);
    }
  });

  test("the admin menu: a column on a desktop, a drawer on a phone that a tap opens", async ({ page }) => {
    await logIn(page, ADMIN);
    const menu = page.getByRole("navigation", { name: "Admin" });

    await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
    await page.goto("/admin/discounts");
    await expect(menu.getByText("Admin menu")).toBeHidden();
    await expect(menu.getByRole("link", { name: "Discounts" })).toHaveAttribute("aria-current", "page");
    await menu.getByRole("link", { name: "Returns" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Returns" })).toBeVisible();

    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await page.goto("/admin");
    await expect(menu.getByRole("link", { name: "Orders" })).toBeHidden();
    await menu.getByText("Admin menu").click();
    await expect(menu.getByRole("link", { name: "Orders" })).toBeVisible();
    await menu.getByRole("link", { name: "Orders" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Manage Orders" })).toBeVisible();
    // Closed again on the page it led to, as a new document's would be.
    await expect(menu.getByRole("link", { name: "Orders" })).toBeHidden();
    await expect(menu.getByText("Admin menu")).toBeVisible();
  });
});
