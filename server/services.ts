import { BackupStatusService } from "./backups/backup-status.service";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { Logger } from "./logger";
import { AccountsService } from "./modules/accounts/accounts.service";
import { CartService } from "./modules/cart/cart.service";
import { CatalogService } from "./modules/catalog/catalog.service";
import { StockAlertsService } from "./modules/catalog/stock-alerts.service";
import { ContactService } from "./modules/contact/contact.service";
import { DiscountCodeGuard, DiscountsService } from "./modules/discounts/discounts.service";
import type { MailContext } from "./modules/mail/mail-layout";
import { OutboxService } from "./modules/mail/outbox.service";
import { LastDeliveryService } from "./modules/orders/last-delivery";
import { OrdersService } from "./modules/orders/orders.service";
import { ReturnsService } from "./modules/orders/returns.service";
import type { Clock } from "./modules/shared/clock";
import { RateLimiter } from "./modules/shared/rate-limiter";

/**
 * The domain layer: one instance of each module's service, shared by the pages and the API.
 * `clock` is where the services read the time (tests move it instead of waiting).
 */
export function createServices(deps: { db: Database; config: Config; logger: Logger; clock?: Clock }) {
  const rateLimiter = new RateLimiter(deps.db, deps.config.rateLimits);
  // Mails are written with the brand, contact details and public address of the configuration.
  const mail: MailContext = { store: deps.config.store, publicUrl: deps.config.publicUrl };
  return {
    rateLimiter,
    accounts: new AccountsService(deps.db, rateLimiter, mail),
    catalog: new CatalogService(deps.db, mail),
    stockAlerts: new StockAlertsService(deps.db, rateLimiter, mail),
    cart: new CartService(deps.db),
    orders: new OrdersService(deps.db, mail, new DiscountCodeGuard(rateLimiter), deps.clock),
    returns: new ReturnsService(deps.db, mail, deps.clock),
    lastDelivery: new LastDeliveryService(deps.db),
    discounts: new DiscountsService(deps.db),
    contact: new ContactService(deps.db, rateLimiter),
    outbox: new OutboxService(deps.db),
    backups: new BackupStatusService(deps.db, deps.config),
  };
}

export type Services = ReturnType<typeof createServices>;
