/**
 * A watch's specifications (docs/product.md, "Specifications"): the one list of their names,
 * limits and allowed values, used by the yup schema (catalog.schemas.ts), the OpenAPI shape
 * (product.model.ts), the database's CHECKs (migration 20261126000031), the admin form, the
 * product page's table and the catalogue's filters. Plain data with no imports, so the pages'
 * browser bundle can use it too.
 */
export const MOVEMENTS = ["Quartz", "Automatic", "Manual winding", "Solar", "Kinetic", "Smart"] as const;
export type Movement = (typeof MOVEMENTS)[number];

export const CRYSTALS = ["Mineral", "Sapphire", "Hardlex", "Acrylic"] as const;
export type Crystal = (typeof CRYSTALS)[number];

export const WATCH_FEATURES = [
  "chronograph",
  "date",
  "day-date",
  "GMT",
  "moon phase",
  "alarm",
  "luminous hands",
] as const;
export type WatchFeature = (typeof WATCH_FEATURES)[number];

export const WARRANTY_KINDS = ["international", "local", "store"] as const;
export type WarrantyKind = (typeof WARRANTY_KINDS)[number];

/** A specification that is text: at most `max` characters. */
type TextSpec = { kind: "text"; max: number };
/** A number of millimetres or metres or months, between `min` and `max`, with at most `decimals`. */
type NumberSpec = { kind: "number"; min: number; max: number; decimals: 0 | 1; unit: string };
type ChoiceSpec = { kind: "choice"; values: readonly string[] };
type YesNoSpec = { kind: "yes-no" };
type ListSpec = { kind: "list"; values: readonly string[] };

export type SpecDefinition = { label: string; column: string } & (
  TextSpec | NumberSpec | ChoiceSpec | YesNoSpec | ListSpec
);

/**
 * Every specification, in the order the form and the product page show them. `column` is the
 * products table's column (snake case of the key).
 */
export const SPEC_DEFINITIONS = {
  reference: { label: "Reference", column: "reference", kind: "text", max: 50 },
  movement: { label: "Movement", column: "movement", kind: "choice", values: MOVEMENTS },
  calibre: { label: "Calibre", column: "calibre", kind: "text", max: 50 },
  caseDiameterMm: {
    label: "Case diameter",
    column: "case_diameter_mm",
    kind: "number",
    min: 10,
    max: 70,
    decimals: 1,
    unit: "mm",
  },
  caseThicknessMm: {
    label: "Case thickness",
    column: "case_thickness_mm",
    kind: "number",
    min: 1,
    max: 30,
    decimals: 1,
    unit: "mm",
  },
  caseMaterial: { label: "Case material", column: "case_material", kind: "text", max: 50 },
  waterResistanceM: {
    label: "Water resistance",
    column: "water_resistance_m",
    kind: "number",
    min: 0,
    max: 12000,
    decimals: 0,
    unit: "m",
  },
  crystal: { label: "Crystal", column: "crystal", kind: "choice", values: CRYSTALS },
  strapMaterial: { label: "Strap or bracelet", column: "strap_material", kind: "text", max: 50 },
  strapColour: { label: "Strap colour", column: "strap_colour", kind: "text", max: 30 },
  dialColour: { label: "Dial colour", column: "dial_colour", kind: "text", max: 30 },
  lugWidthMm: { label: "Lug width", column: "lug_width_mm", kind: "number", min: 6, max: 40, decimals: 0, unit: "mm" },
  features: { label: "Features", column: "features", kind: "list", values: WATCH_FEATURES },
  warrantyMonths: {
    label: "Warranty",
    column: "warranty_months",
    kind: "number",
    min: 0,
    max: 120,
    decimals: 0,
    unit: "months",
  },
  warrantyKind: { label: "Warranty kind", column: "warranty_kind", kind: "choice", values: WARRANTY_KINDS },
  boxAndPapers: { label: "Box and papers", column: "box_and_papers", kind: "yes-no" },
  certificateOfAuthenticity: {
    label: "Certificate of authenticity",
    column: "certificate_of_authenticity",
    kind: "yes-no",
  },
} as const satisfies Record<string, SpecDefinition>;

export type SpecKey = keyof typeof SPEC_DEFINITIONS;
export const SPEC_KEYS = Object.keys(SPEC_DEFINITIONS) as SpecKey[];

/** A product's specifications: null where not filled in, features an empty list. */
export type WatchSpecs = {
  reference: string | null;
  movement: Movement | null;
  calibre: string | null;
  caseDiameterMm: number | null;
  caseThicknessMm: number | null;
  caseMaterial: string | null;
  waterResistanceM: number | null;
  crystal: Crystal | null;
  strapMaterial: string | null;
  strapColour: string | null;
  dialColour: string | null;
  lugWidthMm: number | null;
  features: WatchFeature[];
  warrantyMonths: number | null;
  warrantyKind: WarrantyKind | null;
  boxAndPapers: boolean | null;
  certificateOfAuthenticity: boolean | null;
};

/** The form's checkbox of one feature (one name each: a form keeps the last value of a repeated name). */
export const featureFieldName = (feature: string) => `feature:${feature}`;

/** A number spec's value as the product page says it: "41.5 mm", "200 m", "24 months". */
export function specText(key: SpecKey, value: WatchSpecs[SpecKey]): string | null {
  if (value === null || value === undefined) return null;
  const definition: SpecDefinition = SPEC_DEFINITIONS[key];
  if (definition.kind === "list") return (value as string[]).length > 0 ? (value as string[]).join(", ") : null;
  if (definition.kind === "yes-no") return value ? "Yes" : "No";
  if (definition.kind === "number") return `${value} ${definition.unit}`;
  return String(value);
}

/**
 * The case size bands of the filters (docs/product.md, "Filters"): a diameter of exactly 36 or
 * 40 is in the band above, 44 in "40–44".
 */
export const CASE_SIZE_BANDS = [
  { value: "under-36", label: "Under 36 mm" },
  { value: "36-40", label: "36–40 mm" },
  { value: "40-44", label: "40–44 mm" },
  { value: "over-44", label: "Over 44 mm" },
] as const;
export type CaseSizeBand = (typeof CASE_SIZE_BANDS)[number]["value"];
export const CASE_SIZE_VALUES = CASE_SIZE_BANDS.map((band) => band.value);

/** "Water resistance at least …": the filter's choices in metres. */
export const WATER_RESISTANCE_MINIMUMS = [50, 100, 200] as const;

/**
 * The product form's fields as the operation takes them: each specification is an input named
 * by its key, each feature a checkbox of its own (featureFieldName), gathered into `specs`.
 */
export function productFormInput(fields: Record<string, string>): Record<string, unknown> {
  const specs: Record<string, unknown> = {};
  for (const key of SPEC_KEYS) specs[key] = fields[key] ?? "";
  specs.features = WATCH_FEATURES.filter((feature) => fields[featureFieldName(feature)] === "on");
  return { ...fields, specs };
}

/** A product's specifications as the form's inputs show them (the reverse of productFormInput). */
export function specsFormValues(specs: WatchSpecs): Record<string, string> {
  const values: Record<string, string> = {};
  for (const key of SPEC_KEYS) {
    const value = specs[key];
    if (key === "features") continue;
    values[key] = value === null || value === undefined ? "" : String(value);
  }
  for (const feature of specs.features) values[featureFieldName(feature)] = "on";
  return values;
}
