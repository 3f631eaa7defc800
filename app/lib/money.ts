/** Every price in the store is shown through one formatter, shared with the mails. */
export { formatRupees } from "../../server/modules/shared/money.shared";
