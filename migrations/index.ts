import type { Knex } from "knex";
import * as initialSchema from "./20261120000001_initial_schema";
import * as rateLimits from "./20261120000002_rate_limits";
import * as productNameSort from "./20261120000003_product_name_sort";
import * as checkout from "./20261120000004_checkout";
import * as contactMessages from "./20261120000005_contact_messages";
import * as catalogChangedNotify from "./20261120000006_catalog_changed_notify";
import * as catalogChangedByProduct from "./20261120000007_catalog_changed_by_product";
import * as credentialsVersion from "./20261123000008_credentials_version";
import * as orderDeliveryDetails from "./20261123000009_order_delivery_details";
import * as orderPhoneConfirmation from "./20261123000010_order_phone_confirmation";
import * as productPhotos from "./20261123000011_product_photos";
import * as orderItemPhotos from "./20261123000012_order_item_photos";
import * as outbox from "./20261123000013_outbox";
import * as passwordResetTokens from "./20261123000014_password_reset_tokens";
import * as stockAlerts from "./20261123000015_stock_alerts";
import * as discountCodes from "./20261123000016_discount_codes";
import * as orderDeliveredAt from "./20261123000017_order_delivered_at";
import * as returns from "./20261123000018_returns";
import * as productCounts from "./20261123000019_product_counts";
import * as searchText from "./20261123000020_search_text";
import * as searchVersion from "./20261123000021_search_version";
import * as emailChanges from "./20261125000022_email_changes";
import * as paymentMethods from "./20261125000025_payment_methods";
import * as jobQueue from "./20261125000026_job_queue";
import * as orderConfirmation from "./20261125000029_order_confirmation";
import * as watchSpecs from "./20261126000031_watch_specs";
import * as brands from "./20261126000032_brands";
import * as parcelOutcome from "./20261126000035_parcel_outcome";
import * as orderRules from "./20261126000036_order_rules";
import * as orderPayments from "./20261126000037_order_payments";
import * as bankTransferSettings from "./20261126000038_bank_transfer_settings";
import * as shipments from "./20261126000040_shipments";
import * as parcelShippingCost from "./20261126000050_parcel_shipping_cost";
import * as productReorderLevel from "./20261126000051_product_reorder_level";
import * as searchVersionFilters from "./20261126000060_search_version_filters";
import * as reviews from "./20261126000070_reviews";
import * as productWeight from "./20261126000080_product_weight";
import * as shipmentEvents from "./20261126000085_shipment_events";
import * as courierSyncBackoff from "./20261126000086_courier_sync_backoff";
import * as shipmentPayments from "./20261126000087_shipment_payments";
import * as reportDayStatistics from "./20261126000090_report_day_statistics";
import * as paymentTexts from "./20261126000120_payment_texts";
import * as reportRollups from "./20261127000010_report_rollups";
import * as courierPaidDate from "./20261127000020_courier_paid_date";
import * as deliveryAttemptTexts from "./20261127000021_delivery_attempt_texts";
import * as paymentScreenshots from "./20261127000030_payment_screenshots";
import * as reportMonthProducts from "./20261128000010_report_month_products";
import * as reportLinesMarkedPerStatement from "./20261128000020_report_lines_marked_per_statement";
import * as paymentRefunds from "./20261201000010_payment_refunds";
import * as chooseOrderTexts from "./20261201000020_choose_order_texts";
import * as reportDayConfirmationWaits from "./20261129000020_report_day_confirmation_waits";
import * as reportOrdersMarkedPerStatement from "./20261129000021_report_orders_marked_per_statement";
import * as reportMonthDays from "./20261130000010_report_month_days";
import * as reportMonthProductsThrough from "./20261130000020_report_month_products_through";
import * as dropReportMonthDays from "./20261130000030_drop_report_month_days";
import * as confirmationTextLimit from "./20261130000040_confirmation_text_limit";
import * as usersPasswordFromSeed from "./20261130000050_users_password_from_seed";

/**
 * Every migration, in order. A static list (rather than a directory scan) lets the server be
 * bundled for production and still migrate itself; add each new migration here.
 */
export const migrations: Record<string, Knex.Migration> = {
  "20261120000001_initial_schema": initialSchema,
  "20261120000002_rate_limits": rateLimits,
  "20261120000003_product_name_sort": productNameSort,
  "20261120000004_checkout": checkout,
  "20261120000005_contact_messages": contactMessages,
  "20261120000006_catalog_changed_notify": catalogChangedNotify,
  "20261120000007_catalog_changed_by_product": catalogChangedByProduct,
  "20261123000008_credentials_version": credentialsVersion,
  "20261123000009_order_delivery_details": orderDeliveryDetails,
  "20261123000010_order_phone_confirmation": orderPhoneConfirmation,
  "20261123000011_product_photos": productPhotos,
  "20261123000012_order_item_photos": orderItemPhotos,
  "20261123000013_outbox": outbox,
  "20261123000014_password_reset_tokens": passwordResetTokens,
  "20261123000015_stock_alerts": stockAlerts,
  "20261123000016_discount_codes": discountCodes,
  "20261123000017_order_delivered_at": orderDeliveredAt,
  "20261123000018_returns": returns,
  "20261123000019_product_counts": productCounts,
  "20261123000020_search_text": searchText,
  "20261123000021_search_version": searchVersion,
  "20261125000022_email_changes": emailChanges,
  "20261125000025_payment_methods": paymentMethods,
  "20261125000026_job_queue": jobQueue,
  "20261125000029_order_confirmation": orderConfirmation,
  "20261126000031_watch_specs": watchSpecs,
  "20261126000032_brands": brands,
  "20261126000035_parcel_outcome": parcelOutcome,
  "20261126000036_order_rules": orderRules,
  "20261126000037_order_payments": orderPayments,
  "20261126000038_bank_transfer_settings": bankTransferSettings,
  "20261126000040_shipments": shipments,
  "20261126000050_parcel_shipping_cost": parcelShippingCost,
  "20261126000051_product_reorder_level": productReorderLevel,
  "20261126000060_search_version_filters": searchVersionFilters,
  "20261126000070_reviews": reviews,
  "20261126000080_product_weight": productWeight,
  "20261126000085_shipment_events": shipmentEvents,
  "20261126000086_courier_sync_backoff": courierSyncBackoff,
  "20261126000087_shipment_payments": shipmentPayments,
  "20261126000090_report_day_statistics": reportDayStatistics,
  "20261126000120_payment_texts": paymentTexts,
  "20261127000010_report_rollups": reportRollups,
  "20261127000020_courier_paid_date": courierPaidDate,
  "20261127000021_delivery_attempt_texts": deliveryAttemptTexts,
  "20261127000030_payment_screenshots": paymentScreenshots,
  "20261128000010_report_month_products": reportMonthProducts,
  "20261128000020_report_lines_marked_per_statement": reportLinesMarkedPerStatement,
  "20261129000020_report_day_confirmation_waits": reportDayConfirmationWaits,
  "20261129000021_report_orders_marked_per_statement": reportOrdersMarkedPerStatement,
  "20261130000010_report_month_days": reportMonthDays,
  "20261130000020_report_month_products_through": reportMonthProductsThrough,
  "20261130000030_drop_report_month_days": dropReportMonthDays,
  "20261130000040_confirmation_text_limit": confirmationTextLimit,
  "20261130000050_users_password_from_seed": usersPasswordFromSeed,
  "20261201000010_payment_refunds": paymentRefunds,
  "20261201000020_choose_order_texts": chooseOrderTexts,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};
