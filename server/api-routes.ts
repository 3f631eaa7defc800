import type { ApiRoute } from "./http/api-route";
import { accountsApiRoutes } from "./modules/accounts/accounts.api";
import { cartApiRoutes } from "./modules/cart/cart.api";
import { catalogApiRoutes } from "./modules/catalog/catalog.api";
import { ordersApiRoutes } from "./modules/orders/orders.api";

/** Every /api/v1 call, module by module; the router and the OpenAPI document are made from this. */
export const apiRoutes: ApiRoute[] = [...accountsApiRoutes, ...catalogApiRoutes, ...cartApiRoutes, ...ordersApiRoutes];
