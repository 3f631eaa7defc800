import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The demo administrator the seeds make (README, "Run it"). */
export const ADMIN = { email: "admin@waqt.pk", password: "admin12345" };

/** Signs in through the log-in page, as a person does (the page must be the log-in page). */
export async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

/** A new customer signed in through the log-in page (registered through the API for speed). */
export async function newCustomer(page: Page, tag: string, name = "Bilal Ahmed") {
  const email = `${tag}.${Date.now()}@example.com`;
  const registered = await page.request.post("/api/v1/auth/register", {
    data: { name, email, password: "password123" },
  });
  expect(registered.status()).toBe(201);
  await page.goto("/login");
  await logIn(page, email, "password123");
  await expect(page).toHaveURL(/\/$/);
}
