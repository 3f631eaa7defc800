import { Form, redirect } from "react-router";
import { DEFAULT_ORDER_RULES, type OrderRules } from "../../server/modules/confirmation/order-rules.shared";
import { formatIban, type BankTransferSettings } from "../../server/modules/payments/bank-transfer.shared";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { requestContext } from "../context";
import { Field, FormError, flashRefusal, formFailure, formValues, type FormFailure } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { AdminTable } from "./admin-list";
import type { Route } from "./+types/settings-orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { services } = context.get(requestContext);
  return { settings: await services.orderRules.settings(), adminName: admin.name };
}

/**
 * The rules' form (`intent` rules), adding to the blocklist (block) and removing from it
 * (unblock): plain forms. A refused form comes back with every value kept and the reason beside
 * its field; a change is answered by a redirect.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  if (values.intent === "unblock") {
    try {
      await services.orderRules.unblock(values.entryId ?? "");
      session.setFlash({ tone: "success", message: "Removed from the blocklist" });
    } catch (error) {
      flashRefusal(session, error, "Failed to remove the entry");
    }
    throw redirect("/admin/settings/orders", 303);
  }
  try {
    if (values.intent === "bank-transfer") {
      await services.orderRules.update(
        {
          bankAccountTitle: values.bankAccountTitle ?? "",
          bankName: values.bankName ?? "",
          iban: values.iban ?? "",
          raastId: values.raastId ?? "",
          bankTransferDiscountPercent: values.bankTransferDiscountPercent ?? "",
          unpaidTransferHours: values.unpaidTransferHours ?? "",
        },
        admin,
      );
      session.setFlash({ tone: "success", message: "Bank transfer details saved" });
    } else if (values.intent === "block") {
      await services.orderRules.block({ value: values.value, note: values.note }, admin);
      session.setFlash({ tone: "success", message: `${values.value?.trim()} is on the blocklist` });
    } else {
      await services.orderRules.update(
        {
          blockAfterReturns: values.blockAfterReturns ?? "",
          firstTimeCodLimit: values.firstTimeCodLimit ?? "",
          codLimit: values.codLimit ?? "",
          openCodOrders: values.openCodOrders ?? "",
          parcelShippingCost: values.parcelShippingCost ?? "",
        },
        admin,
      );
      session.setFlash({ tone: "success", message: "Order rules saved" });
    }
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to save the order rules" });
  }
  throw redirect("/admin/settings/orders", 303);
}

export const meta: Route.MetaFunction = routeMeta({
  title: "Order Settings",
  path: "/admin/settings/orders",
  noindex: true,
});

type SettingName = keyof OrderRules | "parcelShippingCost";

const RULE_FIELDS: { name: SettingName; label: string; hint: string; money: boolean }[] = [
  {
    name: "blockAfterReturns",
    label: "Block a phone at this many returns to sender",
    hint: `Its next cash-on-delivery order is refused. Default ${DEFAULT_ORDER_RULES.blockAfterReturns}; empty: off.`,
    money: false,
  },
  {
    name: "firstTimeCodLimit",
    label: "Most a first-time phone may order on cash on delivery (Rs.)",
    hint: `A phone with no delivered order (without a phone: the account). Default ${formatRupees(DEFAULT_ORDER_RULES.firstTimeCodLimit!)}; empty: off.`,
    money: true,
  },
  {
    name: "codLimit",
    label: "Most anyone may order on cash on delivery (Rs.)",
    hint: "Default off (empty).",
    money: true,
  },
  {
    name: "openCodOrders",
    label: "Open cash-on-delivery orders per phone",
    hint: `Pending or shipped, the new order included. Default ${DEFAULT_ORDER_RULES.openCodOrders}; empty: off.`,
    money: false,
  },
  {
    name: "parcelShippingCost",
    label: "Average shipping cost of a parcel, each way (Rs.)",
    hint: "Not a rule: the deliveries report prices each return to sender at twice it (out and back). Empty: not set.",
    money: true,
  },
];

const BANK_FIELDS: {
  name: keyof BankTransferSettings;
  label: string;
  hint?: string;
  type?: string;
  maxLength?: number;
  step?: string;
  inputMode?: "numeric" | "decimal";
}[] = [
  { name: "bankAccountTitle", label: "Account title", maxLength: 100 },
  { name: "bankName", label: "Bank", maxLength: 100 },
  { name: "iban", label: "IBAN", hint: "e.g. PK36 SCBL 0000 0011 2345 6702", maxLength: 40 },
  {
    name: "raastId",
    label: "Raast ID (optional)",
    hint: "The mobile number your Raast ID is, e.g. 0300-1234567",
    maxLength: 30,
  },
  {
    name: "bankTransferDiscountPercent",
    label: "Discount for paying in advance (%, optional)",
    hint: "Taken off the order after any discount code, and shown at checkout. Empty: none.",
    type: "number",
    step: "0.01",
    inputMode: "decimal",
  },
  {
    name: "unpaidTransferHours",
    label: "Cancel unpaid transfers after (hours)",
    hint: "Counted from when the order was placed; a reference sent in time keeps it. Default 48; empty: never.",
    type: "number",
    step: "1",
    inputMode: "numeric",
  },
];

/**
 * The merchant's cash-on-delivery rules (docs/product.md, "Cash-on-delivery rules"): the limits,
 * the blocklist and the checkouts they refused, each with its rule.
 */
