import { describe, expect, it } from 'vitest';
import { FIELD_BY_KEY, FIELDS, fieldsOfGroup, hardcodedChoices, REQUIRED_FIELDS } from './catalogue.ts';

describe('field catalogue', () => {
  it('has the spec §3 group sizes', () => {
    expect(fieldsOfGroup('event')).toHaveLength(11);
    expect(fieldsOfGroup('user')).toHaveLength(25);
    expect(fieldsOfGroup('app')).toHaveLength(9);
    expect(fieldsOfGroup('original')).toHaveLength(4);
    // 69 website parameters + item_number + 10 app parameters
    expect(fieldsOfGroup('custom')).toHaveLength(80);
  });

  it('has unique keys and marks exactly the three required fields', () => {
    expect(new Set(FIELDS.map((f) => f.key)).size).toBe(FIELDS.length);
    expect(FIELDS.filter((f) => f.required).map((f) => f.key)).toEqual([...REQUIRED_FIELDS]);
  });

  it('hashes exactly the customer information keys Meta hashes', () => {
    expect(
      FIELDS.filter((f) => f.hashed)
        .map((f) => f.metaKey)
        .sort(),
    ).toEqual(['country', 'ct', 'db', 'em', 'external_id', 'fn', 'ge', 'ln', 'ph', 'st', 'zp'].sort());
  });

  it('offers the spec §5 values for hardcoded selects', () => {
    expect(FIELD_BY_KEY.get('action_source')!.allowedValues).toEqual([
      'email',
      'website',
      'app',
      'phone_call',
      'chat',
      'physical_store',
      'system_generated',
      'other',
    ]);
    expect(FIELD_BY_KEY.get('gender')!.allowedValues).toEqual(['f', 'm']);
    expect(FIELD_BY_KEY.get('currency')!.allowedValues).toEqual(['USD', 'CAD', 'EUR', 'GBP', 'AUD']);
    expect(FIELD_BY_KEY.get('delivery_category')!.allowedValues).toEqual([
      'in_store',
      'curbside',
      'home_delivery',
    ]);
    expect(FIELD_BY_KEY.get('travel_class')!.allowedValues).toEqual([
      'economy',
      'premium_economy',
      'business',
      'first',
    ]);
    expect(FIELD_BY_KEY.get('fb_success')!.allowedValues).toEqual(['true', 'false']);
    expect(FIELD_BY_KEY.get('advertiser_tracking_enabled')!.allowedValues).toEqual(['0', '1']);
  });

  it('places standard parameters that share a user-data name under custom_data with their Meta key', () => {
    expect(FIELD_BY_KEY.get('custom_city')).toMatchObject({ metaKey: 'city', placement: 'custom_data' });
    expect(FIELD_BY_KEY.get('city')).toMatchObject({ metaKey: 'ct', placement: 'user_data', hashed: true });
    expect(FIELD_BY_KEY.get('original_event_time')).toMatchObject({
      metaKey: 'event_time',
      placement: 'original_event_data',
    });
  });
});

describe('hardcodedChoices (spec §5)', () => {
  it('offers a select for exactly the fields spec §5 lists, with its values', () => {
    const selects = Object.fromEntries(
      FIELDS.flatMap((f) => {
        const choices = hardcodedChoices(f);
        return choices ? [[f.key, choices.join(', ')]] : [];
      }),
    );
    expect(selects).toEqual({
      action_source: 'email, website, app, phone_call, chat, physical_store, system_generated, other',
      gender: 'f, m',
      currency: 'USD, CAD, EUR, GBP, AUD',
      delivery_category: 'in_store, curbside, home_delivery',
      advertiser_tracking_enabled: '0, 1',
      application_tracking_enabled: '0, 1',
      travel_class: 'economy, premium_economy, business, first',
      fb_payment_info_available: '0, 1',
      fb_success: 'true, false',
    });
  });
});

describe('field labels', () => {
  it('gives each field a human label', () => {
    const labelOf = (key: string) => FIELD_BY_KEY.get(key)?.label;
    expect(labelOf('email')).toBe('Email');
    expect(labelOf('phone')).toBe('Phone');
    expect(labelOf('event_time')).toBe('Event time');
    expect(labelOf('order_id')).toBe('Order ID');
    expect(labelOf('client_ip_address')).toBe('Client IP address');
    expect(labelOf('content_ids')).toBe('Content IDs');
    expect(labelOf('db')).toBe('Date of birth');
    expect(new Set(FIELDS.map((f) => f.label)).size).toBe(FIELDS.length);
  });
});
