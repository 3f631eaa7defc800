import type { Knex } from "knex";
import type { MailContext } from "../mail/mail-layout";
import type { MailToQueue } from "../mail/outbox";
import { ConflictError, InvalidInputError, NotFoundError, type FieldError } from "../shared/errors.shared";
import { fromPaisa, proportionHalfUp, toPaisa } from "../shared/money.shared";
import { Order } from "./order.model";
import { returnRequestSchema } from "./returns.schemas";
import { validateInput } from "../shared/validation";
import { OrderReturn, OrderReturnItem } from "./order-return.model";
import type { PublicOrder } from "./order.shape";
import { returnMail } from "./return-mails";
import { returnConflict, returnableQuantities, type RefundMethod, type ReturnStatus } from "./return-values.shared";
import type { PublicReturn } from "./return.shape";

/**
 * Returns of delivered orders on their own tables (docs/product.md, "Returns"): opened by the
 * customer within 7 × 24 h of delivery, then moved on by the store. Each part runs in the
 * caller's transaction; the returns flow (server/flows/returns.ts) puts them together with the
 * stock's way back and the customer's message.
 */

/** Where a return may go from each state; anything else is a 409. */
const NEXT: Partial<Record<ReturnStatus, ReturnStatus[]>> = {
  Requested: ["Approved", "Rejected"],
  Approved: ["Received"],
};

/**
 * The customer's return of items of their order, Requested. Only the owner: to anyone else
 * (admins included, who act on returns) the order does not exist. The order row is locked, so
 * two requests at once cannot both open a return. Answers the new return's id.
 */
export async function openReturn(
  trx: Knex,
  request: {
    userId: string;
    orderId: string;
    /** The request as sent, checked once the order is found to be the customer's. */
    input: unknown;
    now: Date;
  },
): Promise<string> {
  const { userId, orderId, input, now } = request;
  const row = await Order.query(trx).findById(orderId).where("userId", userId).forUpdate().select("id");
  if (!row) throw new NotFoundError("Order not found");
  // After the owner's lock: to anyone but the owner the order does not exist, whatever they send
  // (a 404, never a 400 that would tell them it does).
  const { items, reason, note } = validateInput(returnRequestSchema, input);
  const order = await Order.query(trx)
    .findById(orderId)
    .withGraphFetched("[items(inCartOrder), returns(oldestFirst).items(inOrder)]");
  const publicOrder = order!.toPublic();
  // Nothing left to return is said by the quantities below (400), like any quantity too high.
  const conflict = returnConflict(publicOrder, now);
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
  return created.id;
}

/**
 * Moves a return on: Requested → Approved, or Rejected with the reason the customer reads;
 * Approved → Received with the refund. The return's row is locked first, so a move is made once
 * however often it is sent. Any other move is a 409. Answers the status it had.
 */
export async function moveReturn(
  trx: Knex,
  returnId: string,
  move: {
    status: ReturnStatus;
    rejectionReason?: string;
    refund?: { method: RefundMethod; reference?: string | null };
  },
): Promise<ReturnStatus> {
  const { status, rejectionReason, refund } = move;
  const current = await OrderReturn.query(trx).findById(returnId).forUpdate().select("id", "status");
  if (!current) throw new NotFoundError("Return not found");
  if (!NEXT[current.status]?.includes(status)) throw new ConflictError(transitionRefusal(current.status));
  await OrderReturn.query(trx)
    .findById(returnId)
    .patch({
      status,
      ...(status === "Rejected" ? { rejectionReason } : {}),
      ...(status === "Received" ? { refundMethod: refund!.method, refundReference: refund!.reference ?? null } : {}),
    });
  return current.status;
}

/** The return's units, as a query of `product_id` and `quantity` rows, for the catalogue's stock. */
export function returnUnits(trx: Knex, returnId: string): Knex.QueryBuilder {
  return trx("order_return_items").where({ return_id: returnId }).select("product_id", "quantity");
}

/**
 * The customer's mail about a return's change (docs/product.md, "Order mails"), as it now stands,
 * with the order's mobile number; the flow writes it in the change's transaction.
 */
export async function returnChangedMail(
  trx: Knex,
  mail: MailContext,
  returnId: string,
  status: ReturnStatus,
): Promise<{ mail: MailToQueue; phone: string | null }> {
  const row = (await OrderReturn.query(trx)
    .findById(returnId)
    .join("orders", "orders.id", "orderReturns.orderId")
    .select("order_returns.*", "orders.customerName", "orders.customerEmail", "orders.phone")
    .withGraphFetched("items(inOrder)")) as
    (OrderReturn & { customerName: string; customerEmail: string; phone: string | null }) | undefined;
  if (!row) throw new NotFoundError("Return not found");
  const orderReturn = row.toPublic();
  return {
    mail: returnMail(
      mail,
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
    phone: row.phone,
  };
}

export async function readReturn(db: Knex, returnId: string): Promise<PublicReturn> {
  const found = await OrderReturn.query(db).findById(returnId).withGraphFetched("items(inOrder)");
  if (!found) throw new NotFoundError("Return not found");
  return found.toPublic();
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
