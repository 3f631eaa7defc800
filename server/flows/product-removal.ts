import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import { noteProductLeavingCarts } from "../modules/cart/cart.service";
import { deleteProduct } from "../modules/catalog/product-editing";
import { NotFoundError } from "../modules/shared/errors.shared";

/**
 * Deleting a product (docs/product.md, "Products"): carts lose it (the database cascades), each
 * remembering its name to tell its shopper; orders keep their copy of it, photo included.
 */
export class ProductRemovalFlow {
  constructor(private readonly db: Database) {}

  async deleteProduct(id: string): Promise<void> {
    if (!isUuid(id)) throw new NotFoundError("Product not found");
    await this.db.transaction(async (trx) => {
      // Before the delete, whose cascade takes the product out of every cart.
      await noteProductLeavingCarts(trx, id);
      await deleteProduct(trx, id);
    });
  }
}
