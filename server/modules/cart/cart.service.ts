import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { CallerAccountGoneError, ConflictError, NotFoundError } from "../shared/errors.shared";
import { validateInput } from "../shared/validation";
import { User } from "../accounts/user.model";
import { Product } from "../catalog/product.model";
import { cartTotal } from "./cart-lines.shared";
import { Cart, CartItem } from "./cart.model";
import { cartLineSchema } from "./cart.schemas";
import type { CartLine, CartWithTotal } from "./cart.shape";

export type { CartLine, CartWithTotal };

export const NOT_ENOUGH_STOCK = "Not enough stock available";

/**
 * The shopper's cart. Every change runs in a transaction that first locks the user's cart row,
 * so two tabs changing one cart at once are applied one after the other and no line is lost.
 */
export class CartService {
  constructor(private readonly db: Database) {}

  async getCart(userId: string): Promise<CartWithTotal> {
    return this.readCart(this.db, userId);
  }

  /** Total quantity of all lines, for the badge in the top bar (one small query per page). */
  async countItems(userId: string): Promise<number> {
    const row = (await CartItem.query(this.db)
      .joinRelated("cart")
      .where("cart.userId", userId)
      .sum("cartItems.quantity as count")
      .first()) as unknown as { count: string | number | null } | undefined;
    return Number(row?.count ?? 0);
  }

  /** Adds to the line (or starts it); never more than the product's stock in all. */
  async addItem(userId: string, input: unknown): Promise<CartWithTotal> {
    const { productId, quantity } = validateInput(cartLineSchema, input);
    return this.db.transaction(async (trx) => {
      const cartId = await this.lockCart(trx, userId);
      const product = await lockProduct(trx, productId);
      const line = await CartItem.query(trx).findById([cartId, productId]).select("quantity");
      const wanted = (line?.quantity ?? 0) + quantity;
      if (wanted > product.stock) throw new ConflictError(NOT_ENOUGH_STOCK);
      if (line) await CartItem.query(trx).findById([cartId, productId]).patch({ quantity: wanted });
      else await CartItem.query(trx).insert({ cartId, productId, quantity: wanted });
      return this.readCart(trx, userId);
    });
  }

  /** Sets the quantity of a line that is in the cart. */
  async setQuantity(userId: string, input: unknown): Promise<CartWithTotal> {
    const { productId, quantity } = validateInput(cartLineSchema, input);
    return this.db.transaction(async (trx) => {
      const cartId = await this.lockCart(trx, userId);
      const product = await lockProduct(trx, productId);
      const line = await CartItem.query(trx).findById([cartId, productId]).select("quantity");
      if (!line) throw new NotFoundError("Item not found in cart");
      if (quantity > product.stock) throw new ConflictError(NOT_ENOUGH_STOCK);
      await CartItem.query(trx).findById([cartId, productId]).patch({ quantity });
      return this.readCart(trx, userId);
    });
  }

  /** Removing a line that is already gone changes nothing (a double submit is harmless). */
  async removeItem(userId: string, productId: string): Promise<CartWithTotal> {
    return this.db.transaction(async (trx) => {
      const cartId = await this.lockCart(trx, userId);
      if (isUuid(productId)) await CartItem.query(trx).deleteById([cartId, productId]);
      return this.readCart(trx, userId);
    });
  }

  async clear(userId: string): Promise<CartWithTotal> {
    return this.db.transaction(async (trx) => {
      const cartId = await this.lockCart(trx, userId);
      await CartItem.query(trx).where({ cartId }).delete();
      return this.readCart(trx, userId);
    });
  }

  /** The user's cart row, made when missing, locked until the transaction ends. */
  private async lockCart(trx: Knex.Transaction, userId: string): Promise<string> {
    // The shopper first, then the cart, as checkout and an admin's deletion of the shopper do:
    // without it a cart made while the account was being deleted failed its reference to the
    // user (a 500, found by tests/integration/races).
    const user = await User.query(trx).findById(userId).forKeyShare().select("id");
    if (!user) throw new CallerAccountGoneError();
    // Made on first use; a second shopper's request waits on the row lock here.
    const cart = await Cart.query(trx)
      .insert({ userId })
      .onConflict("userId")
      .merge({ updatedAt: new Date() })
      .returning("id")
      .castTo<Cart>();
    return cart.id;
  }

  private async readCart(db: Knex, userId: string): Promise<CartWithTotal> {
    const { rows } = await db.raw<{ rows: CartRow[] }>(`SELECT * FROM (${CART_LINES_SQL}) AS lines ${LINE_ORDER}`, {
      userId,
    });
    return cartOf(userId, rows);
  }

