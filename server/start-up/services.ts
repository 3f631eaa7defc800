import { BackupStatusService } from "../backups/backup-status.service";
import type { Config, ConfirmationConfig } from "../settings/config";
import type { Database } from "../db/database";
import { AdvancePaymentFlow } from "../flows/advance-payment";
import { CancellationFlow } from "../flows/cancellation";
import { CheckoutFlow } from "../flows/checkout";
import { CourierSyncFlow } from "../flows/courier-sync";
import { ConfirmationRepliesFlow } from "../flows/confirmation-replies";
import { OrderConfirmationFlow } from "../flows/order-confirmation";
import { OrderTextsFlow } from "../flows/order-texts";
import { OrderLifeFlow } from "../flows/order-life";
import { SmsClient } from "../providers/message-channels/sms";
import { TextFilesClient } from "../providers/message-channels/text-files";
import { WhatsAppClient } from "../providers/message-channels/whatsapp";
import { EmailChangeFlow } from "../flows/email-change";
import { FulfilmentFlow } from "../flows/fulfilment";
import { ShippingFlow, type ApiCourierClient } from "../flows/shipping";
import { CourierPapersFlow } from "../flows/courier-papers";
import { leopardsBooking } from "../providers/couriers/leopards";
import { postexBooking } from "../providers/couriers/postex";
import { PageSessionFlow } from "../flows/page-session";
import { ProductRemovalFlow } from "../flows/product-removal";
import { ReturnsFlow } from "../flows/returns";
import type { Logger } from "../logging/logger";
import { AccountsService } from "../modules/accounts/accounts.service";
import { PasswordChangesService } from "../modules/accounts/password-changes.service";
import { ProfileService } from "../modules/accounts/profile.service";
import { CartService } from "../modules/cart/cart.service";
import { CatalogService } from "../modules/catalog/catalog.service";
import { PhotoLane } from "../modules/catalog/photo-lane";
import { StockAlertsService } from "../modules/catalog/stock-alerts.service";
import { ComparisonService } from "../modules/catalog/comparison.service";
import { ReviewsService } from "../modules/reviews/reviews.service";
import { ContactService } from "../modules/contact/contact.service";
import { DiscountCodeGuard, DiscountsService } from "../modules/discounts/discounts.service";
import type { MailContext } from "../modules/mail/mail-layout";
import { OutboxService } from "../modules/mail/outbox.service";
import { CourierLedgerService } from "../modules/fulfilment/courier-ledger";
import { LastDeliveryService } from "../modules/orders/last-delivery";
import { OrderDeskService } from "../modules/order-life/order-desk";
import { OrderRulesService } from "../modules/confirmation/order-rules";
import { ReturnDeskService } from "../modules/orders/return-desk";
import type { TextChannel } from "../modules/confirmation/order-confirmation.shared";
import { ReportsService } from "../modules/reports/reports.service";
import type { Clock } from "../modules/shared/clock";
import { RateLimiter } from "../modules/shared/rate-limiter";
import { courierProvidersChosen } from "../providers/couriers/courier-providers.shared";
import { MessageChannels } from "../providers/message-channels/message-channels";
import { paymentMethodsChosen } from "../providers/payment-methods/payment-methods.shared";
import { OrdersService } from "../modules/order-life/orders-reading";

/**
 * The domain, put together once and shared by the pages and the API: each module's service,
 * and the flows that span modules (docs/decisions/2026-11-25-flows.md), with the providers the
 * settings choose (server/providers/). `clock` is where the services read the time (tests move
 * it instead of waiting).
 */
