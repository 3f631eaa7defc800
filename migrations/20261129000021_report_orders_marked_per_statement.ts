import type { Knex } from "knex";

/**
 * An order's change marks its day once per statement, not once per order (as migration
 * 20261128000020 did for new order lines; docs/decisions/2026-11-26-report-speed.md). Migration
 * 20261127000010's row trigger called report_mark_day for every order written: the bench's seed of
 * 100,000 back-dated orders, written by one INSERT and one UPDATE, wrote a mark per order each
 * time, for 365 days. The statements' triggers read their transition tables and mark each closed
 * day once, by the same rule as report_mark_day (a day in Pakistan before today, by the
 * database's clock): an update marks the days its orders had and the days they have.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Each branch names only the transition tables its event has: PL/pgSQL plans a statement
    -- when it first runs it.
    CREATE FUNCTION report_mark_days_of_orders() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO report_dirty_days (day)
        SELECT DISTINCT placed.day FROM new_orders
          JOIN LATERAL (SELECT (new_orders.created_at AT TIME ZONE 'Asia/Karachi')::date AS day) placed ON true
         WHERE placed.day < (clock_timestamp() AT TIME ZONE 'Asia/Karachi')::date;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO report_dirty_days (day)
        SELECT DISTINCT placed.day FROM old_orders
          JOIN LATERAL (SELECT (old_orders.created_at AT TIME ZONE 'Asia/Karachi')::date AS day) placed ON true
         WHERE placed.day < (clock_timestamp() AT TIME ZONE 'Asia/Karachi')::date;
      ELSE
        INSERT INTO report_dirty_days (day)
        SELECT DISTINCT placed.day
          FROM (SELECT created_at FROM old_orders UNION ALL SELECT created_at FROM new_orders) changed
          JOIN LATERAL (SELECT (changed.created_at AT TIME ZONE 'Asia/Karachi')::date AS day) placed ON true
         WHERE placed.day < (clock_timestamp() AT TIME ZONE 'Asia/Karachi')::date;
      END IF;
      RETURN NULL;
    END $$;
    DROP TRIGGER orders_report_day ON orders;
    CREATE TRIGGER orders_report_day_added AFTER INSERT ON orders
      REFERENCING NEW TABLE AS new_orders
      FOR EACH STATEMENT EXECUTE FUNCTION report_mark_days_of_orders();
    CREATE TRIGGER orders_report_day_changed AFTER UPDATE ON orders
      REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
      FOR EACH STATEMENT EXECUTE FUNCTION report_mark_days_of_orders();
    CREATE TRIGGER orders_report_day_removed AFTER DELETE ON orders
      REFERENCING OLD TABLE AS old_orders
      FOR EACH STATEMENT EXECUTE FUNCTION report_mark_days_of_orders();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER orders_report_day_removed ON orders;
    DROP TRIGGER orders_report_day_changed ON orders;
    DROP TRIGGER orders_report_day_added ON orders;
    CREATE TRIGGER orders_report_day AFTER INSERT OR UPDATE OR DELETE ON orders
      FOR EACH ROW EXECUTE FUNCTION report_mark_order_day();
    DROP FUNCTION report_mark_days_of_orders();
  `);
}
