import type { Knex } from "knex";
import { SPEC_DEFINITIONS, type SpecDefinition } from "../server/modules/catalog/watch-specs.shared";

/**
 * A watch's specifications as columns of products (one each, so that the catalogue's filters can
 * use indexes: migration 20261126000032 adds them), every one optional. The CHECKs come from the
 * one list of allowed values and limits (server/modules/catalog/watch-specs.shared.ts), so the
 * database refuses what the schema refuses. A value added to a list later comes with a migration
 * that writes its CHECK again.
 *
 * The filters' columns each get an index (docs/decisions/2026-11-26-catalogue-filters.md): a
 * filter on one of them reads its matches through it, and a facet's counts over the whole
 * catalogue are an index-only scan of its column rather than a read of every product.
 */
const FILTERED_COLUMNS = [
  "movement",
  "case_diameter_mm",
  "strap_material",
  "dial_colour",
  "water_resistance_m",
  "features",
];
const list = (values: readonly string[]) => values.map((value) => `'${value.replace(/'/g, "''")}'`).join(", ");

function columnType(definition: SpecDefinition): string {
  switch (definition.kind) {
    case "text":
    case "choice":
      return "text";
    case "number":
      return definition.decimals === 0 ? "integer" : "numeric(4, 1)";
    case "yes-no":
      return "boolean";
    case "list":
      return "text[] NOT NULL DEFAULT '{}'";
  }
}

function check(definition: SpecDefinition): string {
  const column = definition.column;
  switch (definition.kind) {
    case "text":
      return `char_length(${column}) BETWEEN 1 AND ${definition.max}`;
    case "choice":
      return `${column} IN (${list(definition.values)})`;
    case "number":
      return `${column} BETWEEN ${definition.min} AND ${definition.max}`;
    case "yes-no":
      return "true";
    case "list":
      return `${column} <@ ARRAY[${list(definition.values)}]::text[]`;
  }
}

export async function up(knex: Knex): Promise<void> {
  for (const definition of Object.values(SPEC_DEFINITIONS) as SpecDefinition[]) {
    await knex.raw(`ALTER TABLE products ADD COLUMN ${definition.column} ${columnType(definition)}`);
    if (definition.kind !== "yes-no") {
      await knex.raw(
        `ALTER TABLE products ADD CONSTRAINT products_${definition.column}_valid CHECK (${check(definition)})`,
      );
    }
  }
  for (const column of FILTERED_COLUMNS) await knex.raw(`CREATE INDEX products_${column}_idx ON products (${column})`);
  // "Any of these features" (features && …) through the array's elements.
  await knex.raw("CREATE INDEX products_features_gin_idx ON products USING gin (features)");
}

export async function down(knex: Knex): Promise<void> {
  for (const definition of Object.values(SPEC_DEFINITIONS) as SpecDefinition[]) {
    await knex.raw(`ALTER TABLE products DROP COLUMN ${definition.column}`);
  }
}
