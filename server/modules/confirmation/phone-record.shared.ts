/**
 * Each phone's record with the store (docs/product.md, "Each phone's record"): its orders grouped
 * by the stored mobile number (+923…), across accounts and guests. Plain data and words, for the
 * admin pages' browser bundle too.
 */
export type PhoneRecord = {
  delivered: number;
  /** Parcels the courier brought back (returned to sender). */
  returned: number;
  /** Cancelled by the customer: themselves under My Orders, or from the confirmation message. */
  cancelledByCustomer: number;
  /** Cancelled by the store because nobody answered the confirmation in time. */
  notConfirmed: number;
  /** Pending or Shipped: not delivered, not cancelled. */
  open: number;
};

export const EMPTY_PHONE_RECORD: PhoneRecord = {
  delivered: 0,
  returned: 0,
  cancelledByCustomer: 0,
  notConfirmed: 0,
  open: 0,
};

/** "3 delivered · 1 returned": delivered always, the rest when there are any. */
export function phoneRecordText(record: PhoneRecord): string {
  return [
    `${record.delivered} delivered`,
    ...(record.returned > 0 ? [`${record.returned} returned`] : []),
    ...(record.cancelledByCustomer > 0 ? [`${record.cancelledByCustomer} cancelled by the customer`] : []),
    ...(record.notConfirmed > 0 ? [`${record.notConfirmed} not confirmed`] : []),
    ...(record.open > 0 ? [`${record.open} open`] : []),
  ].join(" · ");
}
