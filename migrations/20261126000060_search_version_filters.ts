import type { Knex } from "knex";

/**
 * The search version (migration 20261123000021) also changes with what the filters' counts read,
 * so that counts kept by an app server (server/modules/catalog/facet-count-cache.ts) are used only
 * while counting again would give the same: a product's filtered specifications written (its
 * brand, category and price already changed the version), or a brand renamed (the brand options'
 * labels). Once per statement, as before; stock still leaves it alone.
 */
const SEARCHED = ["name", "brand", "description", "category", "price", "created_at"];
const FILTERED = ["movement", "case_diameter_mm", "strap_material", "dial_colour", "water_resistance_m", "features"];

async function versionTrigger(knex: Knex, columns: string[]) {
  await knex.raw("DROP TRIGGER search_version_updated ON products");
  await knex.raw(`
    CREATE TRIGGER search_version_updated
    AFTER UPDATE OF ${columns.join(", ")} ON products
    FOR EACH STATEMENT EXECUTE FUNCTION search_version_changed()`);
}

export async function up(knex: Knex): Promise<void> {
  await versionTrigger(knex, [...SEARCHED, ...FILTERED]);
  await knex.raw(`
    CREATE TRIGGER search_version_brand_renamed AFTER UPDATE OF name, slug ON brands
    FOR EACH STATEMENT EXECUTE FUNCTION search_version_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER search_version_brand_renamed ON brands");
  await versionTrigger(knex, SEARCHED);
}
