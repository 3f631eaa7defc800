import { Form } from "react-router";
import { PHOTO_MAX_BYTES, photoFormatsText } from "../../server/modules/catalog/photo-values.shared";
import { formatIban } from "../../server/modules/payments/bank-transfer.shared";
import {
  PAYMENT_REFERENCE_MAX,
  PAYMENT_STATUS_LABELS,
  SCREENSHOT_FIELD,
  paymentScreenshotUrl,
} from "../../server/modules/orders/order-values.shared";
import type { PublicOrder } from "../../server/modules/orders/order.shape";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { photoAccept } from "../admin/photo-field";
import { Field, FormError } from "../lib/forms";
import { formatRupees } from "../lib/money";

type Account = { title: string; bank: string; iban: string; raastId: string | null };

/**
 * A bank-transfer order's payment on the customer's order page (docs/product.md, "Paying in
 * advance"): what to send and where, where the payment stands, and the form for the transaction
 * reference while it can still be sent (awaiting, submitted or rejected, the order not cancelled),
 * with an optional screenshot of the transfer (multipart, so it works without JavaScript).
 */
export function TransferPayment({
  order,
  account,
  answer,
  photoFormats,
}: {
  order: PublicOrder;
  account: Account | null;
  answer?: { fieldErrors: Record<string, string>; formError?: string; values: Record<string, string> };
  photoFormats: string[];
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
      {payment.screenshot ? (
        <p>
          <a href={paymentScreenshotUrl(order._id)}>Your screenshot of the transfer</a>
          {" (only you and the store see it)"}
        </p>
      ) : null}
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
          <Form method="post" encType="multipart/form-data" noValidate className="transfer-payment__form">
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
            <ScreenshotField
              formats={photoFormats}
              error={answer?.fieldErrors[SCREENSHOT_FIELD]}
              replaces={payment.screenshot}
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

/**
 * The transfer's screenshot, optional: a plain file input (a browser cannot be handed a file
 * back, so after a refusal the reference is kept and the screenshot chosen again).
 */
function ScreenshotField({ formats, error, replaces }: { formats: string[]; error?: string; replaces: boolean }) {
  const id = `field-${SCREENSHOT_FIELD}`;
  return (
    <div className="field">
      <label htmlFor={id}>Screenshot of the transfer (optional)</label>
      <input
        id={id}
        name={SCREENSHOT_FIELD}
        type="file"
        accept={photoAccept(formats)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? `${id}-error` : "", `${id}-hint`].join(" ").trim()}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {`${photoFormatsText(formats)}, at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB. Only you and the store see it` +
          (replaces ? "; a new one replaces the one you sent." : ".")}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
