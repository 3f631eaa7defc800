import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import type { MailContext } from "../mail/mail-layout";
import { queueMail } from "../mail/outbox";
import { systemClock, type Clock } from "../shared/clock";
import { ConflictError, InvalidInputError, NotFoundError, type FieldError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { fromPaisa, proportionHalfUp, toPaisa } from "../shared/money.shared";
import { validateInput } from "../shared/validation";
import { Order } from "./order.model";
import { OrderReturn, OrderReturnItem } from "./order-return.model";
import type { PublicOrder } from "./order.shape";
import { returnMail } from "./return-mails";
import { returnConflict, returnRefusal, returnableQuantities, type ReturnStatus } from "./return-values.shared";
import type { PublicReturn } from "./return.shape";
import { returnListQuerySchema, returnRequestSchema, returnUpdateSchema } from "./returns.schemas";

export type { PublicReturn };

/** A return as the admin pages show it: what the API answers, plus the customer it belongs to. */
export type DeskReturn = PublicReturn & { customer: { name: string; email: string } };

/** Where a return may go from each state (docs/product.md, "Returns"); anything else is a 409. */
const NEXT: Partial<Record<ReturnStatus, ReturnStatus[]>> = {
  Requested: ["Approved", "Rejected"],
  Approved: ["Received"],
};

/**
 * Returns of delivered orders (docs/product.md, "Returns"). The customer asks within 7 × 24 h of
 * delivery (the time read from the injected clock); the store approves or rejects, then records
 * the watch's arrival with the refund, which puts the stock back once. Every change of a return
 * passes through `returnChanged`, in its transaction.
 */
export class ReturnsService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailContext,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Why the customer cannot ask for a return of this order now, or null when they can. */
  refusalFor(order: PublicOrder): string | null {
    return returnRefusal(order, this.clock());
  }

  /**
   * The customer asks to return items of their order. Only the owner: to anyone else (admins
   * included, who act on returns) the order does not exist. The order row is locked, so two
   * requests at once cannot both open a return.
   */
  async requestReturn(userId: string, orderId: string, input: unknown): Promise<PublicReturn> {
    const { items, reason, note } = validateInput(returnRequestSchema, input);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const returnId = await this.db.transaction(async (trx) => {
      const row = await Order.query(trx).findById(orderId).where("userId", userId).forUpdate().select("id");
      if (!row) throw new NotFoundError("Order not found");
      const order = await Order.query(trx)
        .findById(orderId)
        .withGraphFetched("[items(inCartOrder), returns(oldestFirst).items(inOrder)]");
      const publicOrder = order!.toPublic();
      // Nothing left to return is said by the quantities below (400), like any quantity too high.
      const conflict = returnConflict(publicOrder, this.clock());
      if (conflict) throw new ConflictError(conflict);

      const left = returnableQuantities(publicOrder);
      const lines = (order!.items ?? []).filter((item) => item.productId);
      const problems: FieldError[] = [];
      const seen = new Set<string>();
      items.forEach((wanted, index) => {
        const line = lines.find((item) => item.productId === wanted.productId);
        if (!line) {
          problems.push({ field: `items[${index}].productId`, message: "This watch is not part of the order" });
        } else if (seen.has(line.productId!)) {
          problems.push({ field: `items[${index}].productId`, message: `${line.productName} is listed twice` });
        } else if (wanted.quantity > (left.get(line.productId!) ?? 0)) {
          const most = left.get(line.productId!) ?? 0;
          problems.push({
            field: `items[${index}].quantity`,
            message:
              most === 0
                ? `${line.productName} has been returned already`
                : `You can return at most ${most} of ${line.productName}`,
          });
        }
        if (line) seen.add(line.productId!);
      });
      if (problems.length > 0) throw new InvalidInputError(problems);

      const chosen = items.map((wanted) => ({
        line: lines.find((item) => item.productId === wanted.productId)!,
        quantity: wanted.quantity,
      }));
      const created = await OrderReturn.query(trx).insert({
        orderId,
        reason,
        note: note ?? null,
        status: "Requested",
        refundAmount: fromPaisa(refundPaisa(publicOrder, chosen)),
      });
      await OrderReturnItem.query(trx).insert(
        chosen.map(({ line, quantity }, position) => ({
          returnId: created.id,
          orderItemId: line.id,
          productId: line.productId,
          productName: line.productName,
          quantity,
          unitPrice: line.unitPrice,
          position,
        })),
      );
      await this.returnChanged(trx, created.id, "Requested");
      return created.id;
    });
    return this.readReturn(this.db, returnId);
  }

  /** Every return (newest first), or those of one status, for the API. */
  async listReturns(input: unknown): Promise<{ returns: PublicReturn[]; pagination: Pagination }> {
    const { returns, pagination } = await this.listDeskReturns(input);
    return { returns: returns.map(({ customer: _customer, ...orderReturn }) => orderReturn), pagination };
  }

  /** The admin list: newest first, filtered by status, each with its customer. */
  async listDeskReturns(input: unknown): Promise<{ returns: DeskReturn[]; pagination: Pagination }> {
    const { page, limit, status } = validateInput(returnListQuerySchema, input);
    const filter = <Q extends ReturnType<typeof OrderReturn.query>>(query: Q): Q => {
      if (status) query.where("orderReturns.status", status);
      return query;
    };
    const [rows, total] = await Promise.all([
      this.deskRows(this.db, (query) =>
        filter(query)
          .limit(limit)
          .offset((page - 1) * limit),
      ),
      filter(OrderReturn.query(this.db)).resultSize(),
    ]);
    return { returns: rows, pagination: paginationOf(page, limit, total) };
  }

  /** Returns waiting for the store's answer (the dashboard's count). */
  async countRequested(): Promise<number> {
    return OrderReturn.query(this.db).where("status", "Requested").resultSize();
  }

  async getDeskReturn(returnId: string): Promise<DeskReturn> {
    if (!isUuid(returnId)) throw new NotFoundError("Return not found");
    const [found] = await this.deskRows(this.db, (query) => query.where("orderReturns.id", returnId));
    if (!found) throw new NotFoundError("Return not found");
    return found;
  }

  /**
   * Moves a return on (docs/product.md, "Returns"): Requested → Approved, or Rejected with the
   * reason the customer reads; Approved → Received with the refund, which puts the returned
   * units back in stock in the same transaction. The return's row is locked first, so the stock
   * comes back exactly once however often Received is sent. Any other move is a 409.
   */
  async updateReturn(returnId: string, input: unknown): Promise<PublicReturn> {
    const { status, rejectionReason, refund } = validateInput(returnUpdateSchema, input);
    if (!isUuid(returnId)) throw new NotFoundError("Return not found");
    await this.db.transaction(async (trx) => {
      const current = await OrderReturn.query(trx).findById(returnId).forUpdate().select("id", "status");
      if (!current) throw new NotFoundError("Return not found");
      if (!NEXT[current.status]?.includes(status)) throw new ConflictError(transitionRefusal(current.status));
      if (status === "Received") await putBackInStock(trx, returnId);
      await OrderReturn.query(trx)
        .findById(returnId)
        .patch({
          status,
          ...(status === "Rejected" ? { rejectionReason } : {}),
          ...(status === "Received"
            ? { refundMethod: refund!.method, refundReference: refund!.reference ?? null }
            : {}),
        });
      await this.returnChanged(trx, returnId, status);
    });
    return this.readReturn(this.db, returnId);
  }

  /**
   * The one place every change of a return passes, inside its transaction: requested, approved,
   * rejected, received with the refund. The customer's mail about it is written in the same
   * transaction (docs/product.md, "Order mails"), so a change that is rolled back mails nothing.
   */
  private async returnChanged(trx: Knex, returnId: string, status: ReturnStatus): Promise<void> {
    const row = (await OrderReturn.query(trx)
      .findById(returnId)
      .join("orders", "orders.id", "orderReturns.orderId")
      .select("order_returns.*", "orders.customerName", "orders.customerEmail")
      .withGraphFetched("items(inOrder)")) as
      (OrderReturn & { customerName: string; customerEmail: string }) | undefined;
    if (!row) throw new NotFoundError("Return not found");
    const orderReturn = row.toPublic();
    await queueMail(
      trx,
      returnMail(
        this.mail,
        {
          orderId: orderReturn.order,
          customerName: row.customerName,
          customerEmail: row.customerEmail,
          items: orderReturn.items.map((item) => ({ name: item.product.name, quantity: item.quantity })),
          reason: orderReturn.reason,
          note: orderReturn.note,
          rejectionReason: orderReturn.rejectionReason,
          refundAmount: orderReturn.refundAmount,
          refund: orderReturn.refund,
        },
        status,
      ),
    );
  }

  private async readReturn(db: Knex, returnId: string): Promise<PublicReturn> {
    const found = await OrderReturn.query(db).findById(returnId).withGraphFetched("items(inOrder)");
    if (!found) throw new NotFoundError("Return not found");
    return found.toPublic();
  }

  private async deskRows(
    db: Knex,
    narrow: (query: ReturnType<typeof OrderReturn.query>) => void,
  ): Promise<DeskReturn[]> {
    const query = OrderReturn.query(db)
      .modify("newestFirst")
      .join("orders", "orders.id", "orderReturns.orderId")
      .select("order_returns.*", "orders.customerName", "orders.customerEmail")
      .withGraphFetched("items(inOrder)");
    narrow(query);
    const rows = (await query) as (OrderReturn & { customerName: string; customerEmail: string })[];
    return rows.map((row) => ({ ...row.toPublic(), customer: { name: row.customerName, email: row.customerEmail } }));
  }
}

