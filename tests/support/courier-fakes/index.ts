/**
 * Local fakes of the two couriers' merchant APIs, answering in the formats of docs/couriers.md,
 * with each variant where sources disagree selectable (`variant`): one file per courier, and what
 * they share in courier-fake.ts.
 */
export {
  CONTROL_PATH,
  FAKE_PDF,
  type CourierFakeMode,
  type FakeConsignment,
  type FakeRequest,
  type FakeStatus,
} from "./courier-fake";
export { FAKE_LOAD_SHEET, FakePostex, POSTEX_CITIES, POSTEX_TOKEN, type PostexVariant } from "./postex";
export { FakeLeopards, LEOPARDS_CITIES, LEOPARDS_KEY, LEOPARDS_PASSWORD, type LeopardsVariant } from "./leopards";
