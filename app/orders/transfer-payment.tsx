import { Form } from "react-router";
import { formatIban } from "../../server/modules/orders/bank-transfer.shared";
import { PAYMENT_REFERENCE_MAX, PAYMENT_STATUS_LABELS } from "../../server/modules/orders/order-values.shared";
import type { PublicOrder } from "../../server/modules/orders/order.shape";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { Field, FormError } from "../lib/forms";
import { formatRupees } from "../lib/money";

type Account = { title: string; bank: string; iban: string; raastId: string | null };

/**
 * A bank-transfer order's payment on the customer's order page (docs/product.md, "Paying in
 * advance"): what to send and where, where the payment stands, and the form for the transaction
 * reference while it can still be sent (awaiting, submitted or rejected, the order not cancelled).
 */
export function TransferPayment({
  order,
  account,
  answer,
}: {
  order: PublicOrder;
  account: Account | null;
  answer?: { fieldErrors: Record<string, string>; formError?: string; values: Record<string, string> };
}) {
  const { payment } = order;
  const open = order.status === "Pending" && payment.status !== "verified";
  return (
    <section className="transfer-payment" aria-labelledby="transfer-payment">
      <h2 id="transfer-payment">Payment by bank transfer / Raast</h2>
      <p className="transfer-payment__status">
        <strong>{PAYMENT_STATUS_LABELS[payment.status]}</strong>
        {payment.status === "verified" && payment.verifiedAmount !== null && payment.verifiedAt
          ? `: ${formatRupees(payment.verifiedAmount)} received ${formatStoreDateTime(payment.verifiedAt)}. We ship your order next.`
          : ""}
        {payment.status === "submitted" && payment.reference
          ? `: reference ${payment.reference}. We ship your order once we find your transfer.`
          : ""}
        {payment.status === "rejected" && payment.rejectedReason
          ? `: ${payment.rejectedReason}. Please check your transfer and send the reference again.`
          : ""}
      </p>
      {open ? (
        <>
          <p>{`Send ${formatRupees(order.totalPrice)} to:`}</p>
          {account ? (
            <dl className="details transfer-payment__account">
              <dt>Amount</dt>
              <dd>{formatRupees(order.totalPrice)}</dd>
              <dt>Account title</dt>
              <dd>{account.title}</dd>
              <dt>Bank</dt>
              <dd>{account.bank}</dd>
              <dt>IBAN</dt>
              <dd className="transfer-payment__iban">{formatIban(account.iban)}</dd>
              {account.raastId ? (
                <>
                  <dt>Raast ID</dt>
                  <dd>{formatPakistaniMobile(account.raastId)}</dd>
                </>
              ) : null}
            </dl>
          ) : (
            <p>Please contact us for the store&apos;s account details.</p>
          )}
          <Form method="post" noValidate className="transfer-payment__form">
            <input type="hidden" name="intent" value="payment-reference" />
            <FormError message={answer?.formError} />
            <Field
              name="reference"
              label="Transaction reference (TID)"
              defaultValue={answer?.values.reference ?? ""}
              error={answer?.fieldErrors.reference}
              hint="As your bank app or receipt shows it once the transfer is done"
              required
              maxLength={PAYMENT_REFERENCE_MAX + 20}
            />
            <button type="submit" className="button">
              {payment.status === "awaiting" ? "Send reference" : "Send reference again"}
            </button>
          </Form>
        </>
      ) : null}
    </section>
  );
}
