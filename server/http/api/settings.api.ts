import { defineApiRoute, type ApiRoute } from "../api-route";
import { orderRulesSchema } from "../../modules/confirmation/order-rules";
import { orderSettingsShape } from "../../modules/confirmation/order-rules.shape";

/** /api/v1/settings (docs/api.md, "Settings"): the merchant's cash-on-delivery rules. */
export const settingsApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "get",
    path: "/settings/orders",
    tag: "Settings",
    summary:
      "The cash-on-delivery rules checkout applies (each a number, null when off), the blocklist of phones and emails, and the refusals counted with the latest 20",
    access: "admin",
    responseData: orderSettingsShape,
    handler: async ({ services }) => ({ message: "OK", data: await services.orderRules.settings() }),
  }),
  defineApiRoute({
    method: "put",
    path: "/settings/orders",
    tag: "Settings",
    summary:
      "Change the cash-on-delivery rules: each a number, or null (or an empty string) to turn it off; a rule not sent stays as it is. blocklist, when sent, is the whole list of {value, note}, each value a Pakistani mobile number or an email (entries already there keep who added them and when). Invalid input: 400, nothing changed",
    access: "admin",
    body: orderRulesSchema,
    responseData: orderSettingsShape,
    handler: async ({ services, body, user }) => ({
      message: "Order settings updated",
      data: await services.orderRules.update(body, user!),
    }),
  }),
];
