import type { Knex } from "knex";

/**
 * Brands as records (docs/product.md, "Brands"): a name, a slug for /brands/{slug} and a short
 * text. A product keeps its brand text; `brand_id` links it to the brand whose slug its text
 * gives (server/modules/catalog/brands.shared.ts, brandSlug: "TAG Heuer" and "Tag  heuer" are one
 * brand). A row trigger keeps the link in step with the text on every write, by any path (the
 * form, the API, the seed, SQL by hand), creating the brand the first time its text is seen. A
 * text with no letter or digit of A–Z, 0–9 has no slug, so no brand record.
 *
 * brand_slug() is the SQL twin of brandSlug(): only ASCII letters and digits are kept, so that
 * the two agree on every text whatever the database's locale (tests/integration/brands.test.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE brands (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
      slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw(`
    CREATE FUNCTION brand_slug(brand text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT nullif(btrim(lower(regexp_replace(brand, '[^A-Za-z0-9]+', '-', 'g')), '-'), '')
    $$`);
  await knex.raw(`
    CREATE FUNCTION brand_id_for(brand text) RETURNS uuid LANGUAGE plpgsql AS $$
    DECLARE
      found_id uuid;
      wanted text := brand_slug(brand);
    BEGIN
      IF wanted IS NULL THEN RETURN NULL; END IF;
      SELECT id INTO found_id FROM brands WHERE slug = wanted;
      IF found_id IS NOT NULL THEN RETURN found_id; END IF;
      -- Another transaction may add the same brand meanwhile: its row wins, and is read after.
      INSERT INTO brands (name, slug) VALUES (btrim(brand), wanted)
        ON CONFLICT (slug) DO NOTHING RETURNING id INTO found_id;
      IF found_id IS NULL THEN SELECT id INTO found_id FROM brands WHERE slug = wanted; END IF;
      RETURN found_id;
    END
    $$`);
  await knex.raw("ALTER TABLE products ADD COLUMN brand_id uuid REFERENCES brands (id)");
  await knex.raw("CREATE INDEX products_brand_id_idx ON products (brand_id)");
  // Everything a filter or a count reads, in one narrow index led by the category: a facet's
  // count with filters that match many products (half the catalogue, say) is an index-only scan
  // of it rather than a read of the wide product rows (descriptions, search text).
  await knex.raw(`CREATE INDEX products_filters_idx ON products (category)
    INCLUDE (brand_id, created_at, price, movement, case_diameter_mm, strap_material, dial_colour, water_resistance_m, features)`);
  await knex.raw("UPDATE products SET brand_id = brand_id_for(brand) WHERE brand_slug(brand) IS NOT NULL");
  await knex.raw(`
    CREATE FUNCTION products_brand_link() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.brand_id := brand_id_for(NEW.brand);
      RETURN NEW;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER products_brand_link BEFORE INSERT OR UPDATE OF brand, brand_id ON products
    FOR EACH ROW EXECUTE FUNCTION products_brand_link()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER products_brand_link ON products");
  await knex.raw("DROP FUNCTION products_brand_link()");
  await knex.raw("DROP INDEX products_filters_idx");
  await knex.raw("ALTER TABLE products DROP COLUMN brand_id");
  await knex.raw("DROP FUNCTION brand_id_for(text)");
  await knex.raw("DROP FUNCTION brand_slug(text)");
  await knex.raw("DROP TABLE brands");
}
