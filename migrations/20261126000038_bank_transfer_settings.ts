import type { Knex } from "knex";

/**
 * The store's bank account for advance payments (docs/product.md, "Paying in advance"), in the
 * order settings' row beside the cash-on-delivery rules, so an admin changes them without a
 * restart: account title, bank, IBAN and Raast ID (NULL: not set; the method is offered only
 * when title, bank and IBAN are), an optional discount percent for paying in advance, and the
 * hours after which an unpaid transfer order is cancelled (default 48; NULL: never).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("order_rules", (t) => {
    t.string("bank_account_title", 100);
    t.string("bank_name", 100);
    t.string("bank_iban", 24);
    t.string("raast_id", 13);
    t.decimal("bank_transfer_discount_percent", 5, 2);
    t.integer("unpaid_transfer_hours").defaultTo(48);
    t.check("bank_iban ~ '^PK[0-9]{2}[A-Z]{4}[0-9]{16}$'", [], "order_rules_bank_iban_valid");
    t.check(
      "bank_transfer_discount_percent > 0 AND bank_transfer_discount_percent < 100",
      [],
      "order_rules_bank_transfer_discount_percent_valid",
    );
    t.check("unpaid_transfer_hours >= 1", [], "order_rules_unpaid_transfer_hours_positive");
  });
  await knex("order_rules").where({ id: 1 }).update({ unpaid_transfer_hours: 48 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("order_rules", (t) => {
    t.dropChecks([
      "order_rules_bank_iban_valid",
      "order_rules_bank_transfer_discount_percent_valid",
      "order_rules_unpaid_transfer_hours_positive",
    ]);
    t.dropColumns(
      "bank_account_title",
      "bank_name",
      "bank_iban",
      "raast_id",
      "bank_transfer_discount_percent",
      "unpaid_transfer_hours",
    );
  });
}
