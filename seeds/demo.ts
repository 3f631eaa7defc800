import type { Knex } from "knex";
import { hashPassword } from "../server/modules/accounts/passwords";
import { demoAccounts } from "./demo-accounts";
import { demoWatches } from "./data/demo-watches";
import { demoWatchSpecs } from "./data/demo-watch-specs";
import { demoBrandTexts } from "./data/demo-brands";

/** A demo account: an IBAN of the right form, not a real account. */
export const DEMO_BANK_ACCOUNT = {
  bankAccountTitle: "Waqt Demo Store",
  bankName: "Demo Bank",
  bankIban: "PK00DEMO0000000000000000",
  raastId: "+923000000000",
};

export type SeedReport = { products: number; users: number };

/**
 * The demo store: a catalogue of watches and two accounts. Idempotent: a product (by name) or an
 * account (by email) that already exists is left as it is, so running it twice adds nothing.
 */
export async function seedDemoData(knex: Knex): Promise<SeedReport> {
  return knex.transaction(async (trx) => {
    const existingNames = new Set(
      (
        await trx("products")
          .select("name")
          .whereIn(
            "name",
            demoWatches.map((watch) => watch.name),
          )
      ).map((row: { name: string }) => row.name),
    );
    // Spread creation times so "Newest First" has a stable, meaningful order.
    const now = Date.now();
    const newProducts = demoWatches
      .map((watch, index) => ({ watch, createdAt: new Date(now - (demoWatches.length - index) * 3_600_000) }))
      .filter(({ watch }) => !existingNames.has(watch.name))
      .map(({ watch, createdAt }) => ({
        name: watch.name,
        brand: watch.brand,
        description: watch.description,
        price: watch.price,
        category: watch.category,
        stock: watch.stock,
        imageUrl: watch.imageUrl,
        ...demoWatchSpecs[watch.slug],
        createdAt,
        updatedAt: createdAt,
      }));
    if (newProducts.length > 0) await trx("products").insert(newProducts);
    // The products' trigger made their brands (migration 20261126000032); an admin's text is kept.
    for (const [slug, description] of Object.entries(demoBrandTexts)) {
      await trx("brands").where({ slug, description: "" }).update({ description });
    }

    let users = 0;
    for (const account of Object.values(demoAccounts)) {
      const exists = await trx("users").where("email", account.email).first("id");
      if (exists) continue;
      const { password, ...fields } = account;
      // Marked as the seed's: the start finds them by this, whatever their email becomes.
      await trx("users").insert({ ...fields, passwordHash: await hashPassword(password), passwordFromSeed: true });
      users += 1;
    }
    // Demo details of the store's bank account, so a new store offers paying in advance
    // (docs/product.md, "Paying in advance"); a store whose admin set or cleared them keeps its own.
    await trx("order_rules")
      .where({ id: 1 })
      .whereNull("bankAccountTitle")
      .whereNull("bankName")
      .whereNull("bankIban")
      .whereNull("updatedByName")
      .update(DEMO_BANK_ACCOUNT);
    return { products: newProducts.length, users };
  });
}

/** True for a database that has never held a catalogue or an account: the first start. */
export async function isEmptyStore(knex: Knex): Promise<boolean> {
  const [{ count: products }] = await knex("products").count<{ count: number }[]>("* as count");
  const [{ count: users }] = await knex("users").count<{ count: number }[]>("* as count");
  return Number(products) === 0 && Number(users) === 0;
}
