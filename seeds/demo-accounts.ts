/** The demo accounts; the README and the start-up log name them. */
export const demoAccounts = {
  admin: { name: "Ayesha Khan", email: "admin@waqt.pk", password: "admin12345", role: "admin" as const },
  customer: {
    name: "Bilal Ahmed",
    email: "customer@waqt.pk",
    password: "customer12345",
    role: "customer" as const,
    phone: "+92 300 1234567",
    street: "12 Jail Road",
    city: "Lahore",
    state: "Punjab",
    zipCode: "54000",
  },
};
