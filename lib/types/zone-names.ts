/**
 * Time zone names that are not zone ids: abbreviations (`CEST`, `PDT`, `AEST`) and English long
 * names (`Central European Summer Time`), as QuestDB accepts them. QuestDB's `DateLocale` indexes
 * every name of Java's English `DateFormatSymbols.getZoneStrings()` and resolves a name to the
 * rules of the first region that carries it; so `CEST` is not a fixed +02:00 but the rules of a
 * Central European region, and `to_timezone(winter_ts, 'CEST')` is +01:00. Names are matched
 * case-insensitively.
 *
 * Abbreviations come from the table below (Java's English short names, each mapped to one region
 * that uses it; regions agree on their rules since about 1990, earlier history may differ from
 * the region Java lists first). Long names are read from `Intl` (the CLDR names Java also uses),
 * built once on the first name that is not an id.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** English short zone names (standard and daylight) → the region whose rules they stand for. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  // Europe
  CEST: 'Europe/Paris', MEST: 'MET', EEST: 'Europe/Athens', WEST: 'Europe/Lisbon',
  MSK: 'Europe/Moscow', TRT: 'Europe/Istanbul', SAMT: 'Europe/Samara',
  // North America (EST, MST, HST, CST, PST, AST are Java's SHORT_IDS, resolved before this table)
  EDT: 'America/New_York', CDT: 'America/Chicago', MDT: 'America/Denver', PDT: 'America/Los_Angeles',
  AKST: 'America/Anchorage', AKDT: 'America/Anchorage', HDT: 'America/Adak',
  ADT: 'America/Halifax', NDT: 'America/St_Johns',
  // South America
  BRT: 'America/Sao_Paulo', CLT: 'America/Santiago', CLST: 'America/Santiago', COT: 'America/Bogota',
  PET: 'America/Lima', VET: 'America/Caracas', UYT: 'America/Montevideo', PYT: 'America/Asuncion',
  BOT: 'America/La_Paz', GFT: 'America/Cayenne',
  // Africa (CAT, EAT are SHORT_IDS)
  SAST: 'Africa/Johannesburg', WAT: 'Africa/Lagos',
  // Asia (IST, JST, BST, PLT, VST, CTT are SHORT_IDS)
  KST: 'Asia/Seoul', HKT: 'Asia/Hong_Kong', SGT: 'Asia/Singapore', ICT: 'Asia/Bangkok',
  WIB: 'Asia/Jakarta', WITA: 'Asia/Makassar', WIT: 'Asia/Jayapura', PKT: 'Asia/Karachi',
  NPT: 'Asia/Kathmandu', GST: 'Asia/Dubai', IRST: 'Asia/Tehran', IRDT: 'Asia/Tehran',
  IDT: 'Asia/Jerusalem', AFT: 'Asia/Kabul', UZT: 'Asia/Tashkent', MYT: 'Asia/Kuala_Lumpur',
  PHT: 'Asia/Manila', ULAT: 'Asia/Ulaanbaatar', AZT: 'Asia/Baku', GET: 'Asia/Tbilisi',
  YEKT: 'Asia/Yekaterinburg', OMST: 'Asia/Omsk', KRAT: 'Asia/Krasnoyarsk', IRKT: 'Asia/Irkutsk',
  YAKT: 'Asia/Yakutsk', VLAT: 'Asia/Vladivostok', MAGT: 'Asia/Magadan', PETT: 'Asia/Kamchatka',
  // Oceania (NST, SST, MIT are SHORT_IDS)
  AEST: 'Australia/Sydney', AEDT: 'Australia/Sydney', ACST: 'Australia/Adelaide', ACDT: 'Australia/Adelaide',
  AWST: 'Australia/Perth', NZST: 'Pacific/Auckland', NZDT: 'Pacific/Auckland', CHST: 'Pacific/Guam',
  FJT: 'Pacific/Fiji', TOT: 'Pacific/Tongatapu', SBT: 'Pacific/Guadalcanal',
}

let longNames: Map<string, string> | undefined

/** English long names (standard, daylight and generic) of every region Intl knows, first region wins. */
function buildLongNames(): Map<string, string> {
  const names = new Map<string, string>()
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf
  if (supported === undefined) return names
  const jan = Date.UTC(2024, 0, 15), jul = Date.UTC(2024, 6, 15)
  for (const zone of supported('timeZone')) {
    for (const style of ['long', 'longGeneric'] as const) {
      const fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: style })
      for (const at of [jan, jul]) {
        const name = fmt.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value
        // Intl writes "GMT+02:00" for a zone without an English name: that is an offset, not a name
        if (name !== undefined && !name.startsWith('GMT') && !names.has(name.toUpperCase())) names.set(name.toUpperCase(), zone)
      }
    }
  }
  return names
}

/**
 * The region a zone abbreviation or English long name stands for (`CEST` → a Central European
 * region, `Pacific Daylight Time` → `America/Los_Angeles`), or undefined when `name` is neither.
 */
export function zoneForName(name: string): string | undefined {
  const key = name.toUpperCase()
  const abbr = ABBREVIATIONS[key]
  if (abbr !== undefined) return abbr
  longNames ??= buildLongNames()
  return longNames.get(key)
}
