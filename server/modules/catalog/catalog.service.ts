import type { Database } from "../../db/database";
import { Product, type PublicProduct } from "./product.model";

export class CatalogService {
  constructor(private readonly db: Database) {}

  /** The newest watches that can be bought now, for the home page. */
  async newestInStock(limit: number): Promise<PublicProduct[]> {
    const products = await Product.query(this.db)
      .where("stock", ">", 0)
      .orderBy([
        { column: "createdAt", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(limit);
    return products.map((product) => product.toPublic());
  }

  async countProducts(): Promise<number> {
    const row = (await Product.query(this.db).count("* as count").first()) as unknown as { count: number };
    return row.count;
  }
}
