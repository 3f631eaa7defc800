import type { Page } from "@playwright/test";
import { audit, visitAndAudit, type Finding } from "./axe-audit";
import { expect, test } from "./fixtures";
import { confirmationLink, placedOrder } from "./confirmation-link";
import { waitForHydration } from "./held-scripts";
import { linkIn, mailTo } from "./outbox-files";
import { plainImage } from "../support/photos";
import {
  ADMIN,
  addToCart,
  adminToken,
  createDiscountCode,
  createProduct,
  logIn,
  placeOrder,
  productsInStock,
  registerCustomer,
  requestReturn,
  setOrderStatus,
  shortId,
} from "./store-api";

/**
 * axe-core with every one of its rules, experimental ones included, on every page type of the
 * store, for a guest, a customer and an admin: no serious or critical violation. (It needs
 * JavaScript in the browser, so it runs in the "js" project only: playwright.config.ts.) The
 * audit itself: tests/e2e/axe-audit.ts.
 */
/** The same pages on a phone's screen, where the layout folds (the store is for slow phones). */
async function onAPhone(page: Page, paths: string[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of paths) findings.push(...(await visitAndAudit(page, path)).map((finding) => `phone ${finding}`));
  await page.setViewportSize({ width: 1280, height: 800 });
  return findings;
}

/** The pages every visitor sees, whoever they are. */
async function publicPages(page: Page, productId: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const path of [
    "/",
    "/products",
    "/products?category=Women&sort=price&page=2",
    "/products?search=no+such+watch",
    `/products/${productId}`,
    "/about",
    "/faq",
    "/contact",
  ]) {
    findings.push(...(await visitAndAudit(page, path)));
  }
  findings.push(...(await visitAndAudit(page, "/no-such-page", { status: 404 })));
  findings.push(...(await visitAndAudit(page, "/products/00000000-0000-4000-8000-000000000000", { status: 404 })));

  // Controls opened by the person: an FAQ answer, the menu of a small screen.
  await page.goto("/faq");
  await waitForHydration(page);
  await page.locator("details.faq-item summary").first().click();
  findings.push(...(await audit(page, "/faq with an answer open")));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await waitForHydration(page);
  await page.getByText("Menu", { exact: true }).click();
  findings.push(...(await audit(page, "/ on a small screen, menu open")));
  await page.setViewportSize({ width: 1280, height: 800 });
  return findings;
}

/** Sends a message from the contact page and waits for the thank-you. */
async function sendContactMessage(page: Page) {
  await page.goto("/contact");
  await page.getByLabel("Name", { exact: true }).fill("Farah Aziz");
  await page.getByLabel("Email").fill("farah@example.com");
  await page.getByLabel("Subject").fill("Strap length");
  await page.getByLabel("Message", { exact: true }).fill("Is the strap of this watch adjustable?");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Thank you for your message! We'll get back to you soon.")).toBeVisible();
}

/** Lite mode: the same pages without a single script (a cookie set by the footer's link). */
async function litePages(page: Page, productId: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  await page.goto("/");
  await page.locator("footer").getByRole("link", { name: "Lite mode" }).click();
  await expect(page.locator("footer").getByRole("link", { name: "Full mode" })).toBeVisible();
  for (const path of ["/", "/products", `/products/${productId}`]) {
    findings.push(...(await visitAndAudit(page, path, { hydrates: false })).map((finding) => `lite ${finding}`));
  }
  // A success banner: without scripts it stays, so it is audited too.
  await sendContactMessage(page);
  findings.push(...(await audit(page, "lite /contact thanked")).map((finding) => `lite ${finding}`));
  await page.locator("footer").getByRole("link", { name: "Full mode" }).click();
  await expect(page.locator("footer").getByRole("link", { name: "Lite mode" })).toBeVisible();
  return findings;
}

/**
 * What an admin's pages show when the shop has work in it: a pending order, a shipped one (whose
 * page asks why its parcel came back), a delivered one with a return waiting for the store's
 * answer, a discount code and a message in the inbox. Leaves the page logged in as the admin.
 */
