import { formatPakistaniMobile } from "../shared/phone.shared";
import { formatRupees } from "../shared/money.shared";
import { formatIban } from "../payments/bank-transfer.shared";
import type { TextOrder } from "./confirmation-texts.shared";
import type { PaymentTextKind } from "./order-confirmation.shared";
import { shortOrderId } from "../orders/order-values.shared";
import type { MessageLanguage } from "../orders/order-values.shared";
import { textName } from "../shared/text-name.shared";

/**
 * Every word of the texts about an order paid in advance (docs/product.md, "Paying in advance"),
 * in both languages, beside the confirmation's (confirmation-texts.shared.ts, written the same
 * way): placed, with what to pay, where and by when; verified; rejected, with the admin's reason;
 * cancelled unpaid. Plain data and functions.
 */

/** What a payment text says of its order; `link` is the customer's order page (PUBLIC_URL + /my-orders/{id}). */
export type PaymentTextOrder = TextOrder & {
  /** The store's account as the order settings hold it when the text is sent; null: none set. */
  account: { title: string; bank: string; iban: string; raastId: string | null } | null;
  /** The order settings' hours to pay before an unpaid order is cancelled; null: never cancelled. */
  hoursToPay: number | null;
  /** The admin's reason for rejecting the reference (the rejection's text only). */
  rejectedReason: string | null;
};

const orderNumber = (order: TextOrder) => `#${shortOrderId(order.id)}`;

/** The account in one line, as the bank app asks for it. */
function accountLine(language: MessageLanguage, account: NonNullable<PaymentTextOrder["account"]>): string {
  const raast = account.raastId ? formatPakistaniMobile(account.raastId) : null;
  if (language === "ur") {
    return `${account.title}، ${account.bank}، IBAN ${formatIban(account.iban)}${raast ? `، یا Raast ID ${raast}` : ""}`;
  }
  return `${account.title}, ${account.bank}, IBAN ${formatIban(account.iban)}${raast ? `, or Raast ID ${raast}` : ""}`;
}

/** By when to pay, in the text's words. */
function timeToPay(language: MessageLanguage, hours: number | null): string {
  if (language === "ur") return hours === null ? "جلد از جلد" : `${hours} گھنٹوں کے اندر`;
  return hours === null ? "as soon as you can" : `within ${hours} hours`;
}

const TEXTS: Record<MessageLanguage, Record<PaymentTextKind, (order: PaymentTextOrder) => string>> = {
  en: {
    "payment-awaited": (order) =>
      `Assalam-o-Alaikum ${order.customerName}! ${order.storeName} has received your order ${orderNumber(order)} ` +
      `of ${formatRupees(order.totalPrice)}, paid in advance. Please send ${formatRupees(order.totalPrice)} ` +
      `${timeToPay("en", order.hoursToPay)} to ` +
      (order.account ? accountLine("en", order.account) : "the account shown on your order's page") +
      `, with ${orderNumber(order)} in the transfer's note, then send its transaction reference (TID) on ${order.link}`,
    "payment-verified": (order) =>
      `${order.customerName}, we received your payment of ${formatRupees(order.totalPrice)} for your ${order.storeName} ` +
      `order ${orderNumber(order)}. We are preparing it; there is nothing to pay at the door. ${order.link}`,
    "payment-rejected": (order) =>
      `${order.customerName}, we could not verify the transfer for your ${order.storeName} order ${orderNumber(order)}: ` +
      `${order.rejectedReason ?? "we did not find it"}. Please check that you sent ${formatRupees(order.totalPrice)} ` +
      `to our account, then send the transaction reference again on ${order.link}`,
    "not-paid": (order) =>
      `Your ${order.storeName} order ${orderNumber(order)} of ${formatRupees(order.totalPrice)} has been cancelled ` +
      `because its payment did not reach us in time. If you still want it, you are welcome to order again.`,
  },
  ur: {
    "payment-awaited": (order) =>
      `السلام علیکم ${order.customerName}! ${order.storeName} پر آپ کا آرڈر ${orderNumber(order)} ` +
      `(${formatRupees(order.totalPrice)}، پیشگی ادائیگی) ہمیں موصول ہو گیا ہے۔ براہِ کرم ` +
      `${timeToPay("ur", order.hoursToPay)} ${formatRupees(order.totalPrice)} اس اکاؤنٹ میں بھیجیں: ` +
      (order.account ? accountLine("ur", order.account) : "آپ کے آرڈر کے صفحے پر دیا گیا اکاؤنٹ") +
      `۔ ٹرانسفر کے نوٹ میں ${orderNumber(order)} لکھیں، پھر ٹرانزیکشن ریفرنس (TID) یہاں بھیجیں: ${order.link}`,
    "payment-verified": (order) =>
      `${order.customerName} صاحب/صاحبہ، ${order.storeName} کے آرڈر ${orderNumber(order)} کے لیے آپ کی ` +
      `${formatRupees(order.totalPrice)} کی ادائیگی ہمیں موصول ہو گئی ہے۔ آرڈر جلد بھجوا دیا جائے گا، ` +
      `ڈیلیوری پر کچھ ادا نہیں کرنا۔ ${order.link}`,
    "payment-rejected": (order) =>
      `${order.customerName} صاحب/صاحبہ، ${order.storeName} کے آرڈر ${orderNumber(order)} کی ادائیگی کی تصدیق ` +
      `نہیں ہو سکی: ${order.rejectedReason ?? "ٹرانسفر نہیں ملا"}۔ براہِ کرم دیکھ لیں کہ ` +
      `${formatRupees(order.totalPrice)} ہمارے اکاؤنٹ میں بھیجے گئے ہیں، پھر ٹرانزیکشن ریفرنس دوبارہ یہاں بھیجیں: ${order.link}`,
    "not-paid": (order) =>
      `${order.storeName} کا آرڈر ${orderNumber(order)} (${formatRupees(order.totalPrice)}) مقررہ وقت میں ادائیگی ` +
      `نہ ملنے کی وجہ سے منسوخ کر دیا گیا ہے۔ اگر آپ اب بھی یہ آرڈر چاہتے ہیں تو بلا جھجک دوبارہ آرڈر کریں۔`,
  },
};

/** The text of an order's payment message of this kind, in this language. */
export function paymentText(language: MessageLanguage, kind: PaymentTextKind, order: PaymentTextOrder): string {
  return TEXTS[language][kind]({ ...order, customerName: textName(order.customerName, language) });
}

/**
 * The WhatsApp template's body parameters, by kind, in the order the approved templates use them
 * (docs/operations.md, WHATSAPP_TEMPLATE_PAYMENT_*): {{1}} the customer's name (textName), {{2}} the order number, then
 * for `payment-awaited` {{3}} the amount, {{4}} the account, {{5}} by when, {{6}} the order's page;
 * for `payment-rejected` {{3}} the reason, {{4}} the order's page; for the others {{3}} the amount,
 * {{4}} the order's page.
 */
export function paymentTemplateParameters(
  language: MessageLanguage,
  kind: PaymentTextKind,
  order: PaymentTextOrder,
): string[] {
  const head = [textName(order.customerName, language), orderNumber(order)];
  if (kind === "payment-awaited") {
    return [
      ...head,
      formatRupees(order.totalPrice),
      order.account ? accountLine(language, order.account) : "-",
      timeToPay(language, order.hoursToPay),
      order.link,
    ];
  }
  if (kind === "payment-rejected") return [...head, order.rejectedReason ?? "-", order.link];
  return [...head, formatRupees(order.totalPrice), order.link];
}
