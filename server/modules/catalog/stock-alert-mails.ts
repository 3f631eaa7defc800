import { renderMail, siteLink, type MailContext } from "../mail/mail-layout";
import type { MailToQueue } from "../mail/outbox";
import { formatRupees } from "../shared/money.shared";

/** The one mail a waiting "notify me" request gets (docs/product.md, "Back in stock"). */
export function backInStockMail(
  context: MailContext,
  alert: { email: string; productId: string; productName: string; price: number },
  unsubscribeToken: string,
): MailToQueue {
  const unsubscribe = siteLink(context, `/unsubscribe?token=${encodeURIComponent(unsubscribeToken)}`);
  return {
    kind: "back-in-stock",
    to: alert.email,
    headers: { "List-Unsubscribe": `<${unsubscribe}>` },
    ...renderMail(context, {
      subject: `${alert.productName} is back in stock`,
      blocks: [
        {
          kind: "paragraph",
          text: `Good news: ${alert.productName} (${formatRupees(alert.price)}) is back in stock at ${context.store.name}. Stock is limited, so it may not last.`,
        },
        { kind: "link", label: `See ${alert.productName}`, url: siteLink(context, `/products/${alert.productId}`) },
        {
          kind: "paragraph",
          text: "You asked us to tell you when this watch is back; this is the only mail you get about it.",
        },
      ],
      footnote: `To stop every stock alert to ${alert.email}, open ${unsubscribe}`,
    }),
  };
}
