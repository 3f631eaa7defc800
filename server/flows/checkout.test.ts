import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { CartService } from "../modules/cart/cart.service";
import { DiscountCodeGuard } from "../modules/discounts/discounts.service";
import type { MailContext } from "../modules/mail/mail-layout";
import { RateLimiter } from "../modules/shared/rate-limiter";
import { InvalidInputError, RuleViolationError, statusOf } from "../modules/shared/errors.shared";
import { withRules } from "../modules/shared/input-rules.shared";
import { storeDetails } from "../settings/store-details";
import { MessageChannels } from "../providers/message-channels/message-channels";
import { cashOnDelivery } from "../providers/payment-methods/cash-on-delivery.shared";
import { paymentMethodsChosen } from "../providers/payment-methods/payment-methods.shared";
import * as yup from "yup";
import { CheckoutFlow } from "./checkout";

/**
 * The checkout flow on a real database: each module writes its part of checkout's two statements
 * (docs/decisions/2026-11-25-flows.md), and the flow still costs one transaction of two
 * statements, as the bench's checkout was tuned to (docs/decisions/2026-11-20-checkout-locks.md).
 */
let database: TestDatabase;
let checkout: CheckoutFlow;
let cart: CartService;
const mail: MailContext = { store: storeDetails({}), publicUrl: "https://waqt.example" };
const address = { street: "1 Mall Road", city: "Lahore", state: "Punjab", zipCode: "54000", country: "Pakistan" };

beforeAll(async () => {
  database = await createTestDatabase();
  checkout = new CheckoutFlow(database.db, {
    mail,
    messages: MessageChannels.chosenBy(["email"]),
    paymentMethods: paymentMethodsChosen(["cash-on-delivery"]),
    codeGuard: new DiscountCodeGuard(new RateLimiter(database.db, false)),
    confirmation: { secret: "a secret for the confirmation links of these tests", channel: "file" },
  });
  cart = new CartService(database.db);
});

afterAll(async () => {
  await database.drop();
});

let shoppers = 0;
async function shopperWithCart(lines: { stock: number; quantity: number; price: number }[]) {
  shoppers += 1;
  const db = database.db;
  const [user] = await db("users")
    .insert({ name: `Shopper ${shoppers}`, email: `shopper${shoppers}@example.com`, passwordHash: "not a password" })
    .returning(["id", "email"]);
  const productIds: string[] = [];
  for (const [index, line] of lines.entries()) {
    const [product] = await db("products")
      .insert({
        name: `Flow watch ${shoppers}-${index}`,
        description: "A watch",
        price: line.price,
        category: "Men",
        imageUrl: "/images/placeholder-watch.svg",
        stock: line.stock,
        brand: "",
      })
      .returning("id");
    productIds.push(product.id);
    await cart.addItem(user.id, { productId: product.id, quantity: line.quantity });
  }
  return { userId: user.id as string, email: user.email as string, productIds };
}

/** The database round trips `work` makes (BEGIN and COMMIT included), as the bench counts them. */
async function roundTrips<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  let queries = 0;
  const count = () => (queries += 1);
  database.db.on("query", count);
  try {
    return { result: await work(), queries };
  } finally {
    database.db.off("query", count);
  }
}

