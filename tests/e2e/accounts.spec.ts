import { expect, test } from "./fixtures";
import { ADMIN, logIn } from "./sign-in";
import type { Page } from "@playwright/test";

/** Logs out and waits until the page shows a guest's header (with JavaScript it is a fetch). */
async function logOut(page: Page) {
  await page.getByRole("button", { name: "Logout" }).first().click();
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
}

test.describe("accounts", () => {
  test("a shopper signs up, logs out, and logs in again landing where they were", async ({ page }, testInfo) => {
    const email = `sana.${testInfo.project.name}.${Date.now()}@example.com`;
    await page.goto("/signup");
    await page.getByLabel("Full Name").fill("Sana Tariq");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm Password").fill("password124");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByText("Passwords do not match")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);

    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm Password").fill("password123");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await logOut(page);

    // A guest asking for the profile is sent to log in, then back to the profile.
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile/);
    await logIn(page, email, "wrong-password");
    await expect(page.getByText("Incorrect email or password")).toBeVisible();
    await logIn(page, email, "password123");
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
    await expect(page.getByText("Sana Tariq")).toBeVisible();
  });

  test("a customer edits the profile and changes the password", async ({ page }, testInfo) => {
    const email = `omar.${testInfo.project.name}.${Date.now()}@example.com`;
    await page.goto("/signup");
    await page.getByLabel("Full Name").fill("Omar Farooq");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm Password").fill("password123");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/profile");
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await page.getByLabel("Phone (optional)").fill("+92 333 1234567");
    await page.getByLabel("City").fill("Karachi");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Profile updated successfully!")).toBeVisible();
    await expect(page.getByText("+92 333 1234567")).toBeVisible();
    await expect(page.getByText(/Karachi, Pakistan/)).toBeVisible();

    await page.getByRole("link", { name: "Change Password" }).click();
    await page.getByLabel("Current Password").fill("password123");
    await page.getByLabel("New Password", { exact: true }).fill("newpassword1");
    await page.getByLabel("Confirm New Password").fill("newpassword1");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(page.getByText("Password changed successfully!")).toBeVisible();

    await logOut(page);
    await page.goto("/login");
    await logIn(page, email, "newpassword1");
    await expect(page).toHaveURL(/\/$/);
  });

  test("an admin creates an admin, changes a role and deletes a user, confirming each", async ({ page }, testInfo) => {
    const tag = `${testInfo.project.name}.${Date.now()}`;
    // A customer to manage.
    await page.goto("/signup");
    await page.getByLabel("Full Name").fill(`Temp ${tag}`);
    await page.getByLabel("Email").fill(`temp.${tag}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm Password").fill("password123");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await logOut(page);

    await page.goto("/admin/users");
    await logIn(page, ADMIN.email, ADMIN.password);
    await expect(page.getByRole("heading", { name: "Manage Users" })).toBeVisible();

    await page.getByRole("link", { name: "Create Admin" }).click();
    // With JavaScript the link is a client-side navigation: wait for the form before typing
    // (the list's "Search by name or email" would otherwise take the keys).
    await expect(page.getByRole("heading", { name: "Create Admin" })).toBeVisible();
    await page.getByLabel("Name").fill("A");
    await page.getByLabel("Email").fill(`admin.${tag}@waqt.pk`);
    await page.getByLabel("Password").fill("adminpass9");
    await page.getByRole("button", { name: "Create Admin" }).click();
    await expect(page.getByText("Name must be at least 2 characters")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(`admin.${tag}@waqt.pk`);
    await page.getByLabel("Name").fill("Second Admin");
    await page.getByLabel("Password").fill("adminpass9");
    await page.getByRole("button", { name: "Create Admin" }).click();
    await expect(page.getByText("Admin user created successfully!")).toBeVisible();

    await page.getByLabel("Search by name or email").fill(`temp.${tag}`);
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByRole("row", { name: new RegExp(`temp\\.${tag.replace(".", "\\.")}`) });
    await row.getByRole("link", { name: "Make Admin" }).click();
    await expect(page.getByText("Are you sure you want to change this user's role to admin?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, change role" }).click();
    await expect(page.getByText("User role updated successfully!")).toBeVisible();

    await page.getByLabel("Search by name or email").fill(`temp.${tag}`);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(row.getByText("Admin", { exact: true })).toBeVisible();
    await row.getByRole("link", { name: "Delete" }).click();
    await expect(page.getByText(/This action cannot be undone/)).toBeVisible();
    await page.getByRole("button", { name: "Yes, delete user" }).click();
    await expect(page.getByText("User deleted successfully!")).toBeVisible();
    await expect(page.getByText(`temp.${tag}@example.com`)).toHaveCount(0);
  });
});
