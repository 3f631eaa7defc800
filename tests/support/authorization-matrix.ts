/**
 * What the authorization matrix's tests share (tests/integration/authorization-matrix*.test.ts):
 * the roles and the answers expected of them, the store they ask (a customer, another customer and
 * an admin, each signed in, and the things they own: `withMatrixStore()` registers the hooks that
 * set the bindings below), and how a row is asked and its answer checked (`testEveryRow`,
 * `expectMatrixAnswer`). The rows themselves are authorization-matrix-rows.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { databaseFingerprint } from "./db-fingerprint";
import { TestClient } from "./http-client";
import { insertProducts } from "./fixtures";
import { plainImage } from "./photos";
import { startTestServer, type TestServer } from "./test-server";

export type Role = "guest" | "customer" | "other" | "admin";
export const ROLES: Role[] = ["guest", "customer", "other", "admin"];

/**
 * What a request should get: a status, or a redirect. "login" is the guard's redirect to
 * /login?redirectTo=<the path asked for>; "home" is a redirect to /.
 */
type Answer = number | "login" | "home" | { redirect: string };

export type Fixtures = {
  productId: string;
  customerId: string;
  otherId: string;
  adminId: string;
  customerOrderId: string;
  /** FIRST10, which every store has. */
  discountId: string;
  /** A return the customer asked for, of another (delivered) order. */
  returnId: string;
  /** An out-of-stock product (stock alerts). */
  soldOutProductId: string;
  /** The file name of a variant of the product's photo (/photos/<file>). */
  photoFile: string;
  /** The file name of a variant of a pending review's photo (the customer's, of another watch). */
  reviewPhotoFile: string;
  /** A product or user made for one request, for the calls that delete. */
  victimProduct(): Promise<string>;
  victimUser(): Promise<string>;
  /** A fresh Pending order of the customer, for the calls that cancel. */
  victimOrder(): Promise<string>;
};

export type Row = {
  answers: Record<Role, Answer>;
  /** Values for the path's parameters, when the defaults by name (PAGE_PARAMS, API_PARAMS) do not fit. */
  params?: (fixtures: Fixtures) => Promise<Record<string, string>> | Record<string, string>;
  /** A form post or JSON body; empty unless said. */
  body?: Record<string, unknown>;
};

export const row = (
  guest: Answer,
  customer: Answer,
  other: Answer,
  admin: Answer,
  extra: Omit<Row, "answers"> = {},
): Row => ({
  answers: { guest, customer, other, admin },
  ...extra,
});
export const everyone = (answer: Answer, extra: Omit<Row, "answers"> = {}) =>
  row(answer, answer, answer, answer, extra);
/** Signed-in pages: a guest goes to log in and comes back. */
export const SIGNED_IN_PAGE = row("login", 200, 200, 200);
/** Admin pages: a guest goes to log in, a signed-in customer home. */
export const ADMIN_PAGE = row("login", "home", "home", 200);
/** Log-in and sign-up pages are for guests; a signed-in user goes home. */
export const GUEST_PAGE = row(200, "home", "home", "home");
export const victimProduct = async (fixtures: Fixtures) => ({ productId: await fixtures.victimProduct() });
export const victimUser = async (fixtures: Fixtures) => ({ userId: await fixtures.victimUser() });
export const victimOrder = async (fixtures: Fixtures) => ({ orderId: await fixtures.victimOrder() });

function concretePath(template: string, params: Record<string, string>): string {
  return template.replace(/:(\w+)|\*$/g, (match, name: string | undefined) => {
    const value = params[name ?? "*"];
    if (value === undefined) throw new Error(`No value for ${match} in ${template}: give the row params`);
    return name ? encodeURIComponent(value) : value;
  });
}

// ---- The people and their things ----

export let server: TestServer;
export let fixtures: Fixtures;
export const clients = {} as Record<Role, TestClient>;
export const credentials: Record<Exclude<Role, "guest">, { email: string; password: string; id?: string }> = {
  customer: { email: "customer@matrix.test", password: "customerpass1" },
  other: { email: "other@matrix.test", password: "otherpass1" },
  admin: { email: "admin@matrix.test", password: "adminpass1" },
};
/** Text only its owner (and an admin) may ever see: each user's email and street. */
const privateText: Record<Exclude<Role, "guest">, string[]> = {
  customer: ["customer@matrix.test", "Customer Private Lane"],
  other: ["other@matrix.test", "Other Private Lane"],
  admin: ["admin@matrix.test", "Admin Private Lane"],
};