async function anAdminsShop(page: Page) {
  const customer = await registerCustomer(page.request, "axe.managed");
  const [product] = await productsInStock(page.request, 2);
  const orderId = await placeOrder(page.request, customer, product!._id);
  const token = await adminToken(page.request);
  const returned = await placeOrder(page.request, customer, product!._id);
  await setOrderStatus(page.request, token, returned, "Delivered");
  const returnId = await requestReturn(page.request, customer, returned, product!._id);
  const discount = await createDiscountCode(page.request, token);
  const shipped = await placeOrder(page.request, customer, product!._id);
  await setOrderStatus(page.request, token, shipped, "Shipped");
  await sendContactMessage(page);
  await logIn(page, ADMIN);
  return { productId: product!._id, customerId: customer.id, orderId, returnId, discountId: discount._id, shipped };
}

test.describe("accessibility (axe-core, every rule)", () => {
  // Every rule takes axe a second or more a page on a busy machine, and a test audits up to a dozen:
  // the tests are small and independent, so the two workers share them (playwright.config.ts).
  test.describe.configure({ mode: "parallel", timeout: 180_000 });

  test("the audit finds what it is for: a nameless button, an image without words, invisible text", async ({
    page,
  }) => {
    await page.goto("/about");
    await waitForHydration(page);
    expect(await audit(page, "/about")).toEqual([]);
    // Planted through the DOM (the page's Content-Security-Policy refuses inline style attributes).
    await page.evaluate(() => {
      const main = document.querySelector("main")!;
      const button = main.appendChild(document.createElement("button"));
      button.id = "planted-button";
      const image = main.appendChild(document.createElement("img"));
      image.id = "planted-image";
      image.src = "/images/placeholder-watch.svg";
      const text = main.appendChild(document.createElement("p"));
      text.id = "planted-text";
      text.textContent = "Words nobody can read";
      text.style.color = "#ffffff";
      text.style.background = "#ffffff";
    });
    const findings = (await audit(page, "planted")).join("\n");
    expect(findings).toMatch(/button-name \(critical\).*#planted-button/);
    expect(findings).toMatch(/image-alt \(critical\).*#planted-image/);
    expect(findings).toMatch(/Text must not be the colour of its background at #planted-text/);
  });

  test("the store's pages, for a guest", async ({ page }) => {
    const [product] = await productsInStock(page.request);
    expect(await publicPages(page, product!._id)).toEqual([]);
  });

  test("the log-in, sign-up and cart pages for a guest, and the pages of links that no longer work", async ({
    page,
  }) => {
    const findings: Finding[] = [];
    for (const path of ["/login", "/login?redirectTo=%2Fcart", "/signup", "/cart", "/forgot-password", "/unsubscribe"])
      findings.push(...(await visitAndAudit(page, path)));
    // Links from mails that no longer work: a clear page (400) with what to do.
    findings.push(...(await visitAndAudit(page, "/reset-password?token=used-up", { status: 400 })));
    findings.push(...(await visitAndAudit(page, "/unsubscribe?token=unknown", { status: 400 })));
    findings.push(...(await visitAndAudit(page, "/confirm-email?token=used-up", { status: 400 })));
    expect(findings).toEqual([]);
  });

  test("a guest's refused forms: notify me on a sold-out watch, sign-up and contact", async ({ page }) => {
    const findings: Finding[] = [];
    // A sold-out watch offers "Notify me when it's back"; a refused address is said beside its field.
    const soldOut = await createProduct(page.request, await adminToken(page.request), {
      name: `Axe Sold Out ${Date.now()}`,
      imageUrl: "/images/placeholder-watch.svg",
      stock: 0,
    });
    findings.push(...(await visitAndAudit(page, `/products/${soldOut._id}`)));
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Notify Me" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    findings.push(...(await audit(page, "/products/{id} notify me refused")));

    // A refused form: its messages beside the fields.
    await page.goto("/signup");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByText(/required/i).first()).toBeVisible();
    findings.push(...(await audit(page, "/signup refused")));
    await page.goto("/contact");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Email is required")).toBeVisible();
    findings.push(...(await audit(page, "/contact refused")));
    expect(findings).toEqual([]);
  });

  test("lite mode, for a guest", async ({ page }) => {
    const [product] = await productsInStock(page.request);
    expect(await litePages(page, product!._id)).toEqual([]);
  });

  test("a guest's pages on a phone", async ({ page }) => {
    const [product] = await productsInStock(page.request);
    expect(
      await onAPhone(page, ["/", "/products", `/products/${product!._id}`, "/faq", "/contact", "/login", "/cart"]),
    ).toEqual([]);
  });

  test("the store's pages, for a customer", async ({ page }) => {
    const customer = await registerCustomer(page.request, "axe.browser");
    const [product] = await productsInStock(page.request);
    await addToCart(page.request, customer, product!._id, 1);
    await logIn(page, customer);
    expect(await publicPages(page, product!._id)).toEqual([]);
  });

  test("a customer's cart and checkout: empty, filled, a discount applied and refused, the form refused", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "axe.checkout");
    const [first, second] = await productsInStock(page.request, 3);
    await logIn(page, customer);
    const findings: Finding[] = [];
    findings.push(...(await visitAndAudit(page, "/cart")).map((finding) => `empty ${finding}`));
    findings.push(...(await visitAndAudit(page, "/checkout")).map((finding) => `empty ${finding}`));
    await addToCart(page.request, customer, first!._id, 2);
    await addToCart(page.request, customer, second!._id, 1);
    for (const path of ["/cart", "/cart?confirm=clear", `/cart?confirm=remove&productId=${second!._id}`, "/checkout"])
      findings.push(...(await visitAndAudit(page, path)));

    // Checkout with a discount applied (Apply updates the summary in place), and a code refused.
    const { code } = await createDiscountCode(page.request, await adminToken(page.request));
    await page.goto("/checkout");
    await waitForHydration(page);
    await page.getByLabel("Discount code").fill(code);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator(".summary-totals")).toContainText(`Discount (${code})`);
    findings.push(...(await audit(page, "/checkout with a discount applied")));
    await page.getByLabel("Discount code").fill("NOPE10");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("This discount code is not valid")).toBeVisible();
    findings.push(...(await audit(page, "/checkout with a code refused")));

    await page.goto("/checkout");
    await waitForHydration(page);
    await page.getByLabel("Street Address").fill("");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByText(/Street.*required/)).toBeVisible();
    findings.push(...(await audit(page, "/checkout refused")));

    // A product page whose stepper has taken over.
    await page.goto(`/products/${first!._id}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Increase quantity" }).click();
    findings.push(...(await audit(page, "/products/{id} after a step")));
    expect(findings).toEqual([]);
  });

  test("a customer's orders and profile: an order, a stock alert, an email change and its link", async ({ page }) => {
    const customer = await registerCustomer(page.request, "axe.customer");
    const [first] = await productsInStock(page.request, 3);
    const orderId = await placeOrder(page.request, customer, first!._id);
    await logIn(page, customer);

    const findings: Finding[] = [];
    for (const path of [
      `/order-success/${orderId}`,
      "/my-orders",
      "/profile",
      "/profile/edit",
      "/profile/password",
      `/my-orders/${orderId}`,
      `/my-orders/${orderId}/cancel`,
    ]) {
      findings.push(...(await visitAndAudit(page, path)));
    }
    // A waiting stock alert on the profile.
    const soldOut = await createProduct(page.request, await adminToken(page.request), {
      name: `Axe Alert ${Date.now()}`,
      imageUrl: "/images/placeholder-watch.svg",
      stock: 0,
    });
    const alert = await page.request.post(`/api/v1/products/${soldOut._id}/notify`, {
      data: { email: customer.email },
    });
    expect(alert.status()).toBe(202);
    findings.push(...(await visitAndAudit(page, "/profile")).map((finding) => `with an alert ${finding}`));
    // An email change waiting for its link: the profile's note and buttons, and the link's page.
    const newEmail = `axe.changed.${Date.now()}@example.com`;
    const change = await page.request.put("/api/v1/auth/update-profile", {
      headers: { authorization: `Bearer ${customer.token}` },
      data: { name: "Zainab Malik", email: newEmail, currentPassword: customer.password },
    });
    expect(change.status()).toBe(200);
    findings.push(...(await visitAndAudit(page, "/profile")).map((finding) => `with an email change ${finding}`));
    const link = linkIn((await mailTo(newEmail, /^Confirm your new Waqt email$/)).text, "/confirm-email?token=");
    findings.push(...(await visitAndAudit(page, new URL(link).pathname + new URL(link).search)));
    // The edit page refusing a new email without the password.
    await page.goto("/profile/edit");
    await waitForHydration(page);
    await page.getByLabel("Email").fill(`axe.other.${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Enter your current password to change your email")).toBeVisible();
    findings.push(...(await audit(page, "/profile/edit refused without the password")));
    findings.push(
      ...(await visitAndAudit(page, "/order-success/00000000-0000-4000-8000-000000000000", { status: 404 })),
    );
    expect(findings).toEqual([]);
  });

  test("a customer's delivered order: its return offered, the form refused, the return shown", async ({ page }) => {
    const customer = await registerCustomer(page.request, "axe.returner");
    const [, second] = await productsInStock(page.request, 3);
    const delivered = await placeOrder(page.request, customer, second!._id);
    await setOrderStatus(page.request, await adminToken(page.request), delivered, "Delivered");
    await logIn(page, customer);
    const findings: Finding[] = [];
    findings.push(...(await visitAndAudit(page, `/my-orders/${delivered}`)).map((finding) => `delivered ${finding}`));
    findings.push(...(await visitAndAudit(page, `/my-orders/${delivered}/return`)));
    await page.getByRole("button", { name: "Request Return" }).click();
    await expect(page.getByText("Choose at least one watch to return")).toBeVisible();
    findings.push(...(await audit(page, "/my-orders/{id}/return refused")));
    await requestReturn(page.request, customer, delivered, second!._id);
    findings.push(...(await visitAndAudit(page, `/my-orders/${delivered}`)).map((finding) => `returned ${finding}`));
    findings.push(...(await visitAndAudit(page, `/my-orders/${delivered}/return`)).map((f) => `returned ${f}`));
    expect(findings).toEqual([]);
  });

  test("a customer's own pages on a phone", async ({ page }) => {
    const customer = await registerCustomer(page.request, "axe.phone");
    const [first, second] = await productsInStock(page.request, 3);
    const delivered = await placeOrder(page.request, customer, second!._id);
    await setOrderStatus(page.request, await adminToken(page.request), delivered, "Delivered");
    await addToCart(page.request, customer, first!._id, 2);
    await addToCart(page.request, customer, second!._id, 1);
    await logIn(page, customer);
    expect(
      await onAPhone(page, [
        "/cart",
        `/cart?confirm=remove&productId=${second!._id}`,
        "/checkout",
        "/my-orders",
        `/my-orders/${delivered}`,
        `/my-orders/${delivered}/return`,
        "/profile",
        "/profile/edit",
      ]),
    ).toEqual([]);
  });

  test("the store's pages, for an admin", async ({ page }) => {
    const [product] = await productsInStock(page.request);
    await logIn(page, ADMIN);
    expect(await publicPages(page, product!._id)).toEqual([]);
  });

  test("the admin's catalogue and orders pages", async ({ page }) => {
    const shop = await anAdminsShop(page);
    const findings: Finding[] = [];
    for (const path of [
      "/admin",
      "/admin/products",
      "/admin/products/new",
      `/admin/products/${shop.productId}/edit`,
      `/admin/products/${shop.productId}/delete`,
      "/admin/orders",
      "/admin/orders?status=Pending",
      `/admin/orders/${shop.orderId}`,
      `/admin/orders/${shop.orderId}/ship`,
      `/admin/orders/${shop.shipped}/outcome`,
      `/admin/orders/${shop.orderId}/slip`,
      "/admin/orders/slips?status=Pending",
    ]) {
      findings.push(...(await visitAndAudit(page, path)));
    }
    expect(findings).toEqual([]);
  });

  test("the admin's users, messages, settings, discounts and returns pages", async ({ page }) => {
    const shop = await anAdminsShop(page);
    const findings: Finding[] = [];
    for (const path of [
      "/admin/users",
      "/admin/users/new",
      `/admin/users/${shop.customerId}/role`,
      `/admin/users/${shop.customerId}/delete`,
      "/admin/messages",
      "/admin/outbox",
      "/admin/outbox?state=sent",
      "/admin/settings/orders",
      "/admin/discounts",
      "/admin/discounts/new",
      `/admin/discounts/${shop.discountId}/edit`,
      "/admin/returns",
      "/admin/returns?status=Requested",
      `/admin/returns/${shop.returnId}`,
      "/profile",
    ]) {
      findings.push(...(await visitAndAudit(page, path)));
    }
    expect(findings).toEqual([]);
  });

  test("the admin's dialog, refused forms, an approved return and a refund to record", async ({ page }) => {
    const shop = await anAdminsShop(page);
    const findings: Finding[] = [];
    // The order's details in the list's dialog (JavaScript only).
    await page.goto("/admin/orders");
    await waitForHydration(page);
    await page.getByRole("link", { name: `View order #${shortId(shop.orderId)}` }).click();
    await expect(page.getByRole("dialog", { name: `Order #${shortId(shop.orderId)}` })).toBeVisible();
    findings.push(...(await audit(page, "/admin/orders with the details dialog open")));

    // A refused form.
    await page.goto("/admin/products/new");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    findings.push(...(await audit(page, "/admin/products/new refused")));
    await page.goto("/admin/discounts/new");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Create Code" }).click();
    await expect(page.getByText("Code is required")).toBeVisible();
    findings.push(...(await audit(page, "/admin/discounts/new refused")));
    // The return approved: the form that records its arrival and the refund.
    await page.goto(`/admin/returns/${shop.returnId}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Approve Return" }).click();
    await expect(page.getByText("Return marked Approved")).toBeVisible();
    findings.push(...(await audit(page, "/admin/returns/{id} approved")));
    // A cancelled order whose cash the store collected: its refund to record, and the form refused.
    const owed = await placeOrder(page.request, await registerCustomer(page.request, "axe.refund"), shop.productId);
    await setOrderStatus(page.request, await adminToken(page.request), owed, "Delivered");
    await setOrderStatus(page.request, await adminToken(page.request), owed, "Cancelled");
    findings.push(...(await visitAndAudit(page, `/admin/orders/${owed}`)).map((finding) => `refund due ${finding}`));
    const refund = page.getByRole("region", { name: "Refund" });
    await refund.getByLabel("Refunded by").selectOption("JazzCash");
    await refund.getByRole("button", { name: "Record the refund" }).click();
    await expect(page.getByText("Enter the transaction's reference")).toBeVisible();
    findings.push(...(await audit(page, "/admin/orders/{id} refund refused")));
    expect(findings).toEqual([]);
  });

  test("the admin's pages on a phone", async ({ page }) => {
    const shop = await anAdminsShop(page);
    expect(
      await onAPhone(page, [
        "/admin",
        "/admin/products",
        "/admin/orders",
        `/admin/orders/${shop.orderId}`,
        "/admin/users",
        "/admin/messages",
        "/admin/discounts",
        "/admin/returns",
        `/admin/returns/${shop.returnId}`,
        `/admin/orders/${shop.shipped}/outcome`,
        "/admin/settings/orders",
      ]),
    ).toEqual([]);
  });

  test("the confirmation link's page, in Urdu (right to left) and English, answered and unknown", async ({ page }) => {
    const findings: Finding[] = [];
    for (const language of ["ur", "en"] as const) {
      const link = await confirmationLink(await placedOrder(page.request, language));
      findings.push(...(await visitAndAudit(page, link)));
      findings.push(...(await onAPhone(page, [link])));
      // Answered: the thanks that replaces the buttons.
      await page.getByRole("button", { name: language === "ur" ? "آرڈر کی تصدیق کریں" : "Confirm order" }).click();
      await expect(
        page.getByRole("button", { name: language === "ur" ? "آرڈر کی تصدیق کریں" : "Confirm order" }),
      ).toHaveCount(0);
      findings.push(...(await audit(page, `${link} answered`)));
    }
    findings.push(...(await visitAndAudit(page, `/c/${"A".repeat(43)}`, { status: 404 })));
    expect(findings).toEqual([]);
  });

  test("the catalogue with its filters open and chosen, on a desktop and a phone, and a brand's page", async ({
    page,
  }) => {
    const findings: Finding[] = [];
    for (const path of ["/products?brand=citizen&brand=tissot&movement=Automatic", "/brands/tissot"]) {
      findings.push(...(await visitAndAudit(page, path)));
    }
    findings.push(...(await onAPhone(page, ["/brands/tissot"])));
    // On a phone the filters fold into a drawer: audited open, with options ticked.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/products?brand=citizen&waterResistance=100");
    await waitForHydration(page);
    await page.getByText("Filter and sort (2 chosen)", { exact: true }).click();
    await expect(page.getByRole("group", { name: "Brand", exact: true })).toBeVisible();
    findings.push(...(await audit(page, "phone /products with its filters open")));
    expect(findings).toEqual([]);
  });

  test("reviews and brands: the review form (and refused), /admin/reviews with a photo, a watch's reviews, the brands' pages", async ({
    page,
    browser,
  }) => {
    const token = await adminToken(page.request);
    const brand = `Axe Reviewed ${Date.now()}`;
    const watch = await createProduct(page.request, token, {
      name: `Axe Review Watch ${Date.now()}`,
      imageUrl: "/images/placeholder-watch.svg",
      brand,
    });
    const buyer = await registerCustomer(page.request, "axe.reviewer");
    await setOrderStatus(page.request, token, await placeOrder(page.request, buyer, watch._id), "Delivered");
    await logIn(page, buyer);
    const findings: Finding[] = [];
    findings.push(...(await visitAndAudit(page, `/products/${watch._id}/review`)));
    await page.getByRole("button", { name: "Send Review" }).click();
    await expect(page.getByText("Title is required")).toBeVisible();
    findings.push(...(await audit(page, "/products/{id}/review refused")));
    const sent = await page.request.post(`/api/v1/products/${watch._id}/reviews`, {
      headers: { authorization: `Bearer ${buyer.token}` },
      multipart: {
        rating: "5",
        title: "Crisp dial",
        text: "Reads at a glance in the sun.",
        image: { name: "wrist.png", mimeType: "image/png", buffer: await plainImage(800, 600, "png") },
      },
    });
    expect(sent.status()).toBe(201);

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await logIn(admin, ADMIN);
    findings.push(...(await visitAndAudit(admin, "/admin/reviews")));
    const reviewId = ((await sent.json()) as { data: { _id: string } }).data._id;
    const published = await page.request.patch(`/api/v1/reviews/${reviewId}`, {
      headers: { authorization: `Bearer ${token}` },
      data: { status: "approved" },
    });
    expect(published.status()).toBe(200);
    findings.push(...(await visitAndAudit(page, `/products/${watch._id}`)));
    findings.push(...(await visitAndAudit(admin, "/admin/reviews?status=approved")));
    findings.push(...(await visitAndAudit(admin, "/admin/brands")));
    findings.push(...(await visitAndAudit(admin, `/admin/brands/${brand.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`)));
    await adminContext.close();
    expect(findings).toEqual([]);
  });

  test("the admin menu on a phone, opened", async ({ page }) => {
    await logIn(page, ADMIN);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/admin");
    await waitForHydration(page);
    await page.getByRole("navigation", { name: "Admin" }).getByText("Admin menu").click();
    expect(await audit(page, "/admin on a phone, its menu open")).toEqual([]);
  });
});