export function createServices(deps: {
  db: Database;
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** The photo lane, when a test fills it itself; one of PHOTO_QUEUE_MAX otherwise. */
  photoLane?: PhotoLane;
}) {
  const { db, config, clock } = deps;
  // The one photo lane of this process: product and review photos and transfer screenshots alike.
  const photoLane = deps.photoLane ?? new PhotoLane({ maxWaiting: config.photoQueueMax });
  const rateLimiter = new RateLimiter(db, config.rateLimits);
  // Mails are written with the brand, contact details and public address of the configuration.
  const mail: MailContext = { store: config.store, publicUrl: config.publicUrl };
  const messages = MessageChannels.chosenBy(config.providers.messageChannels);
  const accounts = new AccountsService(db, rateLimiter);
  const profile = new ProfileService(db, rateLimiter, mail);
  const couriers = apiCouriers(config);
  // The order's life: every flow that changes an order runs its events (server/flows/order-life.ts).
  const life = new OrderLifeFlow({ mail, couriers });
  const orderConfirmation = new OrderConfirmationFlow(db, {
    mail,
    messages,
    life,
    textChannel: firstTextChannel(config.confirmation),
    deadlines: config.confirmation,
    clock,
  });
  const fulfilment = new FulfilmentFlow(db, {
    mail,
    messages,
    couriers: courierProvidersChosen(config.providers.courierProviders),
    life,
    clock,
  });
  // Texts written as files without WhatsApp or SMS, kept as long as mail files (job-tasks.ts removes them).
  const textFiles = new TextFilesClient(config.confirmation.messagesDir, { keepDays: config.mail.filesKeepDays });
  return {
    rateLimiter,
    // Modules.
    accounts,
    passwordChanges: new PasswordChangesService(db, rateLimiter, mail),
    profile,
    catalog: new CatalogService(db, mail, { photoLane }),
    stockAlerts: new StockAlertsService(db, rateLimiter, mail),
    comparison: new ComparisonService(db),
    reviews: new ReviewsService(db, mail, photoLane),
    cart: new CartService(db),
    orders: new OrdersService(db, clock),
    orderDesk: new OrderDeskService(db),
    orderRules: new OrderRulesService(db),
    lastDelivery: new LastDeliveryService(db),
    returnDesk: new ReturnDeskService(db),
    discounts: new DiscountsService(db),
    reports: new ReportsService(db, clock),
    courierLedger: new CourierLedgerService(db, {
      couriers: couriers.map((courier) => courier.name),
      lateDays: config.couriers.lateDays,
      clock,
    }),
    contact: new ContactService(db, rateLimiter),
    outbox: new OutboxService(db),
    textFiles,
    backups: new BackupStatusService(db, config),
    // Flows.
    checkout: new CheckoutFlow(db, {
      mail,
      messages,
      paymentMethods: paymentMethodsChosen(config.providers.paymentMethods),
      codeGuard: new DiscountCodeGuard(rateLimiter),
      confirmation: { secret: config.sessionSecret, channel: firstTextChannel(config.confirmation) },
      clock,
    }),
    cancellation: new CancellationFlow(db, { mail, messages, life, clock }),
    orderConfirmation,
    confirmationReplies: new ConfirmationRepliesFlow(db, {
      confirmation: orderConfirmation,
      life,
      smsConfigured: config.confirmation.sms !== null,
      clock,
    }),
    orderTexts: new OrderTextsFlow(db, {
      channels: {
        whatsapp: config.confirmation.whatsapp ? new WhatsAppClient(config.confirmation.whatsapp) : null,
        sms: config.confirmation.sms
          ? new SmsClient({ ...config.confirmation.sms, statusCallback: `${config.publicUrl}/webhooks/sms` })
          : null,
        file: textFiles,
      },
      whatsapp: config.confirmation.whatsapp,
      secret: config.sessionSecret,
      publicUrl: config.publicUrl,
      storeName: config.store.name,
      clock,
    }),
    fulfilment,
    shipping: new ShippingFlow(db, {
      couriers,
      life,
      clock,
      timeoutMs: config.couriers.timeoutSeconds * 1000,
      pieceGrams: config.couriers.pieceGrams,
    }),
    courierSync: new CourierSyncFlow(db, {
      couriers,
      fulfilment,
      life,
      mail,
      messages,
      // An attempt is texted only by WhatsApp or SMS: a file under DATA_DIR tells the customer nothing.
      textChannel: config.confirmation.whatsapp ? "whatsapp" : config.confirmation.sms ? "sms" : null,
      syncMinutes: config.couriers.syncMinutes,
      logger: deps.logger,
      clock,
    }),
    courierPapers: new CourierPapersFlow(db, { couriers, clock }),
    returns: new ReturnsFlow(db, { mail, messages, clock }),
    advancePayment: new AdvancePaymentFlow(db, {
      mail,
      messages,
      textChannel: firstTextChannel(config.confirmation),
      life,
      photoLane,
      clock,
    }),
    productRemoval: new ProductRemovalFlow(db),
    emailChange: new EmailChangeFlow(db, profile),
    pageSession: new PageSessionFlow(accounts),
  };
}

/** The couriers booked through their APIs: those whose settings are complete (server/settings/courier-settings.ts). */
function apiCouriers(config: Config): ApiCourierClient[] {
  const timeoutMs = config.couriers.timeoutSeconds * 1000;
  const { postex, leopards } = config.couriers;
  return [
    ...(postex ? [{ id: "postex", name: "PostEx", booking: postexBooking(postex, { timeoutMs }) } as const] : []),
    ...(leopards
      ? [{ id: "leopards", name: "Leopards", booking: leopardsBooking(leopards, { timeoutMs }) } as const]
      : []),
  ];
}

/** The channel a confirmation's text tries first: WhatsApp, else SMS, else a file under DATA_DIR. */
function firstTextChannel(confirmation: ConfirmationConfig): TextChannel {
  if (confirmation.whatsapp) return "whatsapp";
  if (confirmation.sms) return "sms";
  return "file";
}

export type Services = ReturnType<typeof createServices>;
