import * as yup from "yup";
import type { Database } from "../../db/database";
import { NotFoundError } from "../shared/errors.shared";
import { validateInput } from "../shared/validation";
import { BRAND_DESCRIPTION_MAX_LENGTH, isBrandSlug } from "./brands.shared";

/** A brand as its page shows it. */
export type Brand = { name: string; slug: string; description: string };
/** A brand as the admins' list shows it: with how many watches carry it. */
export type DeskBrand = Brand & { productCount: number };

/** The admin's edit of a brand's short text: PUT /api/v1/brands/{slug} and /admin/brands/{slug}. */
export const brandTextSchema = yup.object({
  description: yup
    .string()
    .transform((value: unknown) => (typeof value === "string" ? value.trim() : value))
    .typeError("Description must be text")
    .defined("Description is required (it may be empty)")
    .max(BRAND_DESCRIPTION_MAX_LENGTH, `Description must be at most ${BRAND_DESCRIPTION_MAX_LENGTH} characters`),
});

/**
 * Brand records (docs/product.md, "Brands"): made by the products' trigger (migration
 * 20261126000032) when a brand text is first seen; their short text is the admins' to write.
 */
export class Brands {
  constructor(private readonly db: Database) {}

  async getBrand(slug: string): Promise<Brand> {
    if (!isBrandSlug(slug)) throw new NotFoundError("Brand not found");
    const brand = await this.db("brands").where({ slug }).first("name", "slug", "description");
    if (!brand) throw new NotFoundError("Brand not found");
    return brand as Brand;
  }

  /** Every brand by name, with its number of watches (a few hundred at most: one page). */
  async listBrands(): Promise<DeskBrand[]> {
    const rows = await this.db("brands")
      .leftJoin("products", "products.brandId", "brands.id")
      .groupBy("brands.id")
      .orderByRaw("lower(brands.name), brands.slug")
      .select(
        "brands.name",
        "brands.slug",
        "brands.description",
        this.db.raw("count(products.id)::int AS product_count"),
      );
    return rows as DeskBrand[];
  }

  /** Replaces a brand's short text; the brand's page shows it at once (no page cache keeps it: server/http/page-cache.ts). */
  async updateBrandText(slug: string, input: unknown): Promise<Brand> {
    const { description } = validateInput(brandTextSchema, input);
    if (!isBrandSlug(slug)) throw new NotFoundError("Brand not found");
    const [brand] = await this.db("brands")
      .where({ slug })
      .update({ description })
      .returning(["name", "slug", "description"]);
    if (!brand) throw new NotFoundError("Brand not found");
    return brand as Brand;
  }
}
