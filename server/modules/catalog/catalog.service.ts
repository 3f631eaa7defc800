import type { QueryBuilder } from "objection";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { NotFoundError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { containsPattern } from "../shared/search";
import { validateInput } from "../shared/validation";
import { noteProductLeavingCarts } from "../cart/cart.service";
import { DEFAULT_PRODUCT_SORT, type ProductSort } from "./catalog-values.shared";
import { productInputSchema, productListQuerySchema } from "./catalog.schemas";
import { Product, type PublicProduct } from "./product.model";
import type { MailContext } from "../mail/mail-layout";
import { queueDueStockAlerts } from "./stock-alerts.service";

export type ProductList = { products: PublicProduct[]; pagination: Pagination };

/**
 * The text a search reads, written exactly as the trigram index of the migration is, so that
 * PostgreSQL uses that index for substring matches.
 */
const SEARCH_DOCUMENT = "(name || ' ' || brand || ' ' || description)";

/** Each sort as SQL, matching an index of the migrations; names sort without regard to case. */
const SORT_ORDER: Record<ProductSort, { expression: string; order: "ASC" | "DESC" }> = {
  "-createdAt": { expression: "created_at", order: "DESC" },
  createdAt: { expression: "created_at", order: "ASC" },
  price: { expression: "price", order: "ASC" },
  "-price": { expression: "price", order: "DESC" },
  name: { expression: "lower(name)", order: "ASC" },
  "-name": { expression: "lower(name)", order: "DESC" },
};

export class CatalogService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailContext,
  ) {}

  /**
   * One page of the catalogue. A search matches name, brand and description: whole words
   * through the text-search index, any part of a word through the trigram index. Without an
   * explicit sort a search is ranked by relevance (name and brand above description).
   */
  async listProducts(input: unknown): Promise<ProductList> {
    const { page, limit, search, category, sort } = validateInput(productListQuerySchema, input);
    const filtered = Product.query(this.db).modify((builder) => {
      if (category) builder.where("category", category);
      if (search) {
        builder.where((inner) =>
          inner
            .whereRaw("search_vector @@ plainto_tsquery('simple', ?)", [search])
            .orWhereRaw(`${SEARCH_DOCUMENT} ILIKE ?`, [containsPattern(search)]),
        );
      }
    });
    const ordered = filtered.clone();
    if (search && !sort) orderByRelevance(ordered, search);
    else orderBySort(ordered, (sort as ProductSort | undefined) ?? DEFAULT_PRODUCT_SORT);

    const [products, total] = await Promise.all([
      ordered.limit(limit).offset((page - 1) * limit),
      filtered.resultSize(),
    ]);
    return {
      products: products.map((product) => product.toPublic()),
      pagination: paginationOf(page, limit, total),
    };
  }

  async getProduct(id: string): Promise<PublicProduct> {
    const product = isUuid(id) ? await Product.query(this.db).findById(id) : undefined;
    if (!product) throw new NotFoundError("Product not found");
    return product.toPublic();
  }

  async createProduct(input: unknown): Promise<PublicProduct> {
    const values = validateInput(productInputSchema, input);
    const product = await Product.query(this.db).insertAndFetch(values);
    return product.toPublic();
  }

  /**
   * Replaces every field (PUT): the form and the API send the whole product. Stock raised from
   * zero sends the waiting stock alerts in the same transaction (docs/product.md, "Back in stock").
   */
  async updateProduct(id: string, input: unknown): Promise<PublicProduct> {
    const values = validateInput(productInputSchema, input);
    if (!isUuid(id)) throw new NotFoundError("Product not found");
    const product = await this.db.transaction(async (trx) => {
      const updated = await Product.query(trx).patchAndFetchById(id, values);
      if (!updated) throw new NotFoundError("Product not found");
      if (updated.stock > 0) await queueDueStockAlerts(trx, this.mail, [id]);
      return updated;
    });
    return product.toPublic();
  }

  /** Carts lose the product (the database cascades); orders keep their copy of it. */
  async deleteProduct(id: string): Promise<void> {
    if (!isUuid(id)) throw new NotFoundError("Product not found");
    await this.db.transaction(async (trx) => {
      await noteProductLeavingCarts(trx, id);
      const deleted = await Product.query(trx).deleteById(id);
      if (!deleted) throw new NotFoundError("Product not found");
    });
  }

  /** The newest watches that can be bought now, for the home page. */
  async newestInStock(limit: number): Promise<PublicProduct[]> {
    const products = await orderBySort(Product.query(this.db).where("stock", ">", 0), "-createdAt").limit(limit);
    return products.map((product) => product.toPublic());
  }

  async countProducts(): Promise<number> {
    return Product.query(this.db).resultSize();
  }

  /** Ids and change times for the sitemap, in a stable order, one slice at a time. */
  async sitemapEntries(offset: number, limit: number): Promise<{ id: string; updatedAt: string }[]> {
    const rows = await Product.query(this.db).select("id", "updatedAt").orderBy("id").offset(offset).limit(limit);
    return rows.map((row) => ({ id: row.id, updatedAt: new Date(row.updatedAt).toISOString() }));
  }
}

/** The id breaks ties, so that pages never repeat or skip a product. */
function orderBySort<Q extends QueryBuilder<Product, Product[]>>(query: Q, sort: ProductSort): Q {
  const { expression, order } = SORT_ORDER[sort];
  return query.orderByRaw(`${expression} ${order}, id ${order}`) as Q;
}

function orderByRelevance(query: QueryBuilder<Product, Product[]>, search: string) {
  const pattern = containsPattern(search);
  // Text-search rank (name and brand weigh more than description), plus a lift for a term
  // found inside the name or brand, which whole-word search misses (e.g. "sub" in Submariner).
  query
    .orderByRaw(
      `ts_rank(search_vector, plainto_tsquery('simple', ?))
        + CASE WHEN name ILIKE ? THEN 1 ELSE 0 END
        + CASE WHEN brand ILIKE ? THEN 0.5 ELSE 0 END DESC`,
      [search, pattern, pattern],
    )
    .orderBy([
      { column: "createdAt", order: "desc" },
      { column: "id", order: "desc" },
    ]);
}
