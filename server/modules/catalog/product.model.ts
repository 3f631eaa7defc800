import { BaseModel } from "../../db/base.model";
import { announceProductShown } from "./product-shown";

import { dateTime, integer, number, object, oneOf, text, uuid, type ShapeOf } from "../shared/shapes";
import { CATEGORIES, type Category } from "./catalog-values.shared";

export { CATEGORIES, type Category };

/** A product as clients see it (docs/product.md, "Products"). */
export const productShape = object({
  _id: uuid(),
  name: text(),
  description: text(),
  price: number({ minimum: 0, description: "Rupees, at most two decimals" }),
  category: oneOf(CATEGORIES),
  imageUrl: text({ description: "Absolute in API answers (site paths are expanded with the public address)" }),
  stock: integer({ minimum: 0 }),
  brand: text(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PublicProduct = ShapeOf<typeof productShape>;

export class Product extends BaseModel {
  static tableName = "products";

  id!: string;
  name!: string;
  description!: string;
  price!: number;
  category!: Category;
  imageUrl!: string;
  stock!: number;
  brand!: string;
  createdAt!: Date;
  updatedAt!: Date;

  toPublic(): PublicProduct {
    announceProductShown(this.id);
    return {
      _id: this.id,
      name: this.name,
      description: this.description,
      price: this.price,
      category: this.category,
      imageUrl: this.imageUrl,
      stock: this.stock,
      brand: this.brand,
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(this.updatedAt).toISOString(),
    };
  }
}
