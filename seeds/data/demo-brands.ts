/** The demo catalogue's brands (their slugs: server/modules/catalog/brands.shared.ts) and the short text of their pages. */
export const demoBrandTexts: Record<string, string> = {
  casio:
    "Japanese maker of the G-Shock, the Edifice and the Duro: tough quartz watches with long-lasting batteries, at prices for every day.",
  titan:
    "India's largest watchmaker, known for slim dress watches such as the Edge and jewellery-inspired ladies' watches like the Raga.",
  fossil:
    "American fashion watches with vintage-inspired chronographs for men and rose gold-tone styles for women, backed by a two-year international warranty.",
  orient:
    "Japanese maker of in-house automatic movements, from the Bambino dress watch to the Kamasu diver, at honest prices.",
  seiko:
    "Japanese watchmaker since 1881: Seiko 5 Sports, Presage and Prospex automatics built around the dependable 4R movements.",
  citizen:
    "Japanese pioneer of Eco-Drive, light-powered movements that never need a battery change, in divers, chronographs and dress watches.",
  "swiss-military":
    "Swiss-made quartz watches with a military heritage: sturdy chronographs and slim mesh-bracelet ladies' watches.",
  tissot:
    "Swiss watchmaker from Le Locle since 1853, best known for the Powermatic 80 automatic with its 80-hour power reserve.",
  rado:
    "Swiss master of high-tech ceramic: scratch-resistant cases and bracelets, from the Captain Cook diver to the Centrix.",
  longines:
    "Swiss watchmaker from Saint-Imier since 1832: elegant automatics, moon phases and the HydroConquest diver.",
  "tag-heuer":
    "Swiss avant-garde watchmaking with racing roots: the Carrera chronograph and the Aquaracer diver.",
  omega:
    "Swiss watchmaker of the Speedmaster and the Seamaster; its De Ville line is the house's classic dress collection.",
};
