import { BaseModel } from "../../db/base.model";
import { announceProductShown } from "./product-shown-listeners";

import {
  arrayOf,
  boolean,
  dateTime,
  described,
  integer,
  nullable,
  number,
  object,
  oneOf,
  text,
  uuid,
  type Shape,
  type ShapeOf,
} from "../shared/shapes";
import { SPEC_DEFINITIONS, SPEC_KEYS, type SpecDefinition, type SpecKey, type WatchSpecs } from "./watch-specs.shared";
import { CATEGORIES, WEIGHT_GRAMS_MAX, type Category } from "./catalog-values.shared";
import type { ProductImage } from "../shared/product-images.shared";
import { productImagesShape } from "../shared/product-images.shape";

export { CATEGORIES, type Category };

function specShape(definition: SpecDefinition): Shape<unknown> {
  switch (definition.kind) {
    case "text":
      return nullable(text({ maxLength: definition.max }));
    case "choice":
      return nullable(oneOf(definition.values));
    case "number":
      return described(
        nullable(
          definition.decimals === 0
            ? integer({ minimum: definition.min, maximum: definition.max })
            : number({ minimum: definition.min, maximum: definition.max }),
        ),
        `In ${definition.unit}`,
      );
    case "yes-no":
      return nullable(boolean());
    case "list":
      return arrayOf(oneOf(definition.values), { uniqueItems: true });
  }
}

/** A watch's specifications (docs/product.md, "Specifications"): null where not filled in. */
export const specsShape = object(
  Object.fromEntries(
    (Object.entries(SPEC_DEFINITIONS) as [SpecKey, SpecDefinition][]).map(([key, definition]) => [
      key,
      specShape(definition),
    ]),
  ),
) as unknown as Shape<WatchSpecs>;

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
  weightGrams: nullable(
    integer({
      minimum: 1,
      maximum: WEIGHT_GRAMS_MAX,
      description:
        "Grams, packed; a courier booking sends it times the quantity. Null: none given (the store's default a piece is used). Absent from a PUT: kept",
    }),
  ),
  brand: text(),
  specs: specsShape,
  rating: nullable(
    number({
      minimum: 1,
      maximum: 5,
      description: "The approved reviews' average, two decimals at most; null without one",
    }),
  ),
  reviewCount: integer({ minimum: 0, description: "How many approved reviews the product has" }),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PublicProduct = ShapeOf<typeof productShape>;

export class Product extends BaseModel {
  static tableName = "products";
  static jsonAttributes = ["images"];
  /**
   * What toPublic reads, for lists that show products and nothing more: the search's own columns
   * (search_text, search_vector, as long as the description) and the photo's bookkeeping are left
   * in the database instead of being parsed for every row.
   */
  static readonly publicColumns = [
    "id",
    "name",
    "description",
    "price",
    "category",
    "imageUrl",
    "images",
    "imagePlaceholder",
    "stock",
    "reorderLevel",
    "weightGrams",
    "brand",
    ...SPEC_KEYS,
    "ratingAverage",
    "ratingCount",
    "createdAt",
    "updatedAt",
  ].map((column) => `products.${column}`);

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
  /** Grams, packed; null: the booking uses the store's default a piece (server/flows/shipping.ts). */
  weightGrams!: number | null;
  brand!: string;
  // The specifications, one column each (migration 20261126000031).
  reference!: string | null;
  movement!: WatchSpecs["movement"];
  calibre!: string | null;
  caseDiameterMm!: number | null;
  caseThicknessMm!: number | null;
  caseMaterial!: string | null;
  waterResistanceM!: number | null;
  crystal!: WatchSpecs["crystal"];
  strapMaterial!: string | null;
  strapColour!: string | null;
  dialColour!: string | null;
  lugWidthMm!: number | null;
  features!: WatchSpecs["features"];
  warrantyMonths!: number | null;
  warrantyKind!: WatchSpecs["warrantyKind"];
  boxAndPapers!: boolean | null;
  certificateOfAuthenticity!: boolean | null;
  /** The approved reviews' average and count, kept by the reviews' moderation (server/modules/reviews/reviews.service.ts). */
  ratingAverage!: number | null;
  ratingCount!: number;
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
      weightGrams: this.weightGrams ?? null,
      brand: this.brand,
      specs: this.watchSpecs(),
      rating: this.ratingAverage ?? null,
      reviewCount: this.ratingCount ?? 0,
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(this.updatedAt).toISOString(),
    };
  }

  watchSpecs(): WatchSpecs {
    // A plain loop: every product of every list and answer passes here.
    const specs: Record<string, unknown> = {};
    for (const key of SPEC_KEYS) specs[key] = this[key] ?? null;
    specs.features = this.features ?? [];
    return specs as WatchSpecs;
  }
}
