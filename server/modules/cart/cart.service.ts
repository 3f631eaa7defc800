import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { ConflictError, NotFoundError } from "../shared/errors.shared";
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

  /**
   * Names of products deleted from the shopper's cart since they last looked, cleared as they
   * are read: the cart page tells the shopper once (docs/product.md, "Products").
   */
  async takeRemovedProductNames(userId: string): Promise<string[]> {
    const result = await this.db.raw(
      `WITH previous AS (
         SELECT id, removed_product_names FROM carts
          WHERE user_id = ? AND cardinality(removed_product_names) > 0 FOR UPDATE)
       UPDATE carts SET removed_product_names = '{}' FROM previous
        WHERE carts.id = previous.id
       RETURNING previous.removed_product_names AS names`,
      [userId],
    );
    return result.rows[0]?.names ?? [];
  }

  /** The user's cart row, made when missing, locked until the transaction ends. */
  private async lockCart(trx: Knex.Transaction, userId: string): Promise<string> {
    // The shopper first, then the cart, as checkout and an admin's deletion of the shopper do:
    // without it a cart made while the account was being deleted failed its reference to the
    // user (a 500, found by tests/integration/races).
    const user = await User.query(trx).findById(userId).forKeyShare().select("id");
    if (!user) throw new NotFoundError("User not found");
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
    const cart = await Cart.query(db).where({ userId }).first();
    const lines = cart
      ? await CartItem.query(db)
          .where("cartItems.cartId", cart.id)
          .withGraphJoined("product")
          .orderBy([
            { column: "cartItems.createdAt", order: "asc" },
            { column: "product.id", order: "asc" },
          ])
      : [];
    const items: CartLine[] = lines.map((line) => ({
      product: {
        _id: line.product!.id,
        name: line.product!.name,
        price: line.product!.price,
        imageUrl: line.product!.imageUrl,
        images: line.product!.images ?? [],
        stock: line.product!.stock,
      },
      quantity: line.quantity,
    }));
    return {
      cart: {
        _id: cart?.id ?? null,
        user: userId,
        items,
        createdAt: cart ? new Date(cart.createdAt).toISOString() : null,
        updatedAt: cart ? new Date(cart.updatedAt).toISOString() : null,
      },
      total: cartTotal(items),
    };
  }
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
