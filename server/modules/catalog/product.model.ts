import { BaseModel } from "../../db/base.model";

export type Category = "Men" | "Women";
export const CATEGORIES: Category[] = ["Men", "Women"];

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
  static moneyColumns = ["price"];

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

  /** `siteUrl` makes site paths absolute, for API clients on other origins (RULINGS). */
  toPublic(siteUrl?: string): PublicProduct {
    return {
      _id: this.id,
      name: this.name,
      description: this.description,
      price: this.price,
      category: this.category,
      imageUrl: siteUrl ? absoluteUrl(this.imageUrl, siteUrl) : this.imageUrl,
      stock: this.stock,
      brand: this.brand,
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(this.updatedAt).toISOString(),
    };
  }
}

export function absoluteUrl(pathOrUrl: string, siteUrl: string): string {
  if (!pathOrUrl || /^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return siteUrl + (pathOrUrl.startsWith("/") ? pathOrUrl : `/${pathOrUrl}`);
}
