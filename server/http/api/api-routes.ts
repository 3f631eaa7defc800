import type { ApiRoute } from "../api-route";
import { accountsApiRoutes } from "./accounts.api";
import { brandsApiRoutes } from "./brands.api";
import { cartApiRoutes } from "./cart.api";
import { catalogApiRoutes } from "./catalog.api";
import { discountsApiRoutes } from "./discounts.api";
import { ordersApiRoutes } from "./orders.api";
import { reportsApiRoutes } from "./reports.api";
import { returnsApiRoutes } from "./returns.api";
import { reviewsApiRoutes } from "./reviews.api";
import { settingsApiRoutes } from "./settings.api";
import { shipmentsApiRoutes } from "./shipments.api";

/** Every /api/v1 call, module by module; the router and the OpenAPI document are made from this. */
export const apiRoutes: ApiRoute[] = [
  ...accountsApiRoutes,
  ...catalogApiRoutes,
  ...cartApiRoutes,
  ...ordersApiRoutes,
  ...returnsApiRoutes,
  ...discountsApiRoutes,
  ...settingsApiRoutes,
  ...reviewsApiRoutes,
  ...shipmentsApiRoutes,
  ...reportsApiRoutes,
  ...brandsApiRoutes,
];