  /**
   * The cart page's read: the cart, its lines and their products, and the names of products
   * deleted from it since the shopper last looked, cleared as they are read (docs/product.md,
   * "Products"), in one statement.
   */
  async readCartPage(userId: string): Promise<CartWithTotal & { removedNames: string[] }> {
    const { rows } = await this.db.raw<{ rows: (CartRow & { removedNames: string[] | null })[] }>(
      `WITH previous AS (
         SELECT id, removed_product_names FROM carts
          WHERE user_id = :userId AND cardinality(removed_product_names) > 0 FOR UPDATE
       ), taken AS (
         UPDATE carts SET removed_product_names = '{}' FROM previous
          WHERE carts.id = previous.id
         RETURNING previous.removed_product_names AS names
       )
       SELECT (SELECT names FROM taken) AS "removedNames", lines.*
         FROM (SELECT 1) AS one LEFT JOIN (${CART_LINES_SQL}) AS lines ON true
        ${LINE_ORDER}`,
      { userId },
    );
    return { ...cartOf(userId, rows), removedNames: rows[0]?.removedNames ?? [] };
  }
}

/**
 * A cart's lines with their products, one row per line (one row of nulls but the cart's for an
 * empty cart, none without a cart): read on every cart page and after every change, as plain
 * rows (Objection's graph join cost a cart page more CPU than the rest of its data).
 */
const CART_LINES_SQL = `
  SELECT c.id AS "cartId", c.created_at AS "cartCreatedAt", c.updated_at AS "cartUpdatedAt",
         i.created_at AS "lineCreatedAt", i.quantity,
         p.id AS "productId", p.name, p.price, p.image_url AS "imageUrl", p.images, p.stock
    FROM carts AS c
    LEFT JOIN cart_items AS i ON i.cart_id = c.id
    LEFT JOIN products AS p ON p.id = i.product_id
   WHERE c.user_id = :userId`;
/** Lines in the order they were added (the product's id breaks a tie). */
const LINE_ORDER = `ORDER BY lines."lineCreatedAt", lines."productId"`;

type CartRow = {
  cartId: string | null;
  cartCreatedAt: Date | null;
  cartUpdatedAt: Date | null;
  quantity: number | null;
  productId: string | null;
  name: string;
  price: number;
  imageUrl: string;
  images: CartLine["product"]["images"] | null;
  stock: number;
};

function cartOf(userId: string, rows: CartRow[]): CartWithTotal {
  const cart = rows[0]?.cartId ? rows[0] : undefined;
  const items: CartLine[] = rows
    .filter((row) => row.productId !== null && row.quantity !== null)
    .map((row) => ({
      product: {
        _id: row.productId!,
        name: row.name,
        price: row.price,
        imageUrl: row.imageUrl,
        images: row.images ?? [],
        stock: row.stock,
      },
      quantity: row.quantity!,
    }));
  return {
    cart: {
      _id: cart?.cartId ?? null,
      user: userId,
      items,
      createdAt: cart?.cartCreatedAt ? new Date(cart.cartCreatedAt).toISOString() : null,
      updatedAt: cart?.cartUpdatedAt ? new Date(cart.cartUpdatedAt).toISOString() : null,
    },
    total: cartTotal(items),
  };
}

/** The product, share-locked so that it is not deleted while the cart refers to it. */
async function lockProduct(trx: Knex.Transaction, productId: string): Promise<{ id: string; stock: number }> {
  const product = isUuid(productId)
    ? await Product.query(trx).findById(productId).forShare().select("id", "stock")
    : undefined;
  if (!product) throw new NotFoundError("Product not found");
  return product;
}

/**
 * Called in the transaction that deletes a product, before the database's cascade takes it out
 * of every cart: each of those carts remembers the name to tell its shopper.
 */
export async function noteProductLeavingCarts(trx: Knex.Transaction, productId: string): Promise<void> {
  await trx.raw(
    `UPDATE carts SET removed_product_names = array_append(carts.removed_product_names, products.name)
       FROM cart_items, products
      WHERE cart_items.cart_id = carts.id AND cart_items.product_id = ? AND products.id = cart_items.product_id`,
    [productId],
  );
}

/**
 * The quantity in a user's cart as an SQL expression of the user's id column (0 without a cart),
 * for a statement of another module's (the signed-in page's session: server/flows/page-session.ts).
 */
export function cartQuantitySql(userId: string): string {
  return `(SELECT coalesce(sum(ci.quantity), 0) FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
            WHERE c.user_id = ${userId})`;
}
