import { DEMO_PASSWORDS } from "../server/modules/accounts/demo-passwords";

/** The demo accounts; the README and the start-up log name them. */
export const demoAccounts = {
  admin: { name: "Ayesha Khan", email: "admin@waqt.pk", password: DEMO_PASSWORDS.admin, role: "admin" as const },
  customer: {
    name: "Bilal Ahmed",
    email: "customer@waqt.pk",
    password: DEMO_PASSWORDS.customer,
    role: "customer" as const,
    phone: "+92 300 1234567",
    street: "12 Jail Road",
    city: "Lahore",
    state: "Punjab",
    zipCode: "54000",
  },
};
