import type { Page } from "@playwright/test";
import { confirmationLink, placedOrder } from "./confirmation-link";
import { DEAD_IMAGE_CONSOLE_ERROR, PLACEHOLDER_PATH, expectPlaceholderShown, productWithDeadImage } from "./dead-image";
import { expect, test } from "./fixtures";
import { holdScripts, waitForHydration } from "./held-scripts";
import {
  ADMIN,
  addToCart,
  adminToken,
  createProduct,
  deleteProduct,
  logIn,
  orderStatus,
  placeOrder,
  productsInStock,
  registerCustomer,
  setOrderStatus,
  shortId,
} from "./store-api";

/**
 * A slow phone: the page is used while its scripts are still on their way. Each journey holds
 * the scripts back, acts as a person would meanwhile, lets them through, and checks that what
 * the person did was kept and honoured (docs/decisions/2026-11-23-before-hydration.md). One
 * journey, at least, for every control that JavaScript enhances. JavaScript on only
 * (playwright.config.ts).
 */

/** Opens a page without waiting for its scripts (the load event would wait for them). */
async function open(page: Page, path: string) {
  await page.goto(path, { waitUntil: "domcontentloaded" });
}

const cartLine = (page: Page, name: string) => page.locator(".cart-line").filter({ hasText: name });

