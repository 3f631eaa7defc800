import crypto from "node:crypto";
import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import type { MailContext } from "../mail/mail-layout";
import { queueMail } from "../mail/outbox";
import { NotFoundError, RuleViolationError } from "../shared/errors.shared";
import type { RateLimiter, RateLimitRule } from "../shared/rate-limiter";
import { validateInput } from "../shared/validation";
import { cancelStockAlertSchema, notifyMeSchema, unsubscribeSchema } from "./catalog.schemas";
import { IN_STOCK_NOW, UNSUBSCRIBE_LINK_INVALID } from "./catalog-values.shared";
import { Product } from "./product.model";
import { backInStockMail } from "./stock-alert-mails";
import { StockAlert } from "./stock-alert.model";

/** Requests for stock alerts: per client address and per email, in an hour (docs/product.md, "Back in stock"). */
export const NOTIFY_PER_IP: RateLimitRule<"address"> = {
  name: "notify-ip",
  per: "address",
  limit: 20,
  windowSeconds: 60 * 60,
};
export const NOTIFY_PER_EMAIL: RateLimitRule<"account"> = {
  name: "notify-email",
  per: "account",
  limit: 10,
  windowSeconds: 60 * 60,
};
export const TOO_MANY_ALERTS = "Too many alert requests. Please try again later.";
export { IN_STOCK_NOW, UNSUBSCRIBE_LINK_INVALID };

/** A waiting alert as its owner sees it on the profile. */
export type WaitingAlert = { _id: string; product: { _id: string; name: string }; createdAt: string };

/** How many due alerts one transaction of the sweep (queueDue) turns into mails. */
const SWEEP_BATCH = 200;

function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * "Notify me when it's back" (docs/product.md, "Back in stock"): a shopper leaves an address on
 * an out-of-stock product; when its stock goes above zero, by whatever path, the address gets
 * one mail with a link that stops every alert to it.
 */
export class StockAlertsService {
  constructor(
    private readonly db: Database,
    private readonly rateLimiter: RateLimiter,
    private readonly mail: MailContext,
  ) {}

  /**
   * Records a request for one product. A signed-in customer's own address is used; a second
   * request for the same product and address is accepted and changes nothing. Refused for an
   * unknown product (404), too many requests (429), or a product in stock (400).
   */
  async requestAlert(
    productId: string,
    input: unknown,
    client: { ip: string; email?: string },
  ): Promise<{ email: string; productName: string }> {
    const { email } = client.email ? { email: client.email.toLowerCase() } : validateInput(notifyMeSchema, input);
    if (!isUuid(productId)) throw new NotFoundError("Product not found");
    const known = await Product.query(this.db).findById(productId).select("id", "name");
    if (!known) throw new NotFoundError("Product not found");
    await this.rateLimiter.hit(NOTIFY_PER_IP, { address: client.ip }, TOO_MANY_ALERTS);
    await this.rateLimiter.hit(NOTIFY_PER_EMAIL, { account: email }, TOO_MANY_ALERTS);
    await this.db.transaction(async (trx) => {
      // FOR SHARE: a restock waits for this request to commit, so its trigger sees the new row.
      const product = await Product.query(trx).findById(productId).forShare().select("id", "stock");
      if (!product) throw new NotFoundError("Product not found");
      if (product.stock > 0) throw new RuleViolationError(IN_STOCK_NOW);
      await StockAlert.query(trx).insert({ productId, email }).onConflict().ignore();
    });
    return { email, productName: known.name };
  }

  /** The signed-in customer's waiting alerts (by the account's address), oldest first. */
  async listWaiting(email: string): Promise<WaitingAlert[]> {
    const rows = (await StockAlert.query(this.db)
      .join("products", "products.id", "stock_alerts.productId")
      .where("stock_alerts.email", email)
      .whereIn("stock_alerts.state", ["waiting", "due"])
      .orderBy("stock_alerts.createdAt")
      .select(
        "stock_alerts.id",
        "stock_alerts.createdAt",
        "products.id as productId",
        "products.name as productName",
      )) as (StockAlert & {
      productName: string;
    })[];
    return rows.map((row) => ({
      _id: row.id,
      product: { _id: row.productId, name: row.productName },
      createdAt: new Date(row.createdAt).toISOString(),
    }));
  }

  /** Cancels one waiting alert of this address; answers the product's name. */
  async cancelAlert(email: string, input: unknown): Promise<string> {
    const { alertId } = validateInput(cancelStockAlertSchema, input);
    if (!isUuid(alertId)) throw new NotFoundError("Alert not found");
    const alert = (await StockAlert.query(this.db)
      .join("products", "products.id", "stock_alerts.productId")
      .where("stock_alerts.id", alertId)
      .where("stock_alerts.email", email)
      .whereIn("stock_alerts.state", ["waiting", "due"])
      .first()
      .select("stock_alerts.id", "products.name as productName")) as (StockAlert & { productName: string }) | undefined;
    if (!alert) throw new NotFoundError("Alert not found");
    await StockAlert.query(this.db)
      .findById(alert.id)
      .whereIn("state", ["waiting", "due"])
      .patch({ state: "cancelled", cancelledAt: StockAlert.fn.now() as unknown as Date });
    return alert.productName;
  }

