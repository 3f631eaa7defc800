import type { Knex } from "knex";
import { customerLockPart } from "../modules/accounts/checkout-customer";
import { CART_READ_AS_LOCKED, cartLockParts, type CheckoutLine } from "../modules/cart/cart-checkout";
import { earlierOrderExpression } from "../modules/orders/order-checkout";
import { ORDER_RULES_EXPRESSION, orderRulesFrom } from "../modules/confirmation/order-rules";
import { PHONE_INPUT_MAX } from "../modules/shared/phone.shared";
import { composeStatement, type StatementPart } from "../modules/shared/statement";
import type { MessageLanguage } from "../modules/orders/order-values.shared";

/**
 * Checkout's reads in one round trip, under their locks: the customer (key-share), then the
 * cart (for update), then the lines' products (for update, in id order), and the order an
 * Idempotency-Key already made. Each lock follows from the row before it (the cart is found
 * through the locked customer, the lines through the locked cart), so PostgreSQL cannot take
 * them in another order. `fresh` false: the cart changed while this waited (CART_READ_AS_LOCKED).
 */
export async function lockCheckout(
  trx: Knex.Transaction,
  request: { userId: string; idempotencyKey: string; phone: string | null },
) {
  const { userId, idempotencyKey, phone } = request;
  const earlier = earlierOrderExpression("customer", idempotencyKey);
  const { sql, bindings } = composeStatement(
    [customerLockPart(userId), ...phoneLockParts("customer", phone), ...cartLockParts("checkout_customer")],
    {
      sql: `SELECT customer.name AS "customerName", customer.email AS "customerEmail", customer.phone AS "customerPhone",
                 customer.language AS "customerLanguage", phone_lock.rules, phone_lock.phone AS "lockedPhone",
                 cart.id AS "cartId", ${CART_READ_AS_LOCKED} AS fresh, ${earlier.sql} AS "earlierOrderId",
                 lines.id, lines.name, lines.price, lines.image_url AS "imageUrl", lines.photo_id AS "photoId",
                 lines.images, lines.stock, lines.quantity
            FROM customer JOIN phone_lock ON true LEFT JOIN cart ON true LEFT JOIN lines ON cart.id IS NOT NULL
           ORDER BY lines.id`,
      bindings: earlier.bindings,
    },
  );
  const { rows } = await trx.raw<{ rows: CheckoutRow[] }>(sql, bindings);
  const first = rows[0];
  if (!first) {
    return {
      user: undefined,
      cart: undefined,
      fresh: true,
      earlierOrderId: null,
      lines: [],
      rules: null,
      lockedPhone: null,
    };
  }
  return {
    user: {
      name: first.customerName,
      email: first.customerEmail,
      phone: first.customerPhone,
      language: first.customerLanguage,
    },
    cart: first.cartId ? { id: first.cartId } : undefined,
    // No cart: nothing was read that could be stale.
    fresh: first.cartId === null || first.fresh === true,
    earlierOrderId: first.earlierOrderId,
    rules: orderRulesFrom(first.rules),
    lockedPhone: first.lockedPhone,
    lines: rows
      .filter((row) => row.id !== null)
      .map((row): CheckoutLine => ({
        id: row.id!,
        name: row.name!,
        price: row.price!,
        imageUrl: row.imageUrl!,
        photoId: row.photoId,
        images: row.images,
        stock: row.stock!,
        quantity: row.quantity!,
      })),
  };
}

type CheckoutRow = {
  rules: Record<string, unknown> | null;
  lockedPhone: string | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  customerLanguage: MessageLanguage | null;
  cartId: string | null;
  fresh: boolean | null;
  earlierOrderId: string | null;
  id: string | null;
  name: string | null;
  price: number | null;
  imageUrl: string | null;
  photoId: string | null;
  images: CheckoutLine["images"];
  stock: number | null;
  quantity: number | null;
};

/** The advisory lock on a phone's cash-on-delivery record: one checkout of a phone at a time. */
export const PHONE_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtextextended('cod-phone:' || :phone::text, 0))";

/**
 * The merchant's rules (`phone_lock.rules`, null when none is on) and, when one is, the lock on
 * the order's phone (`phone_lock.phone`: the order's number, else the profile's read as the
 * checkout reads it), taken after the customer's lock and before the cart's: `checkout_customer`
 * is the customer once the phone is locked, and the cart is found through it, so every checkout
 * takes customer, phone, cart and products in that order. The counts the rules judge are read by
 * the next statement, whose snapshot is taken after this lock was granted.
 */
function phoneLockParts(customer: string, phone: string | null): StatementPart[] {
  const compact = `regexp_replace(btrim(${customer}.phone), '[ -]', '', 'g')`;
  return [
    {
      name: "phone_lock",
      materialized: true,
      sql: `SELECT rules, key.phone,
                   CASE WHEN rules IS NOT NULL AND key.phone IS NOT NULL
                        THEN pg_advisory_xact_lock(hashtextextended('cod-phone:' || key.phone, 0))::text END AS locked
              FROM ${customer},
                   LATERAL (SELECT ${ORDER_RULES_EXPRESSION} AS rules) AS rules,
                   LATERAL (SELECT COALESCE(:orderPhone::text,
                                            CASE WHEN length(${customer}.phone) > ${PHONE_INPUT_MAX} THEN NULL
                                                 WHEN ${compact} ~ '^03[0-9]{9}$' THEN '+92' || substr(${compact}, 2)
                                                 WHEN ${compact} ~ '^\\+923[0-9]{9}$' THEN ${compact} END) AS phone) AS key`,
      bindings: { orderPhone: phone },
    },
    {
      name: "checkout_customer",
      materialized: true,
      sql: `SELECT ${customer}.id FROM ${customer} CROSS JOIN phone_lock`,
      bindings: {},
    },
  ];
}
