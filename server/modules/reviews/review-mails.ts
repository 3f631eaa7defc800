import { renderMail, siteLink, type MailContext } from "../mail/mail-layout";
import type { MailToQueue } from "../mail/outbox";

/** To the reviewer, when an admin publishes their review (docs/product.md, "Reviews"). */
export function reviewPublishedMail(
  context: MailContext,
  review: { email: string; name: string; productId: string; productName: string; title: string },
): MailToQueue {
  return {
    kind: "review-published",
    to: review.email,
    ...renderMail(context, {
      subject: `Your review of ${review.productName} is published`,
      greeting: `Dear ${review.name},`,
      blocks: [
        {
          kind: "paragraph",
          text: `Thank you for your review "${review.title}" of ${review.productName}. It is now on the watch's page for other shoppers to read.`,
        },
        { kind: "link", label: `See ${review.productName}`, url: siteLink(context, `/products/${review.productId}`) },
      ],
    }),
  };
}
