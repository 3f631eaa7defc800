import { BackupStatusService } from "./backups/backup-status.service";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { Logger } from "./logger";
import { AccountsService } from "./modules/accounts/accounts.service";
import { CartService } from "./modules/cart/cart.service";
import { CatalogService } from "./modules/catalog/catalog.service";
import { ContactService } from "./modules/contact/contact.service";
import { OrdersService } from "./modules/orders/orders.service";
import { RateLimiter } from "./modules/shared/rate-limiter";

/** The domain layer: one instance of each module's service, shared by the pages and the API. */
export function createServices(deps: { db: Database; config: Config; logger: Logger }) {
  const rateLimiter = new RateLimiter(deps.db, deps.config.rateLimits);
  return {
    rateLimiter,
    accounts: new AccountsService(deps.db, rateLimiter),
    catalog: new CatalogService(deps.db),
    cart: new CartService(deps.db),
    orders: new OrdersService(deps.db),
    contact: new ContactService(deps.db, rateLimiter),
    backups: new BackupStatusService(deps.db, deps.config),
  };
}

export type Services = ReturnType<typeof createServices>;
