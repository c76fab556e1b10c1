// Area code -> state. Built from the npm package areacodes 0.2.1 (MIT, 341 US codes with a state) plus
// the codes added since (NANPA overlays 2020-2025), kept to exactly the US geographic area codes of the
// generated numbering table (numbering.generated.ts): area-codes.test.ts fails when the two disagree.
// Canada, the Caribbean and non-geographic codes (toll-free, premium, 5XX) have no state.
export const AREA_CODES_BY_STATE: Record<string, readonly number[]> = {
  AK: [907],
  AL: [205, 251, 256, 334, 659, 938],
  AR: [327, 479, 501, 870],
  AS: [684],
  AZ: [480, 520, 602, 623, 928],
  CA: [
    209, 213, 279, 310, 323, 341, 350, 369, 408, 415, 424, 442, 510, 530, 559, 562, 619, 626, 628, 650, 657, 661, 669, 707, 714, 738, 747, 760, 805, 818, 820,
    831, 840, 858, 909, 916, 925, 949, 951,
  ],
  CO: [303, 719, 720, 748, 970, 983],
  CT: [203, 475, 860, 959],
  DC: [202, 771],
  DE: [302],
  FL: [239, 305, 321, 324, 352, 386, 407, 448, 561, 645, 656, 689, 727, 728, 754, 772, 786, 813, 850, 863, 904, 941, 954],
  GA: [229, 404, 470, 478, 678, 706, 762, 770, 912, 943],
  GU: [671],
  HI: [808],
  IA: [319, 515, 563, 641, 712],
  ID: [208, 986],
  IL: [217, 224, 309, 312, 331, 447, 464, 618, 630, 708, 730, 773, 779, 815, 847, 872],
  IN: [219, 260, 317, 463, 574, 765, 812, 930],
  KS: [316, 620, 785, 913],
  KY: [270, 364, 502, 606, 859],
  LA: [225, 318, 337, 504, 985],
  MA: [339, 351, 413, 508, 617, 774, 781, 857, 978],
  MD: [227, 240, 301, 410, 443, 667],
  ME: [207],
  MI: [231, 248, 269, 313, 517, 586, 616, 734, 810, 906, 947, 989],
  MN: [218, 320, 507, 612, 651, 763, 952],
  MO: [235, 314, 417, 557, 573, 636, 660, 816, 975],
  MP: [670],
  MS: [228, 601, 662, 769],
  MT: [406],
  NC: [252, 336, 472, 704, 743, 828, 910, 919, 980, 984],
  ND: [701],
  NE: [308, 402, 531],
  NH: [603],
  NJ: [201, 551, 609, 640, 732, 848, 856, 862, 908, 973],
  NM: [505, 575],
  NV: [702, 725, 775],
  NY: [212, 315, 329, 332, 347, 363, 516, 518, 585, 607, 631, 646, 680, 716, 718, 838, 845, 914, 917, 929, 934],
  OH: [216, 220, 234, 283, 326, 330, 380, 419, 440, 513, 567, 614, 740, 937],
  OK: [405, 539, 572, 580, 918],
  OR: [458, 503, 541, 971],
  PA: [215, 223, 267, 272, 412, 445, 484, 570, 582, 610, 717, 724, 814, 835, 878],
  PR: [787, 939],
  RI: [401],
  SC: [803, 821, 839, 843, 854, 864],
  SD: [605],
  TN: [423, 615, 629, 731, 865, 901, 931],
  TX: [210, 214, 254, 281, 325, 346, 361, 409, 430, 432, 469, 512, 682, 713, 726, 737, 806, 817, 830, 832, 903, 915, 936, 940, 945, 956, 972, 979],
  UT: [385, 435, 801],
  VA: [276, 434, 540, 571, 686, 703, 757, 804, 826, 948],
  VI: [340],
  VT: [802],
  WA: [206, 253, 360, 425, 509, 564],
  WI: [262, 274, 353, 414, 534, 608, 715, 920],
  WV: [304, 681],
  WY: [307],
};

