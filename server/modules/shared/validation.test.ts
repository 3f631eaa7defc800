import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as yup from "yup";
import { productListQuerySchema } from "../catalog/catalog.schemas";
import { CATEGORIES, PRODUCT_SORTS } from "../catalog/catalog-values.shared";
import { CASE_SIZE_BANDS, MOVEMENTS, WATCH_FEATURES } from "../catalog/watch-specs.shared";
import { InvalidInputError } from "./errors.shared";
import { validateGivenFields, validateInput } from "./validation";

/** What validating gives: the fields, or the problems named (InvalidInputError); anything else is thrown. */
function outcome(validate: () => unknown): unknown {
  try {
    return { fields: validate() };
  } catch (error) {
    if (error instanceof InvalidInputError) return { problems: error.errors };
    throw error;
  }
}

/** A query string's values as Express gives them: text, repeated text, or (from `a[b]=c`) an object. */
const text = fc.oneof(
  fc.constantFrom("", " ", "0", "1", "2", "12", "-1", "1.5", "1e3", "100000000", "abc", "Omega", " seiko ", "\u0000"),
  fc.constantFrom(...CATEGORIES, ...PRODUCT_SORTS, ...MOVEMENTS, ...WATCH_FEATURES),
  fc.constantFrom(...CASE_SIZE_BANDS.map((band) => band.value)),
  fc.string({ maxLength: 12 }),
  fc.string({ minLength: 95, maxLength: 220 }),
);
const queryValue = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 2, arbitrary: fc.array(text, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom("a", "b"), text, { maxKeys: 2 }) },
);
const field = fc.constantFrom(...Object.keys(productListQuerySchema.fields), "bench", "unknown");

describe("validateGivenFields", () => {
  it("answers the catalogue's queries as validating the whole schema does: the same fields, or the same problems", () => {
    fc.assert(
      fc.property(fc.dictionary(field, queryValue, { maxKeys: 8 }), (query) => {
        const given = outcome(() => validateGivenFields(productListQuerySchema, query));
        const whole = outcome(() => validateInput(productListQuerySchema, query));
        expect(given).toStrictEqual(whole);
      }),
      { numRuns: 3000 },
    );
  });

  it("gives each answer lists of its own: changing one changes no later answer", () => {
    const first = validateGivenFields(productListQuerySchema, { page: "2" });
    first.brand.push("Omega");
    expect(validateGivenFields(productListQuerySchema, { page: "3" }).brand).toEqual([]);
  });

  it("validates a schema with a required field whole: a field not given is still named", () => {
    const schema = yup.object({ name: yup.string().required("Name is required"), note: yup.string() });
    expect(outcome(() => validateGivenFields(schema, { note: "x" }))).toEqual({
      problems: [{ field: "name", message: "Name is required" }],
    });
  });

  it("validates whole a schema whose fields depend on one another or on the whole object", () => {
    const linked = yup.object({
      delivery: yup.string(),
      address: yup
        .string()
        .when("delivery", ([delivery], field) =>
          delivery === "courier" ? field.required("Address is required") : field,
        ),
    });
    expect(outcome(() => validateGivenFields(linked, { delivery: "courier" }))).toEqual({
      problems: [{ field: "address", message: "Address is required" }],
    });
    // The object's test sees the limit's default when only the page is given.
    const whole = yup
      .object({ page: yup.number().default(1), limit: yup.number().default(10) })
      .test("reach", "Page and limit reach too far", (value) => !(value.page + value.limit > 100));
    const asWhole = outcome(() => validateInput(whole, { page: "95" }));
    expect(asWhole).toMatchObject({ problems: [{ message: "Page and limit reach too far" }] });
    expect(outcome(() => validateGivenFields(whole, { page: "95" }))).toEqual(asWhole);
  });
});
