import { exportCsv, exportHeaders } from './exports.ts';

/**
 * Shopify, HubSpot and Stripe exports with customers from the UK, France and the Netherlands, written from the
 * vendors' real header rows (packages/core/src/mapping/corpus/exports.ts). Phones are written as people there
 * write them (national, with the trunk 0), some already with +44/+33/+31; countries as codes or names. `e164`
 * is the number Meta must receive (hashed), or null when the number cannot be sent.
 */
export interface Customer {
  email: string;
  phone: string;
  country: string;
  e164: string | null;
  zip: string;
  city: string;
}

const ago = (days: number, hours = 0) => new Date(Date.now() - days * 86_400_000 - hours * 3_600_000);
/** "2026-11-25 14:03:12": how the three exports write times (Shopify adds " +0000"). */
const stamp = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19);

export const SHOPIFY_CUSTOMERS: Customer[] = [
  {
    email: 'olivia@example.co.uk',
    phone: '07400 123456',
    country: 'GB',
    e164: '447400123456',
    zip: 'SW1A 1AA',
    city: 'London',
  },
  {
    email: 'harry@example.co.uk',
    phone: '020 7946 0958',
    country: 'United Kingdom',
    e164: '442079460958',
    zip: 'EC1A 1BB',
    city: 'London',
  },
  {
    email: 'amelia@example.co.uk',
    phone: '+44 7400 654321',
    country: 'GB',
    e164: '447400654321',
    zip: 'M1 1AE',
    city: 'Manchester',
  },
  {
    email: 'camille@example.fr',
    phone: '06 12 34 56 78',
    country: 'FR',
    e164: '33612345678',
    zip: '75018',
    city: 'Paris',
  },
  {
    email: 'lucas@example.fr',
    phone: '04 91 23 45 67',
    country: 'France',
    e164: '33491234567',
    zip: '13001',
    city: 'Marseille',
  },
  {
    email: 'daan@example.nl',
    phone: '020 123 4567',
    country: 'NL',
    e164: '31201234567',
    zip: '1012 AB',
    city: 'Amsterdam',
  },
  {
    email: 'sanne@example.nl',
    phone: '+31 6 23456789',
    country: 'Netherlands',
    e164: '31623456789',
    zip: '3011 AA',
    city: 'Rotterdam',
  },
];

export const HUBSPOT_CUSTOMERS: Customer[] = [
  {
    email: 'george@example.co.uk',
    phone: '07911 123456',
    country: 'United Kingdom',
    e164: '447911123456',
    zip: 'LS1 4AP',
    city: 'Leeds',
  },
  {
    email: 'isla@example.co.uk',
    phone: '0113 496 0123',
    country: 'UK',
    e164: '441134960123',
    zip: 'LS2 7EY',
    city: 'Leeds',
  },
  // Ofcom keeps 07700 900xxx for drama: no real phone, so it is dropped and the row is sent by its email.
  {
    email: 'noah@example.co.uk',
    phone: '07700 900123',
    country: 'United Kingdom',
    e164: null,
    zip: 'CF10 1AA',
    city: 'Cardiff',
  },
  {
    email: 'lea@example.fr',
    phone: '01 23 45 67 89',
    country: 'France',
    e164: '33123456789',
    zip: '75001',
    city: 'Paris',
  },
  {
    email: 'hugo@example.fr',
    phone: '+33 6 98 76 54 32',
    country: 'France',
    e164: '33698765432',
    zip: '69001',
    city: 'Lyon',
  },
  {
    email: 'emma@example.nl',
    phone: '06 12345678',
    country: 'Nederland',
    e164: '31612345678',
    zip: '3511 AB',
    city: 'Utrecht',
  },
  {
    email: 'finn@example.nl',
    phone: '010 234 5678',
    country: 'Netherlands',
    e164: '31102345678',
    zip: '3012 CN',
    city: 'Rotterdam',
  },
];

export const STRIPE_CUSTOMERS: Customer[] = [
  {
    email: 'jack@example.co.uk',
    phone: '0161 496 0018',
    country: 'GB',
    e164: '441614960018',
    zip: 'M2 5DB',
    city: 'Manchester',
  },
  {
    email: 'manon@example.fr',
    phone: '07 81 23 45 67',
    country: 'FR',
    e164: '33781234567',
    zip: '31000',
    city: 'Toulouse',
  },
  {
    email: 'julia@example.nl',
    phone: '06-87654321',
    country: 'NL',
    e164: '31687654321',
    zip: '2511 CV',
    city: 'Den Haag',
  },
  {
    email: 'bram@example.nl',
    phone: '030 234 5678',
    country: 'NL',
    e164: '31302345678',
    zip: '3511 LX',
    city: 'Utrecht',
  },
];

/** Shopify, Orders > Export: the phone in Phone (Billing Phone empty, as Shopify leaves it for many shops). */
export function shopifyInternationalCsv(): string {
  const rows = SHOPIFY_CUSTOMERS.map((c, i) => {
    const paid = `${stamp(ago(2, i))} +0000`;
    return {
      Name: `#${2001 + i}`,
      Email: c.email,
      'Financial Status': 'paid',
      'Paid at': paid,
      'Created at': paid,
      Currency: c.country === 'GB' || c.country === 'United Kingdom' ? 'GBP' : 'EUR',
      Subtotal: '40.00',
      Total: '48.00',
      'Lineitem quantity': '1',
      'Lineitem name': 'Linen shirt',
      'Lineitem price': '40.00',
      'Lineitem sku': `LIN-${i}`,
      'Billing Name': `Customer ${i}`,
      'Billing City': c.city,
      'Billing Zip': c.zip,
      'Billing Country': c.country,
      Phone: c.phone,
      Id: `6${i}00123456`,
      Source: 'web',
    };
  });
  return exportCsv(exportHeaders('Shopify orders'), rows);
}

/** HubSpot, Contacts > Export. */
export function hubspotInternationalCsv(): string {
  const rows = HUBSPOT_CUSTOMERS.map((c, i) => ({
    'Record ID': `5120${i}`,
    'First Name': `Contact${i}`,
    'Last Name': 'Example',
    Email: c.email,
    'Phone Number': c.phone,
    'Lifecycle Stage': 'lead',
    'Create Date': stamp(ago(3, i)).slice(0, 16),
    City: c.city,
    'Postal Code': c.zip,
    'Country/Region': c.country,
  }));
  return exportCsv(exportHeaders('HubSpot contacts'), rows);
}

/**
 * Stripe, Payments > Export. Stripe's default columns hold no phone; a shop that keeps the phone in the
 * payment's metadata gets it as a "<key> (metadata)" column at the end, which the user maps by hand.
 */
export const STRIPE_PHONE_COLUMN = 'phone (metadata)';
export function stripeInternationalCsv(): string {
  const rows = STRIPE_CUSTOMERS.map((c, i) => ({
    id: `ch_3Q${i}xYZ${i}abc`,
    'Created (UTC)': stamp(ago(1, i)),
    Amount: '59.00',
    'Amount Refunded': '0.00',
    Currency: c.country === 'GB' ? 'gbp' : 'eur',
    Captured: 'true',
    Status: 'Paid',
    'Customer ID': `cus_R${i}abc`,
    'Customer Email': c.email,
    'Card Address City': c.city,
    'Card Address Country': c.country,
    'Card Address Zip': c.zip,
    [STRIPE_PHONE_COLUMN]: c.phone,
  }));
  return exportCsv([...exportHeaders('Stripe payments'), STRIPE_PHONE_COLUMN], rows);
}
