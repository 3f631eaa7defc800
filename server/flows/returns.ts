import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import { returnUnits as putBackUnits } from "../modules/catalog/stock";
import type { MailContext } from "../modules/mail/mail-layout";
import type { ReturnStatus } from "../modules/orders/return-values.shared";
import type { PublicReturn } from "../modules/orders/return.shape";
import { moveReturn, openReturn, readReturn, returnChangedMail, returnUnits } from "../modules/orders/returns";
import { returnUpdateSchema } from "../modules/orders/returns.schemas";
import { systemClock, type Clock } from "../modules/shared/clock";
import { NotFoundError } from "../modules/shared/errors.shared";
import { validateInput } from "../modules/shared/validation";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import type { Knex } from "knex";
import { alertRestocked } from "./stock-alerts";

/**
 * Returns of delivered orders (docs/product.md, "Returns"): the customer asks, the store approves
 * or rejects, then records the watch's arrival with the refund, which puts the stock back once.
 * Every change writes the customer's message in its transaction, so a change that is rolled back
 * tells nobody.
 */
export class ReturnsFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: { mail: MailContext; messages: MessageChannels; clock?: Clock },
  ) {}

  /** The customer asks to return items of their order (the time read from the injected clock). */
  async requestReturn(userId: string, orderId: string, input: unknown): Promise<PublicReturn> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = (this.deps.clock ?? systemClock)();
    const returnId = await this.db.transaction(async (trx) => {
      const opened = await openReturn(trx, { userId, orderId, input, now });
      await this.tellCustomer(trx, opened, "Requested");
      return opened;
    });
    return readReturn(this.db, returnId);
  }

  /**
   * Moves a return on: Requested → Approved or Rejected (with the reason the customer reads);
   * Approved → Received with the refund, which puts the returned units back in stock in the same
   * transaction, exactly once however often Received is sent; products that were sold out have
   * their waiting stock alerts mailed with it.
   */
  async updateReturn(returnId: string, input: unknown): Promise<PublicReturn> {
    const { status, rejectionReason, refund } = validateInput(returnUpdateSchema, input);
    if (!isUuid(returnId)) throw new NotFoundError("Return not found");
    await this.db.transaction(async (trx) => {
      await moveReturn(trx, returnId, { status, rejectionReason, refund });
      if (status === "Received") {
        await alertRestocked(trx, this.deps.mail, await putBackUnits(trx, returnUnits(trx, returnId)));
      }
      await this.tellCustomer(trx, returnId, status);
    });
    return readReturn(this.db, returnId);
  }

  private async tellCustomer(trx: Knex, returnId: string, status: ReturnStatus): Promise<void> {
    const { mail, phone } = await returnChangedMail(trx, this.deps.mail, returnId, status);
    await this.deps.messages.queue(trx, [messageOf(mail, phone)]);
  }
}