function transitionRefusal(from: ReturnStatus): string {
  if (from === "Requested") return "A requested return can only be approved or rejected";
  if (from === "Approved") return "An approved return can only be marked as received";
  return `This return is ${from.toLowerCase()}: its status can no longer change`;
}

/**
 * What the customer paid for these items (docs/product.md, "Returns"): unit price × quantity,
 * less the items' share of the order's discount, which is their share of the subtotal, rounded
 * half up to the paisa. Never more than what is left of the order's total after earlier refunds
 * (rounding each share on its own could otherwise give back a paisa more than was paid).
 */
function refundPaisa(order: PublicOrder, chosen: { line: { unitPrice: number }; quantity: number }[]): number {
  const itemsPaisa = chosen.reduce((sum, { line, quantity }) => sum + toPaisa(line.unitPrice) * quantity, 0);
  const share = proportionHalfUp(toPaisa(order.discount?.amount ?? 0), itemsPaisa, toPaisa(order.subtotal));
  const refundedBefore = order.returns
    .filter((earlier) => earlier.status !== "Rejected")
    .reduce((sum, earlier) => sum + toPaisa(earlier.refundAmount), 0);
  return Math.max(0, Math.min(itemsPaisa - share, toPaisa(order.totalPrice) - refundedBefore));
}

/** The returned units go back on the shelf (products deleted since are skipped). */
async function putBackInStock(trx: Knex, returnId: string) {
  await trx.raw(
    `UPDATE products SET stock = products.stock + returned.quantity, updated_at = now()
       FROM (SELECT product_id, SUM(quantity)::int AS quantity FROM order_return_items
              WHERE return_id = ? AND product_id IS NOT NULL GROUP BY product_id) AS returned
      WHERE products.id = returned.product_id`,
    [returnId],
  );
}