export async function signedIn(role: Exclude<Role, "guest">) {
  const client = new TestClient(server.baseUrl);
  const response = await client.postForm("/login", {
    email: credentials[role].email,
    password: credentials[role].password,
  });
  expect(response.status).toBe(303);
  return client;
}

/** An order of one watch, placed by the customer, to the customer's private street. */
async function customerOrder(productId: string) {
  await server.services.cart.addItem(credentials.customer.id!, { productId, quantity: 1 });
  return server.services.checkout.placeOrder(credentials.customer.id!, {
    address: {
      street: "Customer Private Lane",
      city: "Lahore",
      state: "Punjab",
      zipCode: "54000",
      country: "Pakistan",
    },
  });
}

export function withMatrixStore() {
  beforeAll(async () => {
    server = await startTestServer();
    const db = server.database.db;
    for (const role of ["customer", "other", "admin"] as const) {
      const [user] = await db("users")
        .insert({
          name: `Matrix ${role}`,
          email: credentials[role].email,
          // A cheap bcrypt cost: many log-ins below (log-in accepts any cost).
          passwordHash: await hashPassword(credentials[role].password, 4),
          role: role === "admin" ? "admin" : "customer",
          street: privateText[role][1],
        })
        .returning("id");
      credentials[role].id = user.id;
    }
    const [productId, soldOutProductId] = await insertProducts(server, [
      { name: "Matrix Watch", stock: 50, brand: "Matrix Brand" },
      { name: "Matrix Sold Out", stock: 0 },
    ]);
    const withPhoto = await server.services.catalog.setProductPhoto(productId!, {
      bytes: await plainImage(200, 200),
      truncated: false,
    });
    const order = await customerOrder(productId!);
    // A screenshot for the customer's order, stored as the flow stores one: who may see it is
    // decided by who asks, not by the order's payment.
    const screenshotBytes = await plainImage(120, 240, "webp");
    await db("payment_screenshots").insert({
      orderId: order._id,
      image: screenshotBytes,
      width: 120,
      height: 240,
      thumbnail: screenshotBytes,
    });
    // A second order of the customer, delivered, with a return asked for.
    const delivered = await customerOrder(productId!);
    await server.services.fulfilment.updateStatus(delivered._id, { status: "Delivered" });
    const orderReturn = await server.services.returns.requestReturn(credentials.customer.id!, delivered._id, {
      items: [{ productId, quantity: 1 }],
      reason: "Other",
    });
    // A pending review with a photo, of a watch of its own delivered to the customer.
    const [reviewedProductId] = await insertProducts(server, [{ name: "Matrix Reviewed Watch", stock: 5 }]);
    const reviewedOrder = await customerOrder(reviewedProductId!);
    await server.services.fulfilment.updateStatus(reviewedOrder._id, { status: "Delivered" });
    const photo = { bytes: await plainImage(200, 200), truncated: false };
    const review = await server.services.reviews.submitReview(
      credentials.customer.id!,
      reviewedProductId!,
      async () => ({
        fields: { rating: 4, title: "Matrix review", text: "Keeps time." },
        photos: [photo],
      }),
    );
    const discount = await db("discount_codes").where({ code: "FIRST10" }).first("id");
    let victims = 0;
    fixtures = {
      productId: productId!,
      customerId: credentials.customer.id!,
      otherId: credentials.other.id!,
      adminId: credentials.admin.id!,
      customerOrderId: order._id,
      discountId: discount.id,
      returnId: orderReturn._id,
      soldOutProductId: soldOutProductId!,
      async victimOrder() {
        const victim = await customerOrder(productId!);
        return victim._id;
      },
      photoFile: withPhoto.images[0]!.url.split("/photos/")[1]!,
      reviewPhotoFile: review.photos[0]!.images[0]!.url.split("/photos/")[1]!,
      async victimProduct() {
        victims += 1;
        return (await insertProducts(server, [{ name: `Victim Watch ${victims}` }]))[0]!;
      },
      async victimUser() {
        victims += 1;
        const [user] = await db("users")
          .insert({ name: `Victim ${victims}`, email: `victim${victims}@matrix.test`, passwordHash: "x" })
          .returning("id");
        return user.id;
      },
    };
    clients.guest = new TestClient(server.baseUrl);
    clients.customer = await signedIn("customer");
    clients.other = await signedIn("other");
    clients.admin = await signedIn("admin");
  });
  afterAll(async () => {
    await server?.close();
  });
}

