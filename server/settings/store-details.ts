import { DEFAULT_COUNTRY } from "../modules/shared/address.shared";

/**
 * The brand and the store's contact details: the one place they are set. Each may be
 * overridden from the environment, so a deployment can rename the store without a code change.
 */
export type StoreDetails = {
  name: string;
  tagline: string;
  email: string;
  phone: string;
  address: { street: string; city: string; country: string };
  businessHours: { days: string; hours: string }[];
};

export function storeDetails(env: NodeJS.ProcessEnv = process.env): StoreDetails {
  return {
    name: env.SITE_NAME || "Waqt",
    tagline: env.SITE_TAGLINE || "Premium authentic watches, delivered across Pakistan",
    email: env.STORE_EMAIL || "support@waqt.pk",
    phone: env.STORE_PHONE || "+92 42 3578 1234",
    address: {
      street: env.STORE_STREET || "45 MM Alam Road, Gulberg III",
      city: env.STORE_CITY || "Lahore",
      country: DEFAULT_COUNTRY,
    },
    businessHours: [
      { days: "Monday - Friday", hours: "9:00 AM - 8:00 PM" },
      { days: "Saturday", hours: "10:00 AM - 6:00 PM" },
      { days: "Sunday", hours: "Closed" },
    ],
  };
}