export const US_STATES: readonly { code: string; name: string }[] = [
  { code: "AL", name: "Alabama" },
  { code: "AK", name: "Alaska" },
  { code: "AZ", name: "Arizona" },
  { code: "AR", name: "Arkansas" },
  { code: "CA", name: "California" },
  { code: "CO", name: "Colorado" },
  { code: "CT", name: "Connecticut" },
  { code: "DE", name: "Delaware" },
  { code: "DC", name: "District of Columbia" },
  { code: "FL", name: "Florida" },
  { code: "GA", name: "Georgia" },
  { code: "HI", name: "Hawaii" },
  { code: "ID", name: "Idaho" },
  { code: "IL", name: "Illinois" },
  { code: "IN", name: "Indiana" },
  { code: "IA", name: "Iowa" },
  { code: "KS", name: "Kansas" },
  { code: "KY", name: "Kentucky" },
  { code: "LA", name: "Louisiana" },
  { code: "ME", name: "Maine" },
  { code: "MD", name: "Maryland" },
  { code: "MA", name: "Massachusetts" },
  { code: "MI", name: "Michigan" },
  { code: "MN", name: "Minnesota" },
  { code: "MS", name: "Mississippi" },
  { code: "MO", name: "Missouri" },
  { code: "MT", name: "Montana" },
  { code: "NE", name: "Nebraska" },
  { code: "NV", name: "Nevada" },
  { code: "NH", name: "New Hampshire" },
  { code: "NJ", name: "New Jersey" },
  { code: "NM", name: "New Mexico" },
  { code: "NY", name: "New York" },
  { code: "NC", name: "North Carolina" },
  { code: "ND", name: "North Dakota" },
  { code: "OH", name: "Ohio" },
  { code: "OK", name: "Oklahoma" },
  { code: "OR", name: "Oregon" },
  { code: "PA", name: "Pennsylvania" },
  { code: "RI", name: "Rhode Island" },
  { code: "SC", name: "South Carolina" },
  { code: "SD", name: "South Dakota" },
  { code: "TN", name: "Tennessee" },
  { code: "TX", name: "Texas" },
  { code: "UT", name: "Utah" },
  { code: "VT", name: "Vermont" },
  { code: "VA", name: "Virginia" },
  { code: "WA", name: "Washington" },
  { code: "WV", name: "West Virginia" },
  { code: "WI", name: "Wisconsin" },
  { code: "WY", name: "Wyoming" },
  // Territories inside the NANP with US area codes.
  { code: "AS", name: "American Samoa" },
  { code: "GU", name: "Guam" },
  { code: "MP", name: "Northern Mariana Islands" },
  { code: "PR", name: "Puerto Rico" },
  { code: "VI", name: "U.S. Virgin Islands" },
];

/** Area code (200-999) -> two-letter state code. */
export const AREA_CODE_STATES: ReadonlyMap<number, string> = new Map(
  Object.entries(AREA_CODES_BY_STATE).flatMap(([state, codes]) => codes.map((c) => [c, state] as [number, string])),
);

export function stateOfAreaCode(areaCode: number): string | null {
  return AREA_CODE_STATES.get(areaCode) ?? null;
}

/** The state of a normalized 10-digit number. */
export function stateOfNumber(n: number): string | null {
  return stateOfAreaCode(Math.floor(n / 10_000_000));
}

/** A 1000-entry bitmap (index = area code) of the codes in the given states; for the hot path. */
export function areaCodeMask(states: readonly string[]): Uint8Array {
  const mask = new Uint8Array(1000);
  const wanted = new Set(states.map((s) => s.toUpperCase()));
  for (const [code, state] of AREA_CODE_STATES) if (wanted.has(state)) mask[code] = 1;
  return mask;
}
