import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { linkIn, mailTo } from "./outbox-files";
import { registerCustomer, logIn } from "./store-api";

/**
 * Changing the email, JavaScript off and on: the new address needs the current password and
 * waits for the link mailed to it (read from the .eml file the store wrote); the link's page
 * asks before it changes anything and works signed out; then the account logs in with the new
 * address only, and the old address is told.
 */
const LINK_SUBJECT = /^Confirm your new Waqt email$/;

/** Logs out and waits until the page shows a guest's header (with JavaScript it is a fetch). */
async function logOut(page: Page) {
  await page.getByRole("button", { name: "Logout" }).first().click();
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
}

async function askForNewEmail(page: Page, newEmail: string, password: string) {
  await page.goto("/profile");
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await expect(page.getByRole("heading", { name: "Edit Profile" })).toBeVisible();
  await page.getByLabel("Email").fill(newEmail);
  await page.getByLabel("Current Password").fill(password);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("heading", { name: "Email change waiting" })).toBeVisible();
}

test.describe("changing the email", () => {
  test("with the password, confirmed from the mail while signed out, then logging in with the new address", async ({
    page,
  }, testInfo) => {
    const customer = await registerCustomer(page.request, `change.${testInfo.project.name}`);
    const newEmail = `changed.${testInfo.project.name}.${Date.now()}@example.com`;
    await logIn(page, customer);

    // Without the password the page says so beside the field and keeps what was typed.
    await page.goto("/profile");
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await expect(page.getByRole("heading", { name: "Edit Profile" })).toBeVisible();
    await page.getByLabel("Email").fill(newEmail);
    await page.getByLabel("City").fill("Peshawar");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Enter your current password to change your email")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(newEmail);
    await expect(page.getByLabel("City")).toHaveValue("Peshawar");

    await page.getByLabel("Current Password").fill(customer.password);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(
      page.getByText(`We sent a link to ${newEmail}. Your email changes to it once you open the link.`),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Email change waiting" })).toBeVisible();
    await expect(page.getByText(/Peshawar, Pakistan/)).toBeVisible();
    // The account keeps its address until the link is used.
    await expect(page.getByRole("definition").filter({ hasText: customer.email })).toBeVisible();

    // Another device, signed out: the link's page asks first.
    await logOut(page);
    const mail = await mailTo(newEmail, LINK_SUBJECT);
    const link = linkIn(mail.text, "/confirm-email?token=");
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Confirm your new email" })).toBeVisible();
    await expect(page.getByText(newEmail)).toBeVisible();
    await page.getByRole("button", { name: "Confirm Email" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(`Your email is now ${newEmail}. Log in with it.`)).toBeVisible();

    // The old address no longer signs in; the new one does.
    await page.getByLabel("Email").fill(customer.email);
    await page.getByLabel("Password", { exact: true }).fill(customer.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByText("Incorrect email or password")).toBeVisible();
    await page.getByLabel("Email").fill(newEmail);
    await page.getByLabel("Password", { exact: true }).fill(customer.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/profile");
    await expect(page.getByRole("definition").filter({ hasText: newEmail })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Email change waiting" })).toHaveCount(0);

    // The old address was told; the link is used up.
    const notice = await mailTo(customer.email, /^Your Waqt email was changed$/);
    expect(notice.text).toContain(`to ${newEmail}`);
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "This confirmation link is invalid or has expired" })).toBeVisible();
  });

  test("confirmed in the browser that asked, it stays signed in; a cancelled change's link does nothing", async ({
    page,
  }, testInfo) => {
    const customer = await registerCustomer(page.request, `keep.${testInfo.project.name}`);
    await logIn(page, customer);

    // Asked, then cancelled from the profile: its link no longer works.
    const dropped = `dropped.${testInfo.project.name}.${Date.now()}@example.com`;
    await askForNewEmail(page, dropped, customer.password);
    await page.getByRole("button", { name: "Cancel Email Change" }).click();
    await expect(
      page.getByText(`Your email stays ${customer.email}: the change to ${dropped} was cancelled.`),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Email change waiting" })).toHaveCount(0);
    await page.goto(linkIn((await mailTo(dropped, LINK_SUBJECT)).text, "/confirm-email?token="));
    await expect(page.getByRole("heading", { name: "This confirmation link is invalid or has expired" })).toBeVisible();

    // Asked again and confirmed here: this browser stays signed in, on the profile.
    const kept = `kept.${testInfo.project.name}.${Date.now()}@example.com`;
    await askForNewEmail(page, kept, customer.password);
    await page.goto(linkIn((await mailTo(kept, LINK_SUBJECT)).text, "/confirm-email?token="));
    await page.getByRole("button", { name: "Confirm Email" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText(`Your email is now ${kept}.`)).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: kept })).toBeVisible();
  });
});