/** One row of the matrix as one role asks it: the request made concrete, and the answer it should get. */
export type MatrixCase = {
  role: Role;
  method: string;
  /** The path as the route table writes it, with its parameters. */
  template: string;
  path: string;
  answer: Answer;
  /** Who asks what, for the messages of failed checks. */
  context: string;
};

/**
 * The tests of a matrix: for each row a describe titled `rowTitle` ("%s" is the row's key,
 * "METHOD /template"), in it a test for each role, which `ask`s the row's case. The path's
 * parameters come from the row's own params, else the defaults by name (`defaultParams`: PAGE_PARAMS
 * or API_PARAMS of authorization-matrix-rows.ts).
 */
export function testEveryRow(
  matrix: Record<string, Row>,
  rowTitle: string,
  defaultParams: (fixtures: Fixtures) => Record<string, string>,
  ask: (request: MatrixCase, matrixRow: Row) => Promise<void>,
): void {
  describe("the authorization matrix", () => {
    describe.each(Object.entries(matrix))(rowTitle, (key, matrixRow) => {
      it.each(ROLES)("as %s", async (role) => {
        await ask(await matrixCase(key, matrixRow, role, defaultParams), matrixRow);
      });
    });
  });
}

async function matrixCase(
  key: string,
  matrixRow: Row,
  role: Role,
  defaultParams: (fixtures: Fixtures) => Record<string, string>,
): Promise<MatrixCase> {
  const [method, template] = key.split(" ") as [string, string];
  const params = { ...defaultParams(fixtures), ...(await matrixRow.params?.(fixtures)) };
  const path = concretePath(template, params);
  return { role, method, template, path, answer: matrixRow.answers[role], context: `${role} ${method} ${path}` };
}

/**
 * Sends the case's request and checks what every answer of the matrix must: the status or
 * redirect expected, no other user's private text, and a refused write leaves the database as it
 * was. Whatever the request needs that writes (a bearer token, a session) is made before this is
 * called, so that it is not taken for a change the request made. `alsoCheck` adds what one kind
 * of route promises beyond that (the API's OpenAPI document and error envelope).
 */
export async function expectMatrixAnswer(
  request: MatrixCase,
  send: () => Promise<Response>,
  alsoCheck?: (response: Response, text: string) => Promise<void>,
): Promise<void> {
  const { role, method, path, answer, context } = request;
  const before = method !== "GET" && isRefusal(answer) ? await databaseFingerprint(server) : null;
  const response = await send();
  expectAnswer(context, response, answer, path);
  const text = await response.text();
  await alsoCheck?.(response, text);
  expectNoLeak(context, role, text);
  if (before) expect(await databaseFingerprint(server), `${context} changed the database`).toEqual(before);
}

function expectAnswer(context: string, response: { status: number; headers: Headers }, answer: Answer, path: string) {
  const location = response.headers.get("location");
  if (typeof answer === "number") {
    expect(response.status, `${context}: status (location ${location})`).toBe(answer);
    return;
  }
  expect([302, 303], `${context}: a redirect, got ${response.status}`).toContain(response.status);
  const expected =
    answer === "login"
      ? `/login?redirectTo=${encodeURIComponent(path)}`
      : answer === "home"
        ? "/"
        : // ":orderId" in an expected redirect is the id the request was made with.
          answer.redirect.replace(":orderId", /[0-9a-f]{8}-[0-9a-f-]{27}/.exec(path)?.[0] ?? "");
  expect(location, `${context}: redirect target`).toBe(expected);
}

/** Changes nothing: refusals, and an empty form or body that is refused. */
const isRefusal = (answer: Answer) =>
  answer === "login" || answer === "home" || (typeof answer === "number" && answer >= 400);

function expectNoLeak(context: string, role: Role, text: string) {
  if (role === "admin") return;
  for (const owner of ["customer", "other", "admin"] as const) {
    if (owner === role) continue;
    for (const secret of privateText[owner])
      expect(text.includes(secret), `${context}: shows ${owner}'s "${secret}"`).toBe(false);
  }
}