describe("the checkout flow", () => {
  it("places the order in one transaction of two statements: stock, order, items, cart, profile and mails", async () => {
    const shopper = await shopperWithCart([
      { stock: 5, quantity: 2, price: 25000 },
      { stock: 3, quantity: 1, price: 1999.99 },
    ]);
    const { result: order, queries } = await roundTrips(() =>
      checkout.placeOrder(shopper.userId, { address, phone: "0300-1234567", idempotencyKey: "first" }),
    );
    // BEGIN, the locking read, the one write, COMMIT.
    expect(queries).toBe(4);
    expect(order).toMatchObject({
      status: "Pending",
      paymentMethod: cashOnDelivery.name,
      phone: "+923001234567",
      totalPrice: 51999.99,
    });
    // The lines come in the order their products were locked (by id), not the cart's.
    expect(order.items.map((item) => item.quantity).sort()).toEqual([1, 2]);
    const db = database.db;
    expect(await db("orders").where({ id: order._id }).first()).toMatchObject({
      paymentMethod: "Cash on Delivery",
      idempotencyKey: "first",
    });
    expect((await db("products").whereIn("id", shopper.productIds).orderBy("stock")).map((row) => row.stock)).toEqual([
      2, 3,
    ]);
    expect(
      await db("cart_items").join("carts", "carts.id", "cart_items.cart_id").where("carts.user_id", shopper.userId),
    ).toEqual([]);
    expect((await db("users").where({ id: shopper.userId }).first()).phone).toBe("0300-1234567");
    const mails = await db("outbox").whereIn("recipient", [shopper.email, mail.store.email]).orderBy("kind");
    expect(mails.map((row) => [row.kind, row.recipient])).toEqual([
      ["new-order", mail.store.email],
      ["order-placed", shopper.email],
    ]);
  });

  it("with cash-on-delivery rules on, judges the order under the phone's lock in as many round trips as without", async () => {
    const db = database.db;
    await db("order_rules").update({ blockAfterReturns: 2, firstTimeCodLimit: 50000, openCodOrders: 2 });
    try {
      const shopper = await shopperWithCart([{ stock: 5, quantity: 1, price: 50000 }]);
      const { result: order, queries } = await roundTrips(() =>
        checkout.placeOrder(shopper.userId, { address, phone: "0300-7654321" }),
      );
      // BEGIN, the locking read (with the rules and the phone's lock), the one write (which reads
      // the phone's record, after that lock), COMMIT.
      expect(queries).toBe(4);
      expect(order.totalPrice).toBe(50000);
      const over = await shopperWithCart([{ stock: 5, quantity: 1, price: 50000.01 }]);
      const refusal = await checkout
        .placeOrder(over.userId, { address, phone: "0300-7654322" })
        .catch((error: unknown) => error);
      expect(statusOf(refusal)).toBe(409);
      expect(refusal).toMatchObject({ code: "COD_LIMIT" });
      expect(await db("cod_refusals").where({ phone: "+923007654322" })).toHaveLength(1);
      // The write that read the refused order's facts is rolled back: no order, no mail or text,
      // the cart and the stock as they were.
      expect((await db("products").where({ id: over.productIds[0] }).first()).stock).toBe(5);
      expect(await db("orders").where({ userId: over.userId })).toEqual([]);
      expect(await db("outbox").where({ recipient: over.email })).toEqual([]);
      expect(await db("order_messages").where({ phone: "+923007654322" })).toEqual([]);
      expect(
        await db("cart_items").join("carts", "carts.id", "cart_items.cart_id").where("carts.user_id", over.userId),
      ).toHaveLength(1);
    } finally {
      await db("order_rules").update({ blockAfterReturns: null, firstTimeCodLimit: null, openCodOrders: null });
    }
  });

  it("places an order over its number's confirmation requests of the day without its text, in as many round trips", async () => {
    const db = database.db;
    for (let index = 0; index < 3; index += 1) {
      const shopper = await shopperWithCart([{ stock: 5, quantity: 1, price: 1000 }]);
      const order = await checkout.placeOrder(shopper.userId, { address, phone: "0300-5550001" });
      expect(order.confirmation.textLimited).toBe(false);
    }
    const shopper = await shopperWithCart([{ stock: 5, quantity: 1, price: 1000 }]);
    const { result: order, queries } = await roundTrips(() =>
      checkout.placeOrder(shopper.userId, { address, phone: "0300-5550001" }),
    );
    // BEGIN, the locking read (with the phone's lock), the write (which counts the number's
    // requests, after that lock), COMMIT.
    expect(queries).toBe(4);
    expect(order.confirmation.textLimited).toBe(true);
    expect(await db("order_messages").where({ orderId: order._id })).toEqual([]);
    expect((await db("orders").where({ id: order._id }).first()).confirmationTextLimited).toBe(true);
  });

  it("answers the first order to a second submit with the same key, and places nothing more", async () => {
    const shopper = await shopperWithCart([{ stock: 5, quantity: 1, price: 1000 }]);
    const first = await checkout.placeOrder(shopper.userId, { address, idempotencyKey: "same" });
    await cart.addItem(shopper.userId, { productId: shopper.productIds[0]!, quantity: 1 });
    const again = await checkout.placeOrder(shopper.userId, { address, idempotencyKey: "same" });
    expect(again._id).toBe(first._id);
    expect(await database.db("orders").where({ userId: shopper.userId })).toHaveLength(1);
  });

  it("answers a shopper whose account was deleted meanwhile as signed out (401), not with a missing user (404)", async () => {
    const shopper = await shopperWithCart([{ stock: 5, quantity: 1, price: 1000 }]);
    await database.db("users").where({ id: shopper.userId }).delete();
    const refusal = await checkout.placeOrder(shopper.userId, { address }).catch((error: unknown) => error);
    expect(statusOf(refusal)).toBe(401);
    expect((refusal as Error).message).toBe("Not authorized, please log in");
    expect((await database.db("products").where({ id: shopper.productIds[0] }).first()).stock).toBe(5);
  });

  it("refuses an empty cart, and a cart short of stock, changing nothing", async () => {
    const empty = await shopperWithCart([]);
    await expect(checkout.placeOrder(empty.userId, { address })).rejects.toThrow(RuleViolationError);
    const short = await shopperWithCart([{ stock: 2, quantity: 2, price: 1000 }]);
    await database.db("products").where({ id: short.productIds[0] }).update({ stock: 1 });
    await expect(checkout.placeOrder(short.userId, { address })).rejects.toThrow(/Not enough stock available/);
    expect((await database.db("products").where({ id: short.productIds[0] }).first()).stock).toBe(1);
    expect(await database.db("orders").where({ userId: short.userId })).toEqual([]);
  });

  it("checks a page's own rules with its input, every problem at once, placing nothing", async () => {
    const shopper = await shopperWithCart([{ stock: 5, quantity: 1, price: 1000 }]);
    const phoneRequired = yup.object({ phone: yup.string().trim().required("Enter your mobile number") });
    const refusal = await checkout
      .placeOrder(shopper.userId, withRules({ address: { ...address, city: "" }, phone: "" }, phoneRequired))
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect((refusal as InvalidInputError).errors).toEqual([
      { field: "phone", message: "Enter your mobile number" },
      { field: "address.city", message: "City is required" },
    ]);
    expect(await database.db("orders").where({ userId: shopper.userId })).toEqual([]);
  });
});