export default function OrderSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings } = loaderData;
  const failure = actionData as FormFailure | undefined;
  const errors = failure?.fieldErrors ?? {};
  const failedIntent = failure?.values.intent;
  const bankValue = (name: keyof BankTransferSettings) =>
    failedIntent === "bank-transfer" && failure?.values[name] !== undefined
      ? failure.values[name]
      : settings[name] === null
        ? ""
        : name === "raastId"
          ? formatPakistaniMobile(settings.raastId)
          : name === "iban"
            ? formatIban(settings.iban!)
            : String(settings[name]);
  // The rules' form is the one posted without another intent.
  const rulesFailed = failedIntent !== "block" && failedIntent !== "bank-transfer";
  const ruleValue = (name: SettingName) =>
    rulesFailed && failure?.values[name] !== undefined
      ? failure.values[name]
      : settings[name] === null
        ? ""
        : String(settings[name]);
  return (
    <section className="form-page">
      <h1>Order Settings</h1>
      <p>
        Cash-on-delivery rules: checkout applies them to every cash-on-delivery order. A refused shopper is told why,
        keeps their cart and is asked to pay in advance.
      </p>
      <h2>Rules</h2>
      <FormError message={rulesFailed ? failure?.formError : undefined} />
      <Form method="post" noValidate className="card">
        <input type="hidden" name="intent" value="rules" />
        {RULE_FIELDS.map((field) => (
          <Field
            key={field.name}
            name={field.name}
            label={field.label}
            type="number"
            defaultValue={ruleValue(field.name)}
            error={rulesFailed ? errors[field.name] : undefined}
            hint={field.hint}
            min={field.name === "parcelShippingCost" ? 0 : 1}
            step={field.money ? "0.01" : "1"}
            inputMode={field.money ? "decimal" : "numeric"}
          />
        ))}
        <div className="actions">
          <button type="submit" className="button">
            Save rules
          </button>
        </div>
      </Form>

      <h2 id="bank-transfer">Bank transfer / Raast</h2>
      <p>
        Checkout offers paying in advance to your account once the account title, bank and IBAN are set, to anyone who
        prefers it and to shoppers a rule refuses. An order paid so ships only after you verify its payment on the
        order&apos;s page.
      </p>
      <FormError message={failedIntent === "bank-transfer" ? failure?.formError : undefined} />
      <Form method="post" noValidate className="card">
        <input type="hidden" name="intent" value="bank-transfer" />
        {BANK_FIELDS.map((field) => (
          <Field
            key={field.name}
            name={field.name}
            label={field.label}
            type={field.type ?? "text"}
            defaultValue={bankValue(field.name)}
            error={failedIntent === "bank-transfer" ? errors[field.name] : undefined}
            hint={field.hint}
            maxLength={field.maxLength}
            step={field.step}
            inputMode={field.inputMode}
          />
        ))}
        <div className="actions">
          <button type="submit" className="button">
            Save bank transfer details
          </button>
        </div>
      </Form>

      <h2>Blocklist</h2>
      <p>Phones and emails that may not order on cash on delivery.</p>
      <FormError message={failedIntent === "block" ? failure?.formError : undefined} />
      <Form method="post" noValidate className="card">
        <input type="hidden" name="intent" value="block" />
        <Field
          name="value"
          label="Mobile number or email"
          defaultValue={failedIntent === "block" ? failure?.values.value : ""}
          error={failedIntent === "block" ? errors.value : undefined}
          hint="e.g. 0300-1234567 or someone@example.com"
        />
        <Field
          name="note"
          label="Note (optional)"
          defaultValue={failedIntent === "block" ? failure?.values.note : ""}
          error={failedIntent === "block" ? errors.note : undefined}
          maxLength={200}
        />
        <div className="actions">
          <button type="submit" className="button">
            Add to blocklist
          </button>
        </div>
      </Form>
      <AdminTable
        rows={settings.blocklist}
        rowKey={(entry) => entry._id}
        empty="Nobody is on the blocklist."
        columns={[
          {
            header: "Phone or email",
            title: true,
            cell: (entry) => (entry.kind === "phone" ? formatPakistaniMobile(entry.value) : entry.value),
          },
          { header: "Note", cell: (entry) => entry.note || <span className="muted">None</span> },
          { header: "Added", cell: (entry) => `${entry.addedBy}, ${formatStoreDateTime(entry.createdAt)}` },
          {
            header: "Remove",
            cell: (entry) => (
              <Form method="post">
                <input type="hidden" name="intent" value="unblock" />
                <input type="hidden" name="entryId" value={entry._id} />
                <button type="submit" className="button button--small button--ghost">
                  Remove
                  <span className="visually-hidden">{` ${entry.kind === "phone" ? formatPakistaniMobile(entry.value) : entry.value} from the blocklist`}</span>
                </button>
              </Form>
            ),
          },
        ]}
      />

      <h2>Refused checkouts</h2>
      <p>{`${settings.refusals.count} cash-on-delivery ${settings.refusals.count === 1 ? "checkout was" : "checkouts were"} refused by a rule. The latest:`}</p>
      <AdminTable
        rows={settings.refusals.latest}
        rowKey={(refusal) => refusal._id}
        empty="No checkout was refused yet."
        columns={[
          { header: "When", title: true, cell: (refusal) => formatStoreDateTime(refusal.createdAt) },
          { header: "Rule", cell: (refusal) => `${refusal.rule} (${refusal.code})` },
          {
            header: "Customer",
            cell: (refusal) =>
              `${refusal.email}${refusal.phone ? `, ${formatPakistaniMobile(refusal.phone)}` : ", no phone"}`,
          },
          { header: "Amount", cell: (refusal) => formatRupees(refusal.amount) },
          { header: "Told", cell: (refusal) => refusal.message },
        ]}
      />
    </section>
  );
}