test.describe("before the scripts run", () => {
  test("product page: a quantity typed early is the one the stepper continues from and the cart gets", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.quantity");
    const [product] = await productsInStock(page.request, 6);
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, `/products/${product!._id}`);
    const quantity = page.getByRole("spinbutton", { name: "Quantity" });
    await quantity.fill("3");
    await scripts.release();

    await expect(quantity).toHaveValue("3");
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await expect(quantity).toHaveValue("4");
    await page.getByRole("button", { name: "Decrease quantity" }).click();
    await expect(quantity).toHaveValue("3");
    await page.getByRole("button", { name: `Add to Cart ${product!.name}` }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(cartLine(page, product!.name).locator("output")).toHaveText("3");
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart 3 items");
  });

  test("confirmation link: Cancel pressed early cancels the order, and the page says so after the scripts run", async ({
    page,
  }) => {
    const link = await confirmationLink(await placedOrder(page.request, "en"));

    const scripts = await holdScripts(page);
    await open(page, link);
    await page.getByRole("button", { name: "Cancel order" }).click();
    // A plain post: the answer is a new page, its scripts held in turn.
    await expect(page.getByText("Your order has been cancelled.")).toBeVisible();
    await scripts.release();
    await expect(page.getByText("Your order has been cancelled.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Confirm order" })).toHaveCount(0);
  });

  test("product page: Add to Cart pressed early posts the typed quantity", async ({ page }) => {
    const customer = await registerCustomer(page.request, "early.add");
    const [product] = await productsInStock(page.request, 3);
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, `/products/${product!._id}`);
    await page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
    await page.getByRole("button", { name: `Add to Cart ${product!.name}` }).click();
    // A plain post: the cart is a new page, its scripts held in turn.
    await expect(page).toHaveURL(/\/cart$/);
    await expect(cartLine(page, product!.name).locator("output")).toHaveText("2");
    await scripts.release();
    await expect(cartLine(page, product!.name).locator("output")).toHaveText("2");
  });

  test("catalogue: Add to Cart pressed early adds, and its message stays until after the scripts run", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.card");
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, "/products?sort=name");
    const card = page
      .locator(".product-card")
      .filter({ has: page.locator(".add-to-cart button:not([disabled])") })
      .first();
    const name = (await card.locator(".product-card__name").textContent())!;
    await card.getByRole("button", { name: `Add to Cart ${name}` }).click();
    const message = page.getByText(`${name} added to your cart`);
    await expect(message).toBeVisible();
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart 1 item");
    await scripts.release();
    // The fade starts with the scripts, so the message is still there, then goes.
    await expect(message).toBeVisible();
    await expect(message).toBeHidden({ timeout: 8_000 });
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart 1 item");
  });

  test("catalogue: a category chosen early stays chosen and is sent with the next sort", async ({ page }) => {
    const scripts = await holdScripts(page);
    await open(page, "/products");
    await page.getByLabel("Category").selectOption("Women");
    await page.getByLabel("Search watches").fill("watch");
    await scripts.release();

    await expect(page.getByLabel("Category")).toHaveValue("Women");
    await expect(page.getByLabel("Search watches")).toHaveValue("watch");
    // The Search button stays with JavaScript too: what the selects show is what it sends.
    await expect(page.getByRole("button", { name: "Search", exact: true })).toBeVisible();
    await page.getByLabel("Sort by").selectOption({ label: "Price Low to High" });
    await expect(page).toHaveURL(/category=Women/);
    await expect(page).toHaveURL(/sort=price/);
    await expect(page).toHaveURL(/search=watch/);
    await expect(page.getByRole("heading", { level: 1, name: "Women's Watches" })).toBeVisible();
  });

  test("catalogue: options ticked early stay ticked, and the next option applies them all", async ({ page }) => {
    const scripts = await holdScripts(page);
    await open(page, "/products");
    const brand = page.getByRole("group", { name: "Brand", exact: true });
    const movement = page.getByRole("group", { name: "Movement", exact: true });
    await brand.getByRole("checkbox", { name: /^Tissot/ }).check();
    await brand.getByRole("checkbox", { name: /^Citizen/ }).check();
    await page.getByLabel("To", { exact: true }).fill("500000");
    await scripts.release();

    await expect(brand.getByRole("checkbox", { name: /^Tissot/ })).toBeChecked();
    await expect(brand.getByRole("checkbox", { name: /^Citizen/ })).toBeChecked();
    await expect(page.getByLabel("To", { exact: true })).toHaveValue("500000");
    // With the scripts running, an option applies at once, with everything chosen before it.
    await movement.getByRole("checkbox", { name: /^Automatic/ }).check();
    await expect(page).toHaveURL(/brand=citizen&brand=tissot&movement=Automatic/);
    await expect(page).toHaveURL(/maxPrice=500000/);
    for (const name of await page.locator(".product-card__brand").allTextContents()) {
      expect(["Citizen", "Tissot"]).toContain(name);
    }
    await expect(brand.getByRole("checkbox", { name: /^Tissot/ })).toBeChecked();
    await expect(brand.getByRole("checkbox", { name: /^Citizen/ })).toBeChecked();
    await expect(movement.getByRole("checkbox", { name: /^Automatic/ })).toBeChecked();
  });

  test("catalogue: a page scrolled early stays where the person scrolled it", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    const scripts = await holdScripts(page);
    await open(page, "/products");
    await expect(page.locator(".product-card")).toHaveCount(12);
    await page.mouse.move(640, 300);
    await page.mouse.wheel(0, 900);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
    const scrolledTo = await page.evaluate(() => window.scrollY);
    await scripts.release();
    // Hydration does not scroll a page the server rendered back to its top.
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);
  });

  test("cart on a phone: a step and a removal begun early, finished after the scripts run", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const customer = await registerCustomer(page.request, "early.cart");
    const [first, second] = await productsInStock(page.request, 4);
    await addToCart(page.request, customer, first!._id, 1);
    await addToCart(page.request, customer, second!._id, 1);
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, "/cart");
    await cartLine(page, first!.name)
      .getByRole("button", { name: `Increase quantity of ${first!.name}` })
      .click();
    await expect(cartLine(page, first!.name).locator("output")).toHaveText("2");
    await cartLine(page, second!.name)
      .getByRole("link", { name: `Remove ${second!.name}` })
      .click();
    await expect(page.getByText("Are you sure you want to remove this item?")).toBeVisible();
    await scripts.release();

    await expect(page.getByText("Are you sure you want to remove this item?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, remove" }).click();
    await expect(page.locator(".cart-line")).toHaveCount(1);
    await cartLine(page, first!.name)
      .getByRole("button", { name: `Increase quantity of ${first!.name}` })
      .click();
    await expect(cartLine(page, first!.name).locator("output")).toHaveText("3");
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart 3 items");
  });

  test("cart: Clear Cart pressed early asks, and the answer given after the scripts run clears", async ({ page }) => {
    const customer = await registerCustomer(page.request, "early.clear");
    const [product] = await productsInStock(page.request, 1);
    await addToCart(page.request, customer, product!._id, 1);
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, "/cart");
    await page.getByRole("link", { name: "Clear Cart" }).click();
    await expect(page.getByText("Are you sure you want to clear your cart?")).toBeVisible();
    await scripts.release();
    await page.getByRole("button", { name: "Yes, clear cart" }).click();
    await expect(page.getByText("Your cart is empty")).toBeVisible();
    await expect(page.locator(".cart-link")).toHaveAccessibleName("Cart");
  });

  test("checkout: an address typed early is kept, and Place Order shows Processing... and places it", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.checkout");
    const [product] = await productsInStock(page.request, 1);
    await addToCart(page.request, customer, product!._id, 1);
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, "/checkout");
    await page.getByLabel("Street Address").fill("14 Gulberg Main Boulevard");
    await page.getByLabel("City").fill("Lahore");
    await page.getByLabel("State / Province").fill("Punjab");
    await page.getByLabel("ZIP / Postal Code").fill("54660");
    await page.getByLabel("Mobile Number").fill("0300-1234567");
    await scripts.release();

    await expect(page.getByLabel("Street Address")).toHaveValue("14 Gulberg Main Boulevard");
    await expect(page.getByLabel("City")).toHaveValue("Lahore");
    await expect(page.getByLabel("ZIP / Postal Code")).toHaveValue("54660");
    await expect(page.getByLabel("Mobile Number")).toHaveValue("0300-1234567");
    // The order's post waits until the pending state has been seen.
    let answerOrder = () => {};
    const orderMayGo = new Promise<void>((resolve) => (answerOrder = resolve));
    await page.route(
      (url) => url.pathname.startsWith("/checkout"),
      async (route) => {
        if (route.request().method() === "POST") await orderMayGo;
        await route.continue();
      },
    );
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("button", { name: "Processing..." })).toBeDisabled();
    answerOrder();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    await expect(page.locator(".order-delivery")).toContainText(
      "14 Gulberg Main Boulevard, Lahore, Punjab 54660, Pakistan",
    );
  });

  test("admin orders: a status chosen early in the list keeps its Update button and is saved", async ({ page }) => {
    const customer = await registerCustomer(page.request, "early.status");
    const [first, second] = await productsInStock(page.request, 3);
    const chosenOrder = await placeOrder(page.request, customer, first!._id);
    const otherOrder = await placeOrder(page.request, customer, second!._id);
    const token = await adminToken(page.request);
    await logIn(page, ADMIN);

    const scripts = await holdScripts(page);
    await open(page, "/admin/orders");
    const chosenRow = page.getByRole("row").filter({ hasText: shortId(chosenOrder) });
    const otherRow = page.getByRole("row").filter({ hasText: shortId(otherOrder) });
    await chosenRow.getByLabel(`Status of order #${shortId(chosenOrder)}`).selectOption("Delivered");
    // Every change to the chosen row's form from here on is recorded: its Update button must
    // never go, not even for one render.
    await page.evaluate((selectId) => {
      const form = document.getElementById(selectId)!.closest("form")!;
      const removed: string[] = [];
      (window as unknown as { removedButtons: string[] }).removedButtons = removed;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.removedNodes) removed.push(node.textContent ?? "");
        }
      }).observe(form, { childList: true, subtree: true });
    }, `status-row-${chosenOrder}`);
    await scripts.release();

    // Every other row gave its Update button up to the select; this one still needs it.
    await expect(otherRow.getByRole("button", { name: "Update" })).toHaveCount(0);
    await expect(chosenRow.getByLabel(`Status of order #${shortId(chosenOrder)}`)).toHaveValue("Delivered");
    await expect(chosenRow.getByRole("button", { name: "Update" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { removedButtons: string[] }).removedButtons)).toEqual([]);
    await chosenRow.getByRole("button", { name: "Update" }).click();
    await expect(page.getByText("Order status updated to Delivered")).toBeVisible();
    await expect(chosenRow.locator(".status--delivered")).toHaveText("Delivered");
    await expect(chosenRow.getByRole("button", { name: "Update" })).toHaveCount(0);
    expect(await orderStatus(page.request, token, chosenOrder)).toBe("Delivered");

    // And the enhanced select of another row submits on its own.
    await otherRow.getByLabel(`Status of order #${shortId(otherOrder)}`).selectOption("Cancelled");
    await expect(page.getByText("Order status updated to Cancelled")).toBeVisible();
    await expect(otherRow.locator(".status--cancelled")).toHaveText("Cancelled");
    expect(await orderStatus(page.request, token, otherOrder)).toBe("Cancelled");
  });

  test("admin orders: View pressed early opens the details page, where a status chosen early is saved", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.details");
    const [product] = await productsInStock(page.request, 2);
    const orderId = await placeOrder(page.request, customer, product!._id);
    const token = await adminToken(page.request);
    await logIn(page, ADMIN);

    const scripts = await holdScripts(page);
    await open(page, "/admin/orders");
    await page.getByRole("link", { name: `View order #${shortId(orderId)}` }).click();
    // Without the scripts the link is what it says: the details as a page of their own.
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
    await page.getByLabel(`Status of order #${shortId(orderId)}`).selectOption("Cancelled");
    await scripts.release();

    await expect(page.getByLabel(`Status of order #${shortId(orderId)}`)).toHaveValue("Cancelled");
    await page.getByRole("button", { name: "Update" }).click();
    await expect(page.getByText("Order status updated to Cancelled")).toBeVisible();
    await expect(page.locator(".order-details .status--cancelled")).toHaveText("Cancelled");
    expect(await orderStatus(page.request, token, orderId)).toBe("Cancelled");
  });

  test("admin orders: Shipped chosen early is honoured by the page that asks for courier and tracking", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.ship");
    const [product] = await productsInStock(page.request, 2);
    const orderId = await placeOrder(page.request, customer, product!._id);
    const token = await adminToken(page.request);
    await logIn(page, ADMIN);

    const scripts = await holdScripts(page);
    await open(page, `/admin/orders/${orderId}`);
    await page.getByLabel(`Status of order #${shortId(orderId)}`).selectOption("Shipped");
    await scripts.release();
    await expect(page.getByLabel(`Status of order #${shortId(orderId)}`)).toHaveValue("Shipped");
    await page.getByRole("button", { name: "Update" }).click();
    await expect(page.getByRole("heading", { name: `Ship order #${shortId(orderId)}` })).toBeVisible();

    // The ship page itself, used before its scripts run: what was chosen and typed is sent.
    scripts.holdAgain();
    await page.reload({ waitUntil: "domcontentloaded" });
    await page.getByLabel("Courier", { exact: true }).selectOption("Leopards");
    await page.getByLabel("Tracking Number").fill("LP-EARLY-42");
    await scripts.release();
    await expect(page.getByLabel("Courier", { exact: true })).toHaveValue("Leopards");
    await expect(page.getByLabel("Tracking Number")).toHaveValue("LP-EARLY-42");
    await page.getByRole("button", { name: "Mark as Shipped" }).click();
    // Not confirmed by phone: asked once more.
    await page.getByRole("button", { name: "Yes, ship it" }).click();
    await expect(page.getByText("Order status updated to Shipped")).toBeVisible();
    await expect(page.locator(".order-details")).toContainText("LP-EARLY-42");
    expect(await orderStatus(page.request, token, orderId)).toBe("Shipped");
  });

  test("returned to sender and order settings: a reason chosen and a rule typed early are sent", async ({ page }) => {
    const customer = await registerCustomer(page.request, "early.outcome");
    const [product] = await productsInStock(page.request, 2);
    const orderId = await placeOrder(page.request, customer, product!._id);
    const token = await adminToken(page.request);
    await setOrderStatus(page.request, token, orderId, "Shipped");
    await logIn(page, ADMIN);

    const scripts = await holdScripts(page);
    await open(page, `/admin/orders/${orderId}/outcome`);
    await page.getByLabel("Customer not reachable").check();
    await page.getByRole("button", { name: "Mark returned to sender" }).click();
    await scripts.release();
    await expect(page.getByText("The order is marked returned to sender and cancelled.")).toBeVisible();
    expect(await orderStatus(page.request, token, orderId)).toBe("Cancelled");

    scripts.holdAgain();
    await open(page, "/admin/settings/orders");
    await page.getByLabel("Open cash-on-delivery orders per phone").fill("7");
    await scripts.release();
    await expect(page.getByLabel("Open cash-on-delivery orders per phone")).toHaveValue("7");
    try {
      await page.getByRole("button", { name: "Save rules" }).click();
      await expect(page.getByText("Order rules saved")).toBeVisible();
      await expect(page.getByLabel("Open cash-on-delivery orders per phone")).toHaveValue("7");
    } finally {
      const off = await page.request.put("/api/v1/settings/orders", {
        headers: { authorization: `Bearer ${token}` },
        data: { openCodOrders: null },
      });
      expect(off.status()).toBe(200);
    }
  });

  test("an order's refund: a method chosen and a reference typed early are kept and recorded", async ({ page }) => {
    const token = await adminToken(page.request);
    const customer = await registerCustomer(page.request, "early.refund");
    const [product] = await productsInStock(page.request);
    const orderId = await placeOrder(page.request, customer, product!._id);
    await setOrderStatus(page.request, token, orderId, "Delivered");
    await setOrderStatus(page.request, token, orderId, "Cancelled");
    await logIn(page, ADMIN);

    const scripts = await holdScripts(page);
    await open(page, `/admin/orders/${orderId}`);
    const refund = page.getByRole("region", { name: "Refund" });
    await refund.getByLabel("Refunded by").selectOption("Bank transfer");
    await refund.getByLabel("Transaction reference (not for cash)").fill("IBFT-7781");
    await scripts.release();
    await expect(refund.getByLabel("Refunded by")).toHaveValue("Bank transfer");
    await expect(refund.getByLabel("Transaction reference (not for cash)")).toHaveValue("IBFT-7781");
    await refund.getByRole("button", { name: "Record the refund" }).click();
    await expect(page.getByText("Refund recorded.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Refund" })).toContainText("by Bank transfer, reference IBFT-7781");
  });

  test("admin orders: a change the store refuses leaves the select showing the order's real status", async ({
    page,
  }) => {
    // A watch with one unit: ordered, cancelled (the unit returns), ordered again by someone else.
    const token = await adminToken(page.request);
    const product = await createProduct(page.request, token, {
      name: `Last Unit ${Date.now()}`,
      imageUrl: "/images/placeholder-watch.svg",
      stock: 1,
    });
    const first = await registerCustomer(page.request, "refused.first");
    const second = await registerCustomer(page.request, "refused.second");
    const cancelledOrder = await placeOrder(page.request, first, product._id);
    await setOrderStatus(page.request, token, cancelledOrder, "Cancelled");
    await placeOrder(page.request, second, product._id);
    await logIn(page, ADMIN);

    await page.goto(`/admin/orders/${cancelledOrder}`);
    const select = page.getByLabel(`Status of order #${shortId(cancelledOrder)}`);
    await expect(page.getByRole("button", { name: "Update" })).toHaveCount(0);
    await select.selectOption("Pending");
    await expect(page.locator(".alert--error")).toBeVisible();
    await expect(select).toHaveValue("Cancelled");
    expect(await orderStatus(page.request, token, cancelledOrder)).toBe("Cancelled");
    await deleteProduct(page.request, token, product._id);
  });

  test("admin users: a role change confirmed early is made, and its message fades after the scripts run", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.role");
    await logIn(page, ADMIN);

    const scripts = await holdScripts(page);
    await open(page, `/admin/users/${customer.id}/role`);
    await expect(page.getByText("Are you sure you want to change this user's role to admin?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, change role" }).click();
    const done = page.getByText("User role updated successfully!");
    await expect(done).toBeVisible();
    await scripts.release();
    await expect(done).toBeVisible();
    await expect(done).toBeHidden({ timeout: 8_000 });
    await page.getByLabel("Search by name or email").fill(customer.email);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(
      page
        .getByRole("row", { name: new RegExp(customer.email.replace(/\./g, "\\.")) })
        .getByText("Admin", { exact: true }),
    ).toBeVisible();
  });

  test("contact: a message typed early is kept and sent, and the thank-you fades after the scripts run", async ({
    page,
  }) => {
    const scripts = await holdScripts(page);
    await open(page, "/contact");
    await page.getByLabel("Name", { exact: true }).fill("Rabia Hassan");
    await page.getByLabel("Email").fill("rabia@example.com");
    await page.getByLabel("Subject").fill("Gift wrapping");
    await page.getByLabel("Message", { exact: true }).fill("Do you wrap watches as gifts?");
    await scripts.release();

    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Do you wrap watches as gifts?");
    await page.getByRole("button", { name: "Send Message" }).click();
    const thanks = page.getByText("Thank you for your message! We'll get back to you soon.");
    await expect(thanks).toBeVisible();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
    await expect(thanks).toBeHidden({ timeout: 8_000 });
  });

  test("contact: a message sent early is thanked, and the thank-you stays until after the scripts run", async ({
    page,
  }) => {
    const scripts = await holdScripts(page);
    await open(page, "/contact");
    await page.getByLabel("Name", { exact: true }).fill("Usman Tariq");
    await page.getByLabel("Email").fill("usman@example.com");
    await page.getByLabel("Subject").fill("Battery change");
    await page.getByLabel("Message", { exact: true }).fill("Can you change the battery of a watch bought here?");
    await page.getByRole("button", { name: "Send Message" }).click();
    const thanks = page.getByText("Thank you for your message! We'll get back to you soon.");
    await expect(thanks).toBeVisible();
    await scripts.release();
    await expect(thanks).toBeVisible();
    await expect(thanks).toBeHidden({ timeout: 8_000 });
  });

  test("FAQ: an answer opened early stays open, and the next one opened closes it", async ({ page }) => {
    const scripts = await holdScripts(page);
    await open(page, "/faq");
    const returns = page.locator("details", { hasText: "What is your return policy?" });
    const delivery = page.locator("details", { hasText: "How long does delivery take?" });
    await returns.locator("summary").click();
    await expect(returns.getByText(/within 7 days of delivery/)).toBeVisible();
    await scripts.release();

    await expect(returns.getByText(/within 7 days of delivery/)).toBeVisible();
    await delivery.locator("summary").click();
    await expect(delivery.getByText(/3-5 business days to major cities/)).toBeVisible();
    await expect(returns).not.toHaveAttribute("open");
    await expect(page.locator("details[open]")).toHaveCount(1);
  });

  test("small screen: the menu opened early stays open, and closes when a link in it is followed", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const scripts = await holdScripts(page);
    await open(page, "/");
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await page.getByText("Menu", { exact: true }).click();
    await expect(mobileNav).toBeVisible();
    await scripts.release();

    await expect(mobileNav).toBeVisible();
    await mobileNav.getByRole("link", { name: "Products" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "All Watches" })).toBeVisible();
    // As a new page would show it without JavaScript: closed.
    await expect(mobileNav).toBeHidden();
  });

  test("log in and sign up: what was typed early is kept and sent", async ({ page }) => {
    const customer = await registerCustomer(page.request, "early.login");
    const scripts = await holdScripts(page);
    await open(page, "/login");
    await page.getByLabel("Email").fill(customer.email);
    await page.getByLabel("Password", { exact: true }).fill(customer.password);
    await scripts.release();
    await expect(page.getByLabel("Email")).toHaveValue(customer.email);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByRole("button", { name: "Logout" }).first()).toBeVisible();
    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();

    const email = `early.signup.${Date.now()}@example.com`;
    scripts.holdAgain();
    await open(page, "/signup");
    await page.getByLabel("Full Name").fill("Hira Saleem");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm Password").fill("password123");
    await scripts.release();
    await expect(page.getByLabel("Full Name")).toHaveValue("Hira Saleem");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/profile");
    await expect(page.getByText(email)).toBeVisible();
  });

  test("profile: changes typed early are kept, saved, and the saved message fades after the scripts run", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.profile");
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, "/profile/edit");
    await page.getByLabel("Phone (optional)").fill("+92 333 7654321");
    await page.getByLabel("City").fill("Multan");
    await scripts.release();

    await expect(page.getByLabel("City")).toHaveValue("Multan");
    await page.getByRole("button", { name: "Save Changes" }).click();
    const saved = page.getByText("Profile updated successfully!");
    await expect(saved).toBeVisible();
    await expect(page.getByText("+92 333 7654321")).toBeVisible();
    await expect(page.getByText(/Multan, Pakistan/)).toBeVisible();
    await expect(saved).toBeHidden({ timeout: 8_000 });
  });

  test("admin products: a new watch typed early is kept and created", async ({ page }) => {
    const name = `Early Automatic ${Date.now()}`;
    await logIn(page, ADMIN);

    const scripts = await holdScripts(page);
    await open(page, "/admin/products/new");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("Typed before the scripts ran.");
    await page.getByLabel("Price (Rs.)").fill("42000");
    await page.getByLabel("Stock").fill("2");
    await page.getByLabel("Category").selectOption("Women");
    await page.getByLabel("Image URL").fill("/images/placeholder-watch.svg");
    await scripts.release();

    await expect(page.getByLabel("Name")).toHaveValue(name);
    await expect(page.getByLabel("Category")).toHaveValue("Women");
    await page.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText("Product created successfully!")).toBeVisible();
    const token = await adminToken(page.request);
    const found = (await (await page.request.get(`/api/v1/products?search=${encodeURIComponent(name)}`)).json())
      .data as { _id: string; category: string; price: number }[];
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ category: "Women", price: 42000 });
    // Leave the catalogue as the other journeys expect it.
    expect(
      (
        await page.request.delete(`/api/v1/products/${found[0]!._id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status(),
    ).toBe(200);
  });
});

test.describe("before the scripts run: the store's mail", () => {
  test("forgot password: an email typed early is kept and sent, and the answer is shown", async ({ page }) => {
    const customer = await registerCustomer(page.request, "early.forgot");
    const scripts = await holdScripts(page);
    await open(page, "/forgot-password");
    await page.getByLabel("Email").fill(customer.email);
    await scripts.release();
    await expect(page.getByLabel("Email")).toHaveValue(customer.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText("If an account exists for that email, we have sent a link.")).toBeVisible();

    // Pressed before the scripts run: a plain post, with the same answer.
    scripts.holdAgain();
    await open(page, "/forgot-password");
    await page.getByLabel("Email").fill(customer.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText("If an account exists for that email, we have sent a link.")).toBeVisible();
    await scripts.release();
  });

  test("notify me: an address typed early on a sold-out watch is kept and sent", async ({ page }) => {
    const token = await adminToken(page.request);
    const product = await createProduct(page.request, token, {
      name: `Early Alert ${Date.now()}`,
      imageUrl: PLACEHOLDER_PATH,
      stock: 0,
    });
    const email = `early.alert.${Date.now()}@example.com`;
    const scripts = await holdScripts(page);
    await open(page, `/products/${product._id}`);
    await page.getByLabel("Email").fill(email);
    await scripts.release();
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await page.getByRole("button", { name: "Notify Me" }).click();
    await expect(page.getByText(`We will email ${email} when ${product.name} is back in stock.`)).toBeVisible();
    await deleteProduct(page.request, token, product._id);
  });

  test("my orders: Cancel order pressed early asks, and the answer given after the scripts run cancels", async ({
    page,
  }) => {
    const customer = await registerCustomer(page.request, "early.cancel");
    const [product] = await productsInStock(page.request, 2);
    const orderId = await placeOrder(page.request, customer, product!._id);
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, "/my-orders");
    await page.getByRole("link", { name: `Cancel order #${shortId(orderId)}` }).click();
    await expect(page).toHaveURL(new RegExp(`/my-orders/${orderId}/cancel$`));
    await scripts.release();
    await page.getByRole("button", { name: "Yes, cancel order" }).click();
    await expect(page).toHaveURL(new RegExp(`/my-orders/${orderId}$`));
    await expect(page.getByText(`Order #${shortId(orderId)} was cancelled.`)).toBeVisible();
    expect(await orderStatus(page.request, customer.token, orderId)).toBe("Cancelled");
  });
});

