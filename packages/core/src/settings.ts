/** Per-file settings beyond the spec, saved with the mapping. */
export interface FileSettings {
  /** IANA zone for dates and times written without one. */
  timeZone: string;
  /** Order of ambiguous slash dates (03/04/2026) when the column itself does not decide it. */
  dateOrder: 'MDY' | 'DMY';
  /** ISO 3166-1 alpha-2 country whose calling code is added to phones without one. */
  defaultCountry: string;
}

export const DEFAULT_FILE_SETTINGS: FileSettings = {
  timeZone: 'UTC',
  dateOrder: 'MDY',
  defaultCountry: 'US',
};
