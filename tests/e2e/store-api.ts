import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The demo administrator of the e2e store (seeds/). */
export const ADMIN = { email: "admin@waqt.pk", password: "admin12345" };

export const ADDRESS = {
  street: "5 Jail Road",
  city: "Lahore",
  state: "Punjab",
  zipCode: "54000",
  country: "Pakistan",
};

export type Account = { id: string; email: string; password: string; token: string };

type ApiProduct = { _id: string; name: string; stock: number; price: number };

async function dataOf<T>(response: APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()).data as T;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A new customer, registered through the API (faster than the sign-up page, which has its own journey). */
export async function registerCustomer(request: APIRequestContext, tag: string): Promise<Account> {
  const email = `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = "password123";
  const registered = await dataOf<{ user: { _id: string }; token: string }>(
    await request.post("/api/v1/auth/register", { data: { name: "Zainab Malik", email, password } }),
    201,
  );
  return { id: registered.user._id, email, password, token: registered.token };
}

export async function adminToken(request: APIRequestContext): Promise<string> {
  const signedIn = await dataOf<{ token: string }>(await request.post("/api/v1/auth/login", { data: ADMIN }), 200);
  return signedIn.token;
}

/** In-stock watches of the catalogue, with at least `minStock` units. */
export async function productsInStock(request: APIRequestContext, minStock = 1): Promise<ApiProduct[]> {
  const products = await dataOf<ApiProduct[]>(await request.get("/api/v1/products?limit=50&sort=name"), 200);
  return products.filter((product) => product.stock >= minStock);
}

export async function createProduct(
  request: APIRequestContext,
  token: string,
  fields: Partial<ApiProduct> & { imageUrl: string; name: string; brand?: string },
) {
  return dataOf<ApiProduct>(
    await request.post("/api/v1/products", {
      headers: bearer(token),
      data: {
        description: "A watch made by the end-to-end tests.",
        price: 15000,
        stock: 5,
        category: "Men",
        brand: "Waqt Test",
        ...fields,
      },
    }),
    201,
  );
}

export async function deleteProduct(request: APIRequestContext, token: string, productId: string) {
  const response = await request.delete(`/api/v1/products/${productId}`, { headers: bearer(token) });
  expect(response.status()).toBe(200);
}

export async function addToCart(request: APIRequestContext, account: Account, productId: string, quantity = 1) {
  await dataOf(
    await request.post("/api/v1/cart", { headers: bearer(account.token), data: { productId, quantity } }),
    200,
  );
}

/** Places an order of one unit of the product for the customer and returns its id. */
export async function placeOrder(request: APIRequestContext, account: Account, productId: string): Promise<string> {
  await addToCart(request, account, productId);
  const order = await dataOf<{ _id: string }>(
    await request.post("/api/v1/orders", { headers: bearer(account.token), data: { address: ADDRESS } }),
    201,
  );
  return order._id;
}

export async function orderStatus(request: APIRequestContext, token: string, orderId: string): Promise<string> {
  return (
    await dataOf<{ status: string }>(await request.get(`/api/v1/orders/${orderId}`, { headers: bearer(token) }), 200)
  ).status;
}

export async function setOrderStatus(request: APIRequestContext, token: string, orderId: string, status: string) {
  await dataOf(
    await request.patch(`/api/v1/orders/${orderId}/status`, { headers: bearer(token), data: { status } }),
    200,
  );
}

/** The customer asks to return one of a product of their delivered order; answers the return's id. */
export async function requestReturn(
  request: APIRequestContext,
  account: Account,
  orderId: string,
  productId: string,
): Promise<string> {
  const created = await dataOf<{ _id: string }>(
    await request.post(`/api/v1/orders/${orderId}/returns`, {
      headers: bearer(account.token),
      data: { items: [{ productId, quantity: 1 }], reason: "Changed my mind", note: "Not my style." },
    }),
    201,
  );
  return created._id;
}

/** A new active percent code for any order (not first-order-only), made by the admin; answers the code and its id. */
export async function createDiscountCode(
  request: APIRequestContext,
  token: string,
  percent = 5,
): Promise<{ _id: string; code: string }> {
  const code = `AXE${String(Date.now()).slice(-7)}${Math.floor(Math.random() * 1000)}`;
  return dataOf<{ _id: string; code: string }>(
    await request.post("/api/v1/discounts", {
      headers: bearer(token),
      data: { code, type: "percent", value: percent, firstOrderOnly: false },
    }),
    201,
  );
}

/** Signs in through the log-in page and waits for the signed-in header. */
export async function logIn(page: Page, account: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Log In" }).click();
  // The Logout form is in the header (in the folded menu on a phone, out of sight but there).
  await expect(page.locator('form[action="/logout"]').first()).toBeAttached();
}

export const shortId = (id: string) => id.slice(-8).toUpperCase();