test.describe("before the scripts run: discount codes and returns", () => {
  /** A new customer (so FIRST10 is theirs to use) with a watch in the cart, signed in. */
  async function customerAtCheckout(page: Page, tag: string) {
    const customer = await registerCustomer(page.request, tag);
    const [product] = await productsInStock(page.request, 1);
    await addToCart(page.request, customer, product!._id, 1);
    await logIn(page, customer);
    return customer;
  }

  async function fillCheckout(page: Page) {
    await page.getByLabel("Street Address").fill("14 Gulberg Main Boulevard");
    await page.getByLabel("City").fill("Lahore");
    await page.getByLabel("State / Province").fill("Punjab");
    await page.getByLabel("ZIP / Postal Code").fill("54660");
    await page.getByLabel("Mobile Number").fill("0300-1234567");
  }

  async function expectCheckoutKept(page: Page, code: string) {
    await expect(page.getByLabel("Street Address")).toHaveValue("14 Gulberg Main Boulevard");
    await expect(page.getByLabel("City")).toHaveValue("Lahore");
    await expect(page.getByLabel("State / Province")).toHaveValue("Punjab");
    await expect(page.getByLabel("ZIP / Postal Code")).toHaveValue("54660");
    await expect(page.getByLabel("Mobile Number")).toHaveValue("0300-1234567");
    await expect(page.getByLabel("Discount code")).toHaveValue(code);
  }

  test("checkout: a code typed and applied early is kept and honoured, with every field", async ({ page }) => {
    await customerAtCheckout(page, "early.apply");
    const scripts = await holdScripts(page);
    await open(page, "/checkout");
    await fillCheckout(page);
    await page.getByLabel("Discount code").fill(" first10 ");
    // Pressed before the scripts run: a plain post, and the page comes back with the summary.
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator(".summary-totals")).toContainText("Discount (FIRST10)");
    await expectCheckoutKept(page, " first10 ");
    await scripts.release();

    await expect(page.locator(".summary-totals")).toContainText("Discount (FIRST10)");
    await expectCheckoutKept(page, " first10 ");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    await expect(page.getByText("Discount (FIRST10)")).toBeVisible();
  });

  test("checkout: a code typed early is applied in place once the scripts run, and nothing typed is lost", async ({
    page,
  }) => {
    await customerAtCheckout(page, "early.code");
    const scripts = await holdScripts(page);
    await open(page, "/checkout");
    await fillCheckout(page);
    await page.getByLabel("Discount code").fill("FIRST10");
    await scripts.release();

    await expectCheckoutKept(page, "FIRST10");
    // With the scripts running, Apply updates the summary in place: this mark survives.
    await page.evaluate(() => ((window as unknown as { applyMark: boolean }).applyMark = true));
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator(".summary-totals")).toContainText("Discount (FIRST10)");
    expect(await page.evaluate(() => (window as unknown as { applyMark?: boolean }).applyMark)).toBe(true);
    await expectCheckoutKept(page, "FIRST10");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    await expect(page.getByText("Discount (FIRST10)")).toBeVisible();
  });

  test("return form: watches, reason and note chosen early are kept and sent", async ({ page }) => {
    const customer = await registerCustomer(page.request, "early.return");
    const [product] = await productsInStock(page.request, 2);
    const orderId = await placeOrder(page.request, customer, product!._id);
    await setOrderStatus(page.request, await adminToken(page.request), orderId, "Delivered");
    await logIn(page, customer);

    const scripts = await holdScripts(page);
    await open(page, `/my-orders/${orderId}`);
    await page.getByRole("link", { name: `Request a return of order #${shortId(orderId)}` }).click();
    await expect(page).toHaveURL(new RegExp(`/my-orders/${orderId}/return$`));
    await page.getByLabel(/\(Rs\. [\d,.]+ each\)$/).selectOption("1");
    await page.getByLabel("Wrong item").check();
    await page.getByLabel("Note (optional)").fill("A different dial came.");
    await scripts.release();

    await expect(page.getByLabel("Wrong item")).toBeChecked();
    await expect(page.getByLabel("Note (optional)")).toHaveValue("A different dial came.");
    await page.getByRole("button", { name: "Request Return" }).click();
    await expect(page).toHaveURL(new RegExp(`/my-orders/${orderId}$`));
    await expect(page.getByText(`Return requested for order #${shortId(orderId)}`)).toBeVisible();
    await expect(page.locator(".order-returns")).toContainText("Reason: Wrong item (“A different dial came.”)");
  });
});

