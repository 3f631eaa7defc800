import { BaseModel } from "../../db/base.model";
import { announceProductShown } from "./product-shown-listeners";

import { dateTime, integer, nullable, number, object, oneOf, text, uuid, type ShapeOf } from "../shared/shapes";
import { CATEGORIES, type Category } from "./catalog-values.shared";
import type { ProductImage } from "../shared/product-images.shared";
import { productImagesShape } from "../shared/product-images.shape";

export { CATEGORIES, type Category };

/** A product as clients see it (docs/product.md, "Products"). */
export const productShape = object({
  _id: uuid(),
  name: text(),
  description: text(),
  price: number({ minimum: 0, description: "Rupees, at most two decimals" }),
  category: oneOf(CATEGORIES),
  imageUrl: text({
    description:
      "Absolute in API answers (site paths are expanded with the public address). With an uploaded photo, its largest variant; PUT it back unchanged to keep the photo",
  }),
  images: productImagesShape,
  imagePlaceholder: nullable(
    text({
      description: "A tiny blurred preview of the photo (a data: URI) to show while it loads; null without a photo",
    }),
  ),
  stock: integer({ minimum: 0 }),
  reorderLevel: integer({
    minimum: 0,
    description: "The stock report lists the product once its stock is at or below this (default 2)",
  }),
  brand: text(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PublicProduct = ShapeOf<typeof productShape>;

export class Product extends BaseModel {
  static tableName = "products";
  static jsonAttributes = ["images"];

  id!: string;
  name!: string;
  description!: string;
  price!: number;
  category!: Category;
  /** The image shown: the photo's largest variant while there is a photo, else the Image URL given. */
  imageUrl!: string;
  /** The uploaded photo, if any; `images` and `imagePlaceholder` are copies of its variants' details. */
  photoId!: string | null;
  images!: ProductImage[];
  imagePlaceholder!: string | null;
  /** The Image URL the admin gave while a photo is shown, which comes back when the photo goes. */
  fallbackImageUrl!: string;
  stock!: number;
  /** The stock report lists the product at or below it (docs/product.md, "Reports"). */
  reorderLevel!: number;
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
      images: this.images ?? [],
      imagePlaceholder: this.imagePlaceholder ?? null,
      stock: this.stock,
      reorderLevel: this.reorderLevel,
      brand: this.brand,
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(this.updatedAt).toISOString(),
    };
  }
}
