import type { Knex } from "knex";

/**
 * An order's new lines mark its day once per statement, not once per line (bench/README.md,
 * "Checkout's cost"). Migration 20261127000010's row trigger called report_mark_order_of, a SQL
 * function that PostgreSQL plans again at every call, for each line checkout writes: about 1 ms
 * of PostgreSQL per line under the bench's load, to mark nothing, since an order placed now
 * counts on today, which is never marked. The statement's trigger reads the orders of all its new
 * lines in one query and marks each day through the same report_mark_day; lines changed or
 * removed (rare: admin edits, a product deleted) keep the row trigger.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION report_mark_new_lines_days() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM report_mark_day(orders.created_at)
         FROM orders WHERE orders.id IN (SELECT DISTINCT new_lines.order_id FROM new_lines);
      RETURN NULL;
    END $$;
    DROP TRIGGER order_items_report_day ON order_items;
    CREATE TRIGGER order_items_report_day AFTER UPDATE OR DELETE ON order_items
      FOR EACH ROW EXECUTE FUNCTION report_mark_line_day();
    CREATE TRIGGER order_items_report_day_added AFTER INSERT ON order_items
      REFERENCING NEW TABLE AS new_lines
      FOR EACH STATEMENT EXECUTE FUNCTION report_mark_new_lines_days();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER order_items_report_day_added ON order_items;
    DROP TRIGGER order_items_report_day ON order_items;
    CREATE TRIGGER order_items_report_day AFTER INSERT OR UPDATE OR DELETE ON order_items
      FOR EACH ROW EXECUTE FUNCTION report_mark_line_day();
    DROP FUNCTION report_mark_new_lines_days();
  `);
}
