import type { QueryBuilder } from "objection";
import type { ProductSort } from "./catalog-values.shared";
import type { Product, PublicProduct } from "./product.model";

/**
 * The catalogue's list and search in SQL (docs/decisions/2026-11-23-catalogue-at-scale.md): the
 * sorts, the search's rank, the seek to a deep page and the exact counts of migration 19.
 */

/**
 * A search's rank without its cost: 2 when the term is in the name, 1 in the brand, 0 elsewhere
 * (or only as whole words). `search_text` starts with the lowered name, so its first
 * char_length(name) characters are the name lowered: searching that prefix costs a few dozen
 * characters a match, where searching all of search_text again, or lowering the name, cost a
 * broad term as much as finding its matches.
 */
export const relevanceKey = `CASE
  WHEN strpos(left(search_text, char_length(name)), lower(:search)) > 0 THEN 2
  WHEN strpos(lower(brand), lower(:search)) > 0 THEN 1
  ELSE 0 END`;

/**
 * A term of letters and digits only is one lexeme of the 'simple' configuration, its own text
 * lowered: every product that has it as a whole word has it as a part too, so the text-search
 * arm would find nothing more, and it costs a check of every candidate's search_vector.
 */
export const ONE_WORD = /^[\p{L}\p{N}]+$/u;

/** Each sort as SQL, matching an index of the migrations; names sort without regard to case. */
export const SORT_ORDER: Record<ProductSort, { expression: string; order: "ASC" | "DESC" }> = {
  "-createdAt": { expression: "created_at", order: "DESC" },
  createdAt: { expression: "created_at", order: "ASC" },
  price: { expression: "price", order: "ASC" },
  "-price": { expression: "price", order: "DESC" },
  name: { expression: "lower(name)", order: "ASC" },
  "-name": { expression: "lower(name)", order: "DESC" },
};

/** The products found, in the order of their ids (a product deleted meanwhile is left out). */
export function inOrder(ids: string[], products: Product[]): PublicProduct[] {
  const byId = new Map(products.map((product) => [product.id, product]));
  return ids.flatMap((id) => byId.get(id)?.toPublic() ?? []);
}

/**
 * A deep page without a search: rather than read and throw away every row before it (OFFSET of
 * the whole query fetches each skipped product), find the sort key of the page's first product
 * with an index-only scan of the sort's index, then read the page from there on. The same rows
 * as OFFSET, and an offset past the end still finds none.
 */
export function seekTo(query: QueryBuilder<Product, Product[]>, sort: ProductSort, offset: number, category?: string) {
  const { expression, order } = SORT_ORDER[sort];
  const from = order === "DESC" ? "<=" : ">=";
  query.whereRaw(
    `(${expression}, id) ${from} (SELECT ${expression}, id FROM products ${category ? "WHERE category = ?" : ""}
      ORDER BY ${expression} ${order}, id ${order} OFFSET ? LIMIT 1)`,
    category ? [category, offset] : [offset],
  );
}

/** The sum of migration 19's counts, of one category (the one placeholder) or all. */
export function catalogueSizeSql(category?: string): string {
  return `SELECT coalesce(sum(products), 0) FROM product_counts${category ? " WHERE category = ?" : ""}`;
}

/** The id breaks ties, so that pages never repeat or skip a product. */
export function orderBySort<Q extends QueryBuilder<Product, Product[]>>(query: Q, sort: ProductSort): Q {
  const { expression, order } = SORT_ORDER[sort];
  return query.orderByRaw(`${expression} ${order}, id ${order}`) as Q;
}
