import type { Knex } from "knex";

/**
 * Kept daily figures for the reports (docs/decisions/2026-11-26-report-speed.md): per day in
 * Pakistan, the counts and sums each report adds up, written by the report-rollups job
 * (server/modules/reports/report-rollups.ts, which holds the SQL that fills each table) for closed
 * days. A day is read from these tables only while it is listed in report_rolled_days and not in
 * report_dirty_days; any other day is computed from the orders when a report asks.
 *
 * A change to an order, one of its lines or a return marks the days it touches dirty in the same
 * transaction, by triggers: one rule in the database that every code path (the admin desk, the
 * courier sync, a refund, a future one) goes through without knowing of it. The triggers only add
 * a row (no counter is updated, so no row is shared by concurrent checkouts); today is live anyway
 * and is not marked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE report_rolled_days (
      day date PRIMARY KEY,
      rolled_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE report_dirty_days (
      id bigserial PRIMARY KEY,
      day date NOT NULL
    );
    CREATE INDEX report_dirty_days_day_idx ON report_dirty_days (day);

    CREATE TABLE report_day_money (
      day date NOT NULL,
      payment_method text NOT NULL,
      orders integer NOT NULL,
      cancelled_orders integer NOT NULL,
      collected_amount numeric NOT NULL,
      refunded_amount numeric NOT NULL,
      to_collect_amount numeric NOT NULL,
      cancelled_amount numeric NOT NULL
    );
    CREATE INDEX report_day_money_day_idx ON report_day_money (day);

    CREATE TABLE report_day_outcomes (
      day date NOT NULL,
      dimension text NOT NULL CHECK (dimension IN ('city', 'courier')),
      name text NOT NULL,
      orders integer NOT NULL,
      delivered integer NOT NULL,
      returned integer NOT NULL,
      cancelled integer NOT NULL,
      open integer NOT NULL
    );
    CREATE INDEX report_day_outcomes_day_idx ON report_day_outcomes (dimension, day);

    CREATE TABLE report_day_products (
      day date NOT NULL,
      product_id uuid,
      deleted_name text,
      lines integer NOT NULL,
      delivered integer NOT NULL,
      returned integer NOT NULL,
      cancelled integer NOT NULL,
      open integer NOT NULL,
      sold_lines integer NOT NULL,
      sold_name text,
      units integer NOT NULL,
      revenue numeric NOT NULL
    );
    CREATE INDEX report_day_products_day_idx ON report_day_products (day);

    CREATE TABLE report_day_confirmations (
      day date NOT NULL,
      channel text,
      asked integer NOT NULL,
      confirmed integer NOT NULL,
      cancelled_by_customer integer NOT NULL
    );
    CREATE INDEX report_day_confirmations_day_idx ON report_day_confirmations (day);

    CREATE TABLE report_day_discounts (
      day date NOT NULL,
      code text NOT NULL,
      uses integer NOT NULL,
      amount_given numeric NOT NULL
    );
    CREATE INDEX report_day_discounts_day_idx ON report_day_discounts (day);

    CREATE TABLE report_day_returns (
      day date NOT NULL,
      reason text NOT NULL,
      returns integer NOT NULL,
      received integer NOT NULL,
      refunded numeric NOT NULL
    );
    CREATE INDEX report_day_returns_day_idx ON report_day_returns (day);

    -- The median time to confirm is not a sum of days: it stays live, read from this index alone.
    CREATE INDEX orders_confirmed_created_idx ON orders (created_at) INCLUDE (confirmation_at)
      WHERE confirmation_status = 'confirmed' AND phone IS NOT NULL;

    CREATE FUNCTION report_mark_day(moment timestamptz) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF moment IS NOT NULL
         AND (moment AT TIME ZONE 'Asia/Karachi')::date < (clock_timestamp() AT TIME ZONE 'Asia/Karachi')::date THEN
        INSERT INTO report_dirty_days (day) VALUES ((moment AT TIME ZONE 'Asia/Karachi')::date);
      END IF;
    END $$;

    CREATE FUNCTION report_mark_order_day() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM report_mark_day(NEW.created_at);
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM report_mark_day(OLD.created_at);
      ELSE
        PERFORM report_mark_day(OLD.created_at);
        IF NEW.created_at IS DISTINCT FROM OLD.created_at THEN PERFORM report_mark_day(NEW.created_at); END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER orders_report_day AFTER INSERT OR UPDATE OR DELETE ON orders
      FOR EACH ROW EXECUTE FUNCTION report_mark_order_day();

    -- A line counts on its order's day; a return on its own day (the returns per reason) and on
    -- its order's (the refunds taken off the order's money).
    CREATE FUNCTION report_mark_order_of(changed_order uuid) RETURNS void LANGUAGE sql AS $$
      SELECT report_mark_day(orders.created_at) FROM orders WHERE orders.id = changed_order
    $$;
    CREATE FUNCTION report_mark_line_day() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        PERFORM report_mark_order_of(OLD.order_id);
        IF TG_TABLE_NAME = 'order_returns' THEN PERFORM report_mark_day(OLD.created_at); END IF;
      END IF;
      IF TG_OP <> 'DELETE' THEN
        IF TG_OP = 'INSERT' OR NEW.order_id IS DISTINCT FROM OLD.order_id THEN
          PERFORM report_mark_order_of(NEW.order_id);
        END IF;
        IF TG_TABLE_NAME = 'order_returns' THEN PERFORM report_mark_day(NEW.created_at); END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER order_items_report_day AFTER INSERT OR UPDATE OR DELETE ON order_items
      FOR EACH ROW EXECUTE FUNCTION report_mark_line_day();
    CREATE TRIGGER order_returns_report_day AFTER INSERT OR UPDATE OR DELETE ON order_returns
      FOR EACH ROW EXECUTE FUNCTION report_mark_line_day();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER order_returns_report_day ON order_returns;
    DROP TRIGGER order_items_report_day ON order_items;
    DROP TRIGGER orders_report_day ON orders;
    DROP FUNCTION report_mark_line_day();
    DROP FUNCTION report_mark_order_of(uuid);
    DROP FUNCTION report_mark_order_day();
    DROP FUNCTION report_mark_day(timestamptz);
    DROP INDEX orders_confirmed_created_idx;
    DROP TABLE report_day_returns, report_day_discounts, report_day_confirmations, report_day_products,
      report_day_outcomes, report_day_money, report_dirty_days, report_rolled_days;
  `);
}
