import * as yup from "yup";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { ConflictError, NotFoundError } from "../shared/errors.shared";
import { validateInput } from "../shared/validation";
import { COMPARISON_FULL, MAX_COMPARED_WATCHES } from "./comparison-values.shared";
import { Product, type PublicProduct } from "./product.model";

/** A change to the comparison, as the Compare and Remove buttons send it. */
const comparisonChangeSchema = yup.object({
  intent: yup.string().required("Choose what to do").oneOf(["add", "remove", "clear"], "Choose add, remove or clear"),
  productId: yup.string().when("intent", {
    is: (intent: string) => intent !== "clear",
    then: (schema) => schema.required("Choose a watch").test("uuid", "Choose a watch", (value) => isUuid(value)),
    otherwise: (schema) => schema.strip(),
  }),
});

export type ComparisonChange = {
  /** The compared ids after the change. */
  ids: string[];
  /** What the shopper is told. */
  message: string;
};

/**
 * The watches a shopper compares (docs/product.md, "Compare"). The list itself lives in the
 * shopper's cookie, which anyone can write: every id read from it is checked again here, and a
 * watch that is no longer sold simply drops out.
 */
export class ComparisonService {
  constructor(private readonly db: Database) {}

  /** The ids as the cookie holds them, cleaned: ids only, each once, at most four. */
  static idsFrom(value: unknown): string[] {
    if (!Array.isArray(value)) return [];
    return [...new Set(value.filter(isUuid))].slice(0, MAX_COMPARED_WATCHES);
  }

  /** How many watches the cookie names, for the top bar's Compare link (not checked against the catalogue). */
  count(ids: unknown): number {
    return ComparisonService.idsFrom(ids).length;
  }

  /** The compared watches still sold, in the order they were added. */
  async comparedProducts(ids: unknown): Promise<PublicProduct[]> {
    const wanted = ComparisonService.idsFrom(ids);
    if (wanted.length === 0) return [];
    const products = await Product.query(this.db).findByIds(wanted);
    const byId = new Map(products.map((product) => [product.id, product.toPublic()]));
    return wanted.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Adds a watch (409 when four are compared already; adding one twice changes nothing), removes
   * one, or clears the list. 400 for bad input, 404 for a watch that is not sold.
   */
  async change(current: unknown, input: unknown): Promise<ComparisonChange> {
    const change = validateInput(comparisonChangeSchema, input);
    const ids = ComparisonService.idsFrom(current);
    if (change.intent === "clear") return { ids: [], message: "Your comparison is empty." };
    const productId = change.productId!;
    if (change.intent === "remove") {
      return { ids: ids.filter((id) => id !== productId), message: "Removed from your comparison." };
    }
    const product = await Product.query(this.db).findById(productId).select("id", "name");
    if (!product) throw new NotFoundError("Product not found");
    if (ids.includes(productId)) {
      return {
        ids,
        message: `${product.name} is already in your comparison (${ids.length} of ${MAX_COMPARED_WATCHES}).`,
      };
    }
    if (ids.length >= MAX_COMPARED_WATCHES) throw new ConflictError(COMPARISON_FULL);
    const added = [...ids, productId];
    return {
      ids: added,
      message: `${product.name} added to your comparison (${added.length} of ${MAX_COMPARED_WATCHES}).`,
    };
  }
}
