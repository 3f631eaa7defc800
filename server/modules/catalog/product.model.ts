import { BaseModel } from "../../db/base.model";
import { noteProductShown } from "../../page-dependencies";

import type { Category } from "./catalog-values";

export { CATEGORIES, type Category } from "./catalog-values";

/** A product as clients see it (API.md "Product"). */
export type PublicProduct = {
  _id: string;
  name: string;
  description: string;
  price: number;
  category: Category;
  imageUrl: string;
  stock: number;
  brand: string;
  createdAt: string;
  updatedAt: string;
};

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
    noteProductShown(this.id);
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

/** A site path made absolute with the public address; full URLs and empty values stay as they are. */
export function absoluteUrl(pathOrUrl: string, siteUrl: string): string {
  if (!pathOrUrl || /^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return siteUrl + (pathOrUrl.startsWith("/") ? pathOrUrl : `/${pathOrUrl}`);
}

/** The product as the API sends it: clients on other origins need absolute image addresses (RULINGS). */
export function forApiClients(product: PublicProduct, siteUrl: string): PublicProduct {
  return { ...product, imageUrl: absoluteUrl(product.imageUrl, siteUrl) };
}
