import { renderMail, siteLink, type MailContext } from "../mail/mail-layout";
import type { MailToQueue } from "../mail/outbox";
import { formatStoreDateTime } from "../shared/store-dates.shared";

/** Mails of the accounts module (docs/product.md, "Accounts" and "Mail"). */

/** The link to choose a new password: it carries the secret, so the mail's body is purged once sent. */
export function passwordResetMail(
  context: MailContext,
  user: { name: string; email: string },
  token: string,
  options: { byAdmin: boolean; validMinutes: number },
): MailToQueue {
  const link = siteLink(context, `/reset-password?token=${encodeURIComponent(token)}`);
  const store = context.store.name;
  return {
    kind: "password-reset",
    to: user.email,
    secret: true,
    ...renderMail(context, {
      subject: `Reset your ${store} password`,
      greeting: `Dear ${user.name},`,
      blocks: [
        {
          kind: "paragraph",
          text: options.byAdmin
            ? `Our team sent you this link so that you can choose a new password for your ${store} account (${user.email}).`
            : `Someone (we hope you) asked to reset the password of your ${store} account (${user.email}).`,
        },
        { kind: "link", label: "Choose a new password", url: link },
        {
          kind: "paragraph",
          text: `The link works once, within ${options.validMinutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
        },
      ],
    }),
  };
}

/** After a change or a reset: the owner hears of it, and how to get the account back if it was not them. */
export function passwordChangedMail(
  context: MailContext,
  user: { name: string; email: string },
  at: Date,
  how: "changed" | "reset",
): MailToQueue {
  const store = context.store.name;
  return {
    kind: "password-changed",
    to: user.email,
    ...renderMail(context, {
      subject: `Your ${store} password was changed`,
      greeting: `Dear ${user.name},`,
      blocks: [
        {
          kind: "paragraph",
          text: `The password of your ${store} account (${user.email}) was ${how === "reset" ? "reset with a link we mailed you" : "changed"} on ${formatStoreDateTime(at)} (Pakistan time). Every other device signed in to your account was signed out.`,
        },
        {
          kind: "paragraph",
          text: `If this was not you, choose a new password at once and tell us at ${context.store.email} or ${context.store.phone}.`,
        },
        { kind: "link", label: "Reset your password", url: siteLink(context, "/forgot-password") },
      ],
    }),
  };
}

/**
 * To the new address of an email change: the link that makes it the account's. It carries the
 * secret, so the mail's body is purged once sent; the account keeps its address until it is used.
 */
export function emailChangeLinkMail(
  context: MailContext,
  user: { name: string },
  newEmail: string,
  token: string,
  options: { validHours: number },
): MailToQueue {
  const store = context.store.name;
  return {
    kind: "email-change-link",
    to: newEmail,
    secret: true,
    ...renderMail(context, {
      subject: `Confirm your new ${store} email`,
      greeting: `Dear ${user.name},`,
      blocks: [
        {
          kind: "paragraph",
          text: `You asked to make ${newEmail} the email of your ${store} account. Your account keeps its current email until you confirm.`,
        },
        {
          kind: "link",
          label: "Confirm your new email",
          url: siteLink(context, `/confirm-email?token=${encodeURIComponent(token)}`),
        },
        {
          kind: "paragraph",
          text: `The link works once, within ${options.validHours} hours. If you did not ask for this, ignore this mail: nothing changes.`,
        },
      ],
    }),
  };
}

/**
 * To the old address once an email change is confirmed: when it happened, the new address, and
 * how to reach the store (a reset link would now go to the new address, so the store is the way back).
 */
export function emailChangedMail(
  context: MailContext,
  user: { name: string },
  change: { from: string; to: string; at: Date },
): MailToQueue {
  const store = context.store.name;
  return {
    kind: "email-changed",
    to: change.from,
    ...renderMail(context, {
      subject: `Your ${store} email was changed`,
      greeting: `Dear ${user.name},`,
      blocks: [
        {
          kind: "paragraph",
          text: `The email of your ${store} account was changed from ${change.from} to ${change.to} on ${formatStoreDateTime(change.at)} (Pakistan time). Mails about your account now go to ${change.to}, and the devices signed in to your account were signed out.`,
        },
        {
          kind: "paragraph",
          text: `If this was not you, tell us at once at ${context.store.email} or ${context.store.phone}, and we will help you get your account back.`,
        },
        { kind: "link", label: "Contact us", url: siteLink(context, "/contact") },
      ],
    }),
  };
}
