import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { simpleParser } from "mailparser";
import { expect, test } from "./fixtures";
import { ADMIN, logIn } from "./sign-in";
import { thisWorkersStore } from "./worker-store";

/**
 * Journeys through the store's mail, JavaScript off and on. The journeys' server has no SMTP_URL,
 * so each mail is an .eml file under its DATA_DIR (the worker's own store: tests/e2e/worker-store.ts):
 * read here as a mail program would.
 */
const OUTBOX_DIR = thisWorkersStore().outboxDir;
type Mail = { to: string; subject: string; text: string; html: string };

/** Waits for the mail to this address whose subject matches (the outbox sender polls every second). */
async function mailTo(address: string, subject: RegExp): Promise<Mail> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const files = fs.existsSync(OUTBOX_DIR) ? fs.readdirSync(OUTBOX_DIR).filter((file) => file.endsWith(".eml")) : [];
    for (const file of files) {
      const parsed = await simpleParser(fs.readFileSync(path.join(OUTBOX_DIR, file)));
      const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(", ") : (parsed.to?.text ?? "");
      if (to.includes(address) && subject.test(parsed.subject ?? "")) {
        return { to, subject: parsed.subject ?? "", text: parsed.text ?? "", html: String(parsed.html || "") };
      }
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${address} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function linkIn(text: string, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s/]+${pathPrefix.replace(/[?]/g, "\\?")}[^\\s<>"]*`).exec(text);
  if (!match) throw new Error(`No link to ${pathPrefix} in:\n${text}`);
  return match[0];
}

async function register(request: APIRequestContext, email: string, password = "password123") {
  const registered = await request.post("/api/v1/auth/register", { data: { name: "Hina Baig", email, password } });
  expect(registered.status()).toBe(201);
}

async function adminToken(request: APIRequestContext) {
  const response = await request.post("/api/v1/auth/login", { data: ADMIN });
  return (await response.json()).data.token as string;
}

async function stockOf(request: APIRequestContext, productId: string) {
  return (await (await request.get(`/api/v1/products/${productId}`)).json()).data.stock as number;
}

test.describe("the store's mail", () => {
  test("a customer who forgot the password gets a link by mail, resets it and is signed in; the old password is refused", async ({
    page,
  }, testInfo) => {
    const email = `hina.${testInfo.project.name}.${Date.now()}@example.com`;
    await register(page.request, email, "oldpassword1");

    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText("If an account exists for that email, we have sent a link.")).toBeVisible();

    const mail = await mailTo(email, /^Reset your Waqt password$/);
    const link = linkIn(mail.text, "/reset-password?token=");
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await page.getByLabel("New Password", { exact: true }).fill("newpassword1");
    await page.getByLabel("Confirm New Password").fill("newpassword2");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByText("Passwords do not match")).toBeVisible();
    await page.getByLabel("New Password", { exact: true }).fill("newpassword1");
    await page.getByLabel("Confirm New Password").fill("newpassword1");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();

    // The link is used up; the old password no longer signs in, the new one does.
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "This reset link is invalid or has expired" })).toBeVisible();
    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
    await page.goto("/login");
    await logIn(page, email, "oldpassword1");
    await expect(page.getByText("Incorrect email or password")).toBeVisible();
    await logIn(page, email, "newpassword1");
    await expect(page).toHaveURL(/\/$/);
    await mailTo(email, /password was changed/);
  });

  test("a shopper asks to be told when a sold-out watch is back; an admin restocks it; the mail arrives and can stop alerts", async ({
    page,
  }, testInfo) => {
    const token = await adminToken(page.request);
    const name = `Shalimar Automatic ${testInfo.project.name} ${Date.now()}`;
    const created = await page.request.post("/api/v1/products", {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name,
        description: "A sold-out automatic",
        price: 45000,
        category: "Men",
        imageUrl: "/images/placeholder-watch.svg",
        stock: 0,
        brand: "Waqt",
      },
    });
    expect(created.status()).toBe(201);
    const productId = (await created.json()).data._id as string;
    const email = `waiting.${testInfo.project.name}.${Date.now()}@example.com`;

    await page.goto(`/products/${productId}`);
    await expect(page.getByRole("heading", { name: "Notify me when it's back" })).toBeVisible();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Notify Me" }).click();
    await expect(page.getByText(`We will email ${email} when ${name} is back in stock.`)).toBeVisible();

    await page.goto("/login");
    await logIn(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`/admin/products/${productId}/edit`);
    await page.getByLabel("Stock").fill("4");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(/\/admin\/products/);

    const mail = await mailTo(email, new RegExp(`^${name} is back in stock$`));
    expect(linkIn(mail.text, "/products/")).toMatch(new RegExp(`/products/${productId}$`));
    const unsubscribe = linkIn(mail.text, "/unsubscribe?token=");
    await page.goto(unsubscribe);
    await expect(page.getByText(email)).toBeVisible();
    await page.getByRole("button", { name: "Stop Stock Alerts" }).click();
    await expect(page.getByText(`You will get no more stock alerts at ${email}.`)).toBeVisible();
  });

  test("a customer cancels a fresh order from My Orders; the stock returns and a mail confirms it", async ({
    page,
  }, testInfo) => {
    const token = await adminToken(page.request);
    const name = `Ravi Field ${testInfo.project.name} ${Date.now()}`;
    const created = await page.request.post("/api/v1/products", {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name,
        description: "A field watch",
        price: 9000,
        category: "Men",
        imageUrl: "/images/placeholder-watch.svg",
        stock: 3,
        brand: "Waqt",
      },
    });
    const productId = (await created.json()).data._id as string;
    const email = `cancel.${testInfo.project.name}.${Date.now()}@example.com`;
    await register(page.request, email);
    await page.goto("/login");
    await logIn(page, email, "password123");
    await expect(page).toHaveURL(/\/$/);

    await page.goto(`/products/${productId}`);
    await page
      .getByRole("button", { name: /Add .* to cart|Add to Cart/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.locator(".cart-line")).toHaveCount(1);
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await page.getByLabel("Street Address").fill("House 7, Street 3, F-8/2");
    await page.getByLabel("City").fill("Islamabad");
    await page.getByLabel("State / Province").fill("ICT");
    await page.getByLabel("ZIP / Postal Code").fill("44000");
    await page.getByLabel("Mobile Number").fill("0300-1234567");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page.getByRole("heading", { name: "Order Placed Successfully!" })).toBeVisible();
    expect(await stockOf(page.request, productId)).toBe(2);
    await mailTo(email, /is placed$/);

    await page.goto("/my-orders");
    await page
      .getByRole("link", { name: /^Cancel order/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/my-orders\/[0-9a-f-]+\/cancel$/);
    await expect(page.getByText(/Are you sure you want to cancel order #/)).toBeVisible();
    await page.getByRole("button", { name: "Yes, cancel order" }).click();
    await expect(page).toHaveURL(/\/my-orders\/[0-9a-f-]+$/);
    await expect(page.locator(".status--cancelled")).toBeVisible();
    await expect(page.getByRole("link", { name: /^Cancel order/ })).toHaveCount(0);
    expect(await stockOf(page.request, productId)).toBe(3);
    const mail = await mailTo(email, /was cancelled$/);
    expect(mail.text).toContain("You cancelled your order");
  });
});
