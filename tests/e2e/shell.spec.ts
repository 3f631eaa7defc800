import { expect, test } from "./fixtures";

test.describe("the store's shell", () => {
  test("home page shows the store, its collections and new arrivals", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Waqt/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Timeless watches, delivered to your door");
    await expect(page.getByRole("link", { name: /Men's Collection/ })).toHaveAttribute(
      "href",
      "/products?category=Men",
    );
    await expect(page.getByRole("heading", { name: "New arrivals" })).toBeVisible();
    await expect(page.locator(".product-card").first()).toContainText(/Rs\. [\d,]+/);
    const footer = page.locator("footer");
    await expect(footer.getByRole("heading", { name: "Quick Links" })).toBeVisible();
    await expect(footer.getByRole("heading", { name: "Customer Service" })).toBeVisible();
  });

  test("an unknown address shows the 404 page, and Go Home leads home", async ({ page }) => {
    const response = await page.goto("/no-such-watch");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Timeless watches, delivered to your door");
  });

  test("on a small screen the menu folds and opens with a tap", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(mobileNav).toBeVisible();
    await expect(mobileNav.getByRole("link", { name: "FAQ" })).toBeVisible();
  });
});

/**
 * Every page opened directly, as a document: without JavaScript it must render whole; with it,
 * it must also hydrate without a mismatch (the console guard fails the test on React's
 * hydration errors). Journeys mostly reach pages by client-side navigation, which never
 * hydrates, so each page is opened directly here.
 */
test.describe("every page opened directly", () => {
  test("a customer's and an admin's pages render, and hydrate cleanly with JavaScript", async ({
    page,
    javaScriptEnabled,
  }, testInfo) => {
    const email = `hydrate.${testInfo.project.name}.${Date.now()}@example.com`;
    const register = await page.request.post("/api/v1/auth/register", {
      data: { name: "Hina Hydrate", email, password: "password123" },
    });
    const token = (await register.json()).data.token as string;
    const products = (await (await page.request.get("/api/v1/products?limit=1")).json()).data as { _id: string }[];
    const productId = products[0]!._id;
    const auth = { authorization: `Bearer ${token}` };
    await page.request.post("/api/v1/cart", { headers: auth, data: { productId, quantity: 1 } });
    const address = { street: "5 Jail Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
    const order = (await (await page.request.post("/api/v1/orders", { headers: auth, data: { address } })).json())
      .data as { _id: string };
    // Delivered, with a return asked for: the return pages have something to show.
    const adminToken = (
      await (
        await page.request.post("/api/v1/auth/login", { data: { email: "admin@waqt.pk", password: "admin12345" } })
      ).json()
    ).data.token as string;
    const adminAuth = { authorization: `Bearer ${adminToken}` };
    await page.request.patch(`/api/v1/orders/${order._id}/status`, {
      headers: adminAuth,
      data: { status: "Delivered" },
    });
    const orderReturn = (
      await (
        await page.request.post(`/api/v1/orders/${order._id}/returns`, {
          headers: auth,
          data: { items: [{ productId, quantity: 1 }], reason: "Other" },
        })
      ).json()
    ).data as { _id: string };
    const discounts = (await (await page.request.get("/api/v1/discounts", { headers: adminAuth })).json()).data as {
      _id: string;
      code: string;
    }[];
    const first10 = discounts.find((discount) => discount.code === "FIRST10")!;
    await page.request.post("/api/v1/cart", { headers: auth, data: { productId, quantity: 1 } });

    const visit = async (path: string, heading: RegExp) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      if (!javaScriptEnabled) return;
      // Hydration has finished once React Router has taken over the page.
      await page.waitForFunction(
        () => (window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules !== undefined,
      );
      await page.waitForLoadState("networkidle");
    };

    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByRole("button", { name: "Logout" }).first()).toBeAttached();
    for (const [path, heading] of [
      ["/", /Timeless watches/],
      ["/products", /Watches|Products|Collection/],
      [`/products/${productId}`, /.+/],
      ["/about", /About/],
      ["/faq", /Frequently Asked Questions/],
      ["/contact", /Contact Us/],
      ["/cart", /Cart/],
      ["/checkout", /Checkout/],
      [`/order-success/${order._id}`, /Order Placed Successfully!/],
      ["/my-orders", /My Orders/],
      [`/my-orders/${order._id}/return`, /Return from order/],
      ["/profile", /Profile/],
      ["/profile/edit", /Edit Profile/],
      ["/profile/password", /Change Password/],
    ] as const) {
      await visit(path, heading);
    }

    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
    await page.goto("/login");
    await page.getByLabel("Email").fill("admin@waqt.pk");
    await page.getByLabel("Password", { exact: true }).fill("admin12345");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByRole("button", { name: "Logout" }).first()).toBeAttached();
    for (const [path, heading] of [
      ["/admin", /Admin Dashboard/],
      ["/admin/products", /Products/],
      ["/admin/products/new", /Add Product/],
      [`/admin/products/${productId}/edit`, /Edit/],
      ["/admin/orders", /Orders/],
      [`/admin/orders/${order._id}`, /Order/],
      ["/admin/users", /Manage Users/],
      ["/admin/users/new", /Create Admin/],
      ["/admin/messages", /Messages/],
      ["/admin/discounts", /Discount Codes/],
      ["/admin/discounts/new", /New Discount Code/],
      [`/admin/discounts/${first10._id}/edit`, /Edit FIRST10/],
      ["/admin/returns", /Returns/],
      [`/admin/returns/${orderReturn._id}`, /Return of order/],
    ] as const) {
      await visit(path, heading);
    }
  });
});
