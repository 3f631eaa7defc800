import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { CartService } from "../modules/cart/cart.service";
import { DiscountCodeGuard } from "../modules/discounts/discounts.service";
import type { MailContext } from "../modules/mail/mail-layout";
import { ConflictError } from "../modules/shared/errors.shared";
import { RateLimiter } from "../modules/shared/rate-limiter";
import { courierProvidersChosen } from "../providers/couriers/courier-providers.shared";
import { MessageChannels } from "../providers/message-channels/message-channels";
import { paymentMethodsChosen } from "../providers/payment-methods/payment-methods.shared";
import { storeDetails } from "../settings/store-details";
import { CancellationFlow } from "./cancellation";
import { CheckoutFlow } from "./checkout";
import { OrderLifeFlow } from "./order-life";
import { FulfilmentFlow } from "./fulfilment";
import { ReturnsFlow } from "./returns";

/**
 * The flows after checkout on a real database: a status change, a cancellation and a return each
 * move the order (orders), its stock (catalog), a discount's use (discounts), the waiting stock
 * alerts and the customer's message, in one transaction.
 */
let database: TestDatabase;
/** The flows' clock: the database dates orders by its own, so the test moves from the real time. */
let now = new Date();
const clock = () => now;
const mail: MailContext = { store: storeDetails({}), publicUrl: "https://waqt.example" };
const messages = MessageChannels.chosenBy(["email"]);
const address = { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };
let checkout: CheckoutFlow;
let fulfilment: FulfilmentFlow;
let cancellation: CancellationFlow;
let returns: ReturnsFlow;
let cart: CartService;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  checkout = new CheckoutFlow(db, {
    mail,
    messages,
    paymentMethods: paymentMethodsChosen(["cash-on-delivery"]),
    codeGuard: new DiscountCodeGuard(new RateLimiter(db, false)),
    confirmation: { secret: "a secret for the confirmation links of these tests", channel: "file" },
    clock,
  });
  const life = new OrderLifeFlow({ mail, couriers: [] });
  fulfilment = new FulfilmentFlow(db, { mail, messages, couriers: courierProvidersChosen(["manual"]), life, clock });
  cancellation = new CancellationFlow(db, { mail, messages, life, clock });
  returns = new ReturnsFlow(db, { mail, messages, clock });
  cart = new CartService(db);
});

afterAll(async () => {
  await database.drop();
});

let made = 0;
/** A customer's order of `quantity` units of a new watch with `stock` units. */
async function orderOf(stock: number, quantity: number) {
  made += 1;
  const db = database.db;
  const [user] = await db("users")
    .insert({ name: `Customer ${made}`, email: `customer${made}@example.com`, passwordHash: "not a password" })
    .returning(["id", "email"]);
  const [product] = await db("products")
    .insert({
      name: `Fulfilment watch ${made}`,
      description: "A watch",
      price: 5000,
      category: "Women",
      imageUrl: "/images/placeholder-watch.svg",
      stock,
      brand: "",
    })
    .returning("id");
  await cart.addItem(user.id, { productId: product.id, quantity });
  const order = await checkout.placeOrder(user.id, { address, phone: "03001234567" });
  return { order, userId: user.id as string, email: user.email as string, productId: product.id as string };
}

const stockOf = async (productId: string) => (await database.db("products").where({ id: productId }).first()).stock;
/** The kinds of mail written to an address, in the order of their names. */
const mailsTo = async (email: string) =>
  (await database.db("outbox").where({ recipient: email })).map((row) => row.kind as string).sort();