  /** The address an unsubscribe link speaks for, or 400 when the link is not one of ours. */
  async unsubscribeAddress(input: unknown): Promise<string> {
    const { token } = validateInput(unsubscribeSchema, input);
    const alert = await StockAlert.query(this.db)
      .where("unsubscribeTokenHash", hashToken(token))
      .first()
      .select("email");
    if (!alert) throw new RuleViolationError(UNSUBSCRIBE_LINK_INVALID);
    return alert.email;
  }

  /** The unsubscribe link's button: every alert still waiting for that address is cancelled. */
  async unsubscribe(input: unknown): Promise<{ email: string; cancelled: number }> {
    const email = await this.unsubscribeAddress(input);
    const cancelled = await StockAlert.query(this.db)
      .where("email", email)
      .whereIn("state", ["waiting", "due"])
      .patch({ state: "cancelled", cancelledAt: StockAlert.fn.now() as unknown as Date });
    return { email, cancelled };
  }

  /**
   * Turns due alerts (a restock by SQL or any other path that did not do it itself) into mails,
   * a batch a transaction until a batch is not full: the job queue's "stock-alerts-due" task,
   * which the restock trigger adds (migration 20261125000026).
   */
  async queueDue(): Promise<number> {
    let mailed = 0;
    for (;;) {
      const pass = await this.db.transaction((trx) => mailDueStockAlerts(trx, this.mail));
      mailed += pass.mailed;
      if (pass.read < SWEEP_BATCH) return mailed;
    }
  }
}

/**
 * An account's address changed (a confirmed email change, docs/product.md "Back in stock"): the
 * alerts still waiting for the old address follow the account to the new one, in the caller's
 * transaction. Where the new address already waits for the same product, the old address's alert
 * is cancelled instead (one waiting alert per product and address). Alerts already mailed keep
 * their address, so an unsubscribe link sent to the old address never speaks for the new one.
 */
export async function moveWaitingStockAlerts(trx: Knex, from: string, to: string): Promise<void> {
  await trx.raw(
    `UPDATE stock_alerts SET email = ?
      WHERE email = ? AND state IN ('waiting', 'due')
        AND NOT EXISTS (SELECT 1 FROM stock_alerts kept
                         WHERE kept.product_id = stock_alerts.product_id AND kept.email = ?
                           AND kept.state IN ('waiting', 'due'))`,
    [to, from, to],
  );
  await StockAlert.query(trx)
    .where("email", from)
    .whereIn("state", ["waiting", "due"])
    .patch({ state: "cancelled", cancelledAt: StockAlert.fn.now() as unknown as Date });
}

/**
 * Every due alert (of these products, or any) becomes one mail in the outbox, in the caller's
 * transaction, and is marked notified. The database marked them due when the stock went from 0
 * to more (migration 20261123000015), so whatever raised the stock, a service calls this in the
 * same transaction and the mail is written with the restock; SKIP LOCKED leaves alerts that
 * another transaction is handling to it. An alert whose product is out of stock again by the
 * time it is read waits for the next restock.
 */
export async function queueDueStockAlerts(trx: Knex, mail: MailContext, productIds?: string[]): Promise<number> {
  return (await mailDueStockAlerts(trx, mail, productIds)).mailed;
}

/** queueDueStockAlerts, also saying how many due alerts it read (a sweep goes on while batches are full). */
async function mailDueStockAlerts(
  trx: Knex,
  mail: MailContext,
  productIds?: string[],
): Promise<{ read: number; mailed: number }> {
  const { rows } = await trx.raw<{
    rows: { id: string; email: string; productId: string; name: string; price: number; stock: number }[];
  }>(
    `SELECT a.id, a.email, p.id AS "productId", p.name, p.price, p.stock
       FROM stock_alerts a JOIN products p ON p.id = a.product_id
      WHERE a.state = 'due' ${productIds ? "AND a.product_id = ANY(?::uuid[])" : ""}
      ORDER BY a.created_at, a.id
      ${productIds ? "" : `LIMIT ${SWEEP_BATCH}`}
      FOR UPDATE OF a SKIP LOCKED`,
    productIds ? [productIds] : [],
  );
  const read = rows.length;
  if (read === 0) return { read, mailed: 0 };
  const inStock = rows.filter((row) => row.stock > 0);
  const soldOutAgain = rows.filter((row) => row.stock === 0).map((row) => row.id);
  if (soldOutAgain.length > 0) await StockAlert.query(trx).whereIn("id", soldOutAgain).patch({ state: "waiting" });
  if (inStock.length === 0) return { read, mailed: 0 };
  const tokens = inStock.map(() => crypto.randomBytes(24).toString("base64url"));
  await trx.raw(
    `UPDATE stock_alerts SET state = 'notified', notified_at = now(), unsubscribe_token_hash = given.token_hash
       FROM unnest(?::uuid[], ?::text[]) AS given(id, token_hash)
      WHERE stock_alerts.id = given.id`,
    [inStock.map((row) => row.id), tokens.map(hashToken)],
  );
  await queueMail(
    trx,
    inStock.map((row, index) =>
      backInStockMail(
        mail,
        { email: row.email, productId: row.productId, productName: row.name, price: row.price },
        tokens[index]!,
      ),
    ),
  );
  return { read, mailed: inStock.length };
}
