import { SelectField } from '../../components/ui/Field.tsx';

// One picker per setting, shared by the upload flow's file settings and the source wizard: the same lists, the
// same labels for the same country, so a source reads its file as an upload with the same settings would.
const TIME_ZONES =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
const COUNTRIES = [
  'US',
  'CA',
  'GB',
  'AU',
  'NZ',
  'IE',
  'DE',
  'FR',
  'ES',
  'IT',
  'NL',
  'BE',
  'SE',
  'DK',
  'NO',
  'FI',
  'PL',
  'PT',
  'CH',
  'AT',
  'MX',
  'BR',
  'AR',
  'CO',
  'CL',
  'IN',
  'SG',
  'AE',
  'ZA',
  'PH',
  'JP',
];
const countryName = new Intl.DisplayNames(['en'], { type: 'region' });

interface PickerProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** An IANA time zone from the browser's list; a saved zone the list lacks stays choosable. */
export function TimeZonePicker({ label, value, onChange, error }: PickerProps) {
  return (
    <SelectField label={label} value={value} error={error} onChange={(e) => onChange(e.target.value)}>
      {TIME_ZONES.includes(value) ? null : <option value={value}>{value}</option>}
      {TIME_ZONES.map((z) => (
        <option key={z}>{z}</option>
      ))}
    </SelectField>
  );
}

/** The country whose calling code phones without one get; a saved country the list lacks stays choosable. */
export function PhoneCountryPicker({ label, value, onChange, error }: PickerProps) {
  return (
    <SelectField label={label} value={value} error={error} onChange={(e) => onChange(e.target.value)}>
      {(COUNTRIES.includes(value) ? COUNTRIES : [value, ...COUNTRIES]).map((c) => (
        <option key={c} value={c}>
          {countryName.of(c)} ({c})
        </option>
      ))}
    </SelectField>
  );
}
