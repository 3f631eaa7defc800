import { Model } from "objection";
import { BaseModel } from "../../db/base.model";
import { Product } from "../catalog/product.model";

/** A shopper's cart: one per user, made on first use. */
export class Cart extends BaseModel {
  static tableName = "carts";

  id!: string;
  userId!: string;
  /** Names of products deleted while in this cart, told to the shopper once. */
  removedProductNames!: string[];
  createdAt!: Date;
  updatedAt!: Date;
  items?: CartItem[];

  static relationMappings = () => ({
    items: {
      relation: Model.HasManyRelation,
      modelClass: CartItem,
      join: { from: "carts.id", to: "cart_items.cartId" },
    },
  });
}

/** A line of a cart; a product appears once per cart. */
export class CartItem extends BaseModel {
  static tableName = "cart_items";
  static idColumn = ["cartId", "productId"];

  cartId!: string;
  productId!: string;
  quantity!: number;
  createdAt!: Date;
  updatedAt!: Date;
  product?: Product;
  cart?: Cart;

  // Column names in camelCase: knexSnakeCaseMappers turns them into the table's snake_case.
  static relationMappings = () => ({
    product: {
      relation: Model.BelongsToOneRelation,
      modelClass: Product,
      join: { from: "cart_items.productId", to: "products.id" },
    },
    cart: {
      relation: Model.BelongsToOneRelation,
      modelClass: Cart,
      join: { from: "cart_items.cartId", to: "carts.id" },
    },
  });
}
