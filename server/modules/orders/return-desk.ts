import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { NotFoundError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { validateInput } from "../shared/validation";
import { OrderReturn } from "./order-return.model";
import type { PublicReturn } from "./return.shape";
import { returnListQuerySchema } from "./returns.schemas";

export type { PublicReturn };

/** A return as the admin pages show it: what the API answers, plus the customer it belongs to. */
export type DeskReturn = PublicReturn & { customer: { name: string; email: string } };

/**
 * Returns as the admins read them (docs/product.md, "Returns"): the list, one return, the count
 * waiting for an answer. Asking for a return and moving one on are the returns flow's
 * (server/flows/returns.ts).
 */
export class ReturnDeskService {
  constructor(private readonly db: Database) {}

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
      deskRows(this.db, (query) =>
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
    const [found] = await deskRows(this.db, (query) => query.where("orderReturns.id", returnId));
    if (!found) throw new NotFoundError("Return not found");
    return found;
  }
}

async function deskRows(
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