test.describe("before the scripts run: product images", () => {
  test.use({ allowConsoleErrors: [DEAD_IMAGE_CONSOLE_ERROR] });
  const product = productWithDeadImage();

  test("an image that failed before the scripts ran shows the placeholder, and is swapped for it after", async ({
    page,
    browser,
  }) => {
    const scripts = await holdScripts(page);
    for (const [path, image] of [
      [
        `/products?search=${encodeURIComponent(product.name)}`,
        page.locator(".product-card").filter({ hasText: product.name }).locator("img"),
      ],
      [`/products/${product.id}`, page.locator(".product-detail__image")],
    ] as const) {
      scripts.holdAgain();
      await open(page, path);
      // It failed while nothing listened for its error; the stylesheet shows the placeholder.
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 0))
        .toBe(true);
      await expectPlaceholderShown(browser, page.request, image);
      await scripts.release();
      await expect(image).toHaveAttribute("src", PLACEHOLDER_PATH);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await expectPlaceholderShown(browser, page.request, image);
    }
  });
});

test.describe("the first paint", () => {
  // The page comes first, its scripts after (app/components/page-scripts.tsx): on a slow link the
  // modules no longer share the line with the page's stylesheet before anything is shown.
  test("a browser without paint timing still asks for its scripts and hydrates", async ({ page }) => {
    await page.addInitScript(() => {
      Reflect.deleteProperty(window, "PerformanceObserver");
    });
    await page.goto("/products");
    await waitForHydration(page);
  });

  for (const path of ["/", "/products", "/cart"]) {
    test(`${path} paints before it asks for its scripts, and hydrates after`, async ({ page }) => {
      await page.goto(path);
      await waitForHydration(page);
      const timing = await page.evaluate(() => {
        const resources = performance.getEntriesByType("resource");
        const starts = (extension: string) =>
          resources
            .filter((entry) => new URL(entry.name).pathname.startsWith("/assets/") && entry.name.endsWith(extension))
            .map((entry) => entry.startTime);
        return {
          firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
          stylesheets: starts(".css"),
          scripts: starts(".js"),
        };
      });
      expect(timing.firstContentfulPaint, "the page painted").not.toBeNull();
      expect(timing.stylesheets.length, "the stylesheet was loaded").toBeGreaterThan(0);
      expect(timing.scripts.length, "the scripts were loaded").toBeGreaterThan(0);
      expect(Math.max(...timing.stylesheets)).toBeLessThan(timing.firstContentfulPaint!);
      expect(Math.min(...timing.scripts), "no script was asked for before the first paint").toBeGreaterThanOrEqual(
        timing.firstContentfulPaint!,
      );
    });
  }
});
