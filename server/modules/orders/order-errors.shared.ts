import { ConflictError } from "../shared/errors.shared";

/**
 * The admin pages ship an order that was not confirmed by phone only when asked a second time
 * (docs/product.md, "Confirming an order by phone"): the page catches this and asks. A conflict
 * (409), so anything that does not ask still shows it as a refusal.
 */
export class NotConfirmedByPhoneError extends ConflictError {
  constructor() {
    super("This order has not been confirmed by phone");
  }
}
