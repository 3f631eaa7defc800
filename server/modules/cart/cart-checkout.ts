import type { Knex } from "knex";
import type { ProductImage } from "../shared/product-images.shared";
import type { StatementPart } from "../shared/statement";
import { CartItem } from "./cart.model";

/**
 * The cart's parts of checkout (server/flows/checkout.ts): its lines read and locked with their
 * products, then emptied with the order's writes.
 */

/**
 * The customer's cart (`cart`: `id`, and `version`, its row's xmin as the lock found it) and its
 * lines with their products (`lines`: `id`, `name`, `price`, `image_url`, `photo_id`, `images`,
 * `stock`, `quantity`), locked: the cart for update, then the products for update in id order,
 * so shoppers never deadlock. `customer` names the part whose `id` is the customer's, locked
 * before: each lock follows from the row before it, so PostgreSQL cannot take them in another
 * order.
 */
export function cartLockParts(customer: string): StatementPart[] {
  return [
    {
      name: "cart",
      materialized: true,
      sql: `SELECT id, xmin::text AS version FROM carts WHERE user_id = (SELECT id FROM ${customer}) FOR UPDATE`,
      bindings: {},
    },
    {
      name: "lines",
      materialized: true,
      sql: `SELECT p.id, p.name, p.price, p.image_url, p.photo_id, p.images, p.stock, line.quantity
              FROM cart_items AS line JOIN products AS p ON p.id = line.product_id
             WHERE line.cart_id = (SELECT id FROM cart)
             ORDER BY p.id
               FOR UPDATE OF p`,
      bindings: {},
    },
  ];
}

/**
 * Whether the cart read is the cart as locked. One statement reads with one snapshot, taken
 * before it waits for a lock: a cart changed by a transaction that committed meanwhile (a second
 * tab's checkout, a line added) would be read as it was. Every change to a cart also writes its
 * row (CartService's lockCart, a deleted product's note, checkout's `touched` below), so the
 * cart row's version as locked (xmin of the newest row) against the one the snapshot sees tells:
 * false means read again, in a new transaction, where the snapshot is taken after that commit.
 */
export const CART_READ_AS_LOCKED = "cart.version = (SELECT xmin::text FROM carts WHERE carts.id = cart.id)";

/** A line of the cart as checkout read it, with its product. */
export type CheckoutLine = {
  id: string;
  name: string;
  price: number;
  imageUrl: string;
  photoId: string | null;
  images: ProductImage[] | null;
  stock: number;
  quantity: number;
};

/**
 * The cart emptied (`emptied`) and its row written (`touched`), which tells a checkout of the same
 * cart that waited for it to read again (CART_READ_AS_LOCKED).
 */
export function cartEmptiedParts(cartId: string): StatementPart[] {
  return [
    { name: "emptied", sql: "DELETE FROM cart_items WHERE cart_id = :cartId", bindings: { cartId } },
    { name: "touched", sql: "UPDATE carts SET updated_at = now() WHERE id = :cartId", bindings: { cartId } },
  ];
}

/** The cart's lines at their products' prices now, without locks (checkout's Apply of a code). */
export async function cartPrices(db: Knex, userId: string): Promise<{ price: number; quantity: number }[]> {
  return (await CartItem.query(db)
    .joinRelated("cart")
    .join("products", "products.id", "cartItems.productId")
    .where("cart.userId", userId)
    .select("products.price", "cartItems.quantity")) as unknown as { price: number; quantity: number }[];
}