describe("the fulfilment and cancellation flows", () => {
  it("ship with the courier and its number, then deliver, telling the customer each time", async () => {
    const { order, email } = await orderOf(5, 1);
    const shipped = await fulfilment.updateStatus(order._id, {
      status: "Shipped",
      courier: "TCS",
      trackingNumber: "TCS-1234",
    });
    expect(shipped).toMatchObject({ status: "Shipped", courier: "TCS", trackingNumber: "TCS-1234" });
    const delivered = await fulfilment.updateStatus(order._id, { status: "Delivered" });
    expect(delivered).toMatchObject({ courier: "TCS", deliveredAt: now.toISOString() });
    expect(await mailsTo(email)).toEqual(["order-delivered", "order-placed", "order-shipped"]);
  });

  it("an admin's cancel gives the stock back and mails the waiting alert of a watch that was sold out", async () => {
    const { order, productId, email } = await orderOf(1, 1);
    expect(await stockOf(productId)).toBe(0);
    await database.db("stock_alerts").insert({ productId, email: "waiting@example.com" });
    await fulfilment.updateStatus(order._id, { status: "Cancelled" });
    expect(await stockOf(productId)).toBe(1);
    expect(await mailsTo("waiting@example.com")).toEqual(["back-in-stock"]);
    expect((await database.db("stock_alerts").where({ productId }).first()).state).toBe("notified");
    expect(await mailsTo(email)).toEqual(["order-cancelled", "order-placed"]);
  });

  it("leaving Cancelled claims the stock again, or is refused with the reason when it is gone", async () => {
    const { order, productId } = await orderOf(1, 1);
    await fulfilment.updateStatus(order._id, { status: "Cancelled" });
    await fulfilment.updateStatus(order._id, { status: "Pending" });
    expect(await stockOf(productId)).toBe(0);
    await fulfilment.updateStatus(order._id, { status: "Cancelled" });
    await database.db("products").where({ id: productId }).update({ stock: 0 });
    const refusal = await fulfilment.updateStatus(order._id, { status: "Pending" }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect((refusal as Error).message).toBe(`Cannot restore this order: not enough stock for Fulfilment watch ${made}`);
    expect((await database.db("orders").where({ id: order._id }).first()).status).toBe("Cancelled");
  });

  it("the customer cancels within two hours, and not at two hours", async () => {
    const early = await orderOf(3, 2);
    const cancelled = await cancellation.cancelOwnOrder(early.userId, early.order._id);
    expect(cancelled.status).toBe("Cancelled");
    expect(await stockOf(early.productId)).toBe(3);
    expect(await mailsTo(early.email)).toEqual(["order-cancelled", "order-placed"]);
    expect(await mailsTo(mail.store.email)).toContain("order-cancelled-by-customer");

    now = new Date();
    const late = await orderOf(3, 1);
    now = new Date(Date.now() + 2 * 60 * 60 * 1000);
    await expect(cancellation.cancelOwnOrder(late.userId, late.order._id)).rejects.toThrow(
      "Orders can only be cancelled within 2 hours of ordering",
    );
    expect(await stockOf(late.productId)).toBe(2);
  });
});

describe("the returns flow", () => {
  it("puts a received return's units back once, mailing the waiting alerts, and tells the customer each step", async () => {
    const { order, userId, productId, email } = await orderOf(2, 2);
    await fulfilment.updateStatus(order._id, { status: "Delivered" });
    await database.db("stock_alerts").insert({ productId, email: "back@example.com" });
    const requested = await returns.requestReturn(userId, order._id, {
      items: [{ productId, quantity: 1 }],
      reason: "Changed my mind",
    });
    await returns.updateReturn(requested._id, { status: "Approved" });
    await returns.updateReturn(requested._id, { status: "Received", refund: { method: "Cash" } });
    expect(await stockOf(productId)).toBe(1);
    expect(await mailsTo("back@example.com")).toEqual(["back-in-stock"]);
    await expect(
      returns.updateReturn(requested._id, { status: "Received", refund: { method: "Cash" } }),
    ).rejects.toThrow(ConflictError);
    expect(await stockOf(productId)).toBe(1);
    expect(await mailsTo(email)).toEqual([
      "order-delivered",
      "order-placed",
      "return-approved",
      "return-refunded",
      "return-requested",
    ]);
  });
});
