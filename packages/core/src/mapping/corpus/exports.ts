/**
 * Header rows of the exports marketers upload, the test corpus of column suggestions (decision 0050).
 *
 * `expect` holds each key column and the field a careful marketer would map it to; every other column of the
 * row must get no suggestion at all (a guess the user has to undo counts as wrong). Where two columns could
 * serve one field, `expect` names the one that should win and the other must stay empty.
 *
 * Sources are the vendors' export formats as documented in their help centres and as they appear in public
 * sample files and importers; "representative" marks a row assembled from the vendor's documented column
 * names where no complete published sample was found.
 */
export interface CorpusExport {
  name: string;
  source: string;
  headers: readonly string[];
  expect: Readonly<Record<string, string>>;
}

const split = (row: string) => row.split(',');

export const CORPUS: readonly CorpusExport[] = [
  {
    name: 'Shopify orders',
    source:
      'Shopify admin, Orders > Export (orders_export.csv); help.shopify.com "Exporting orders"; header row as in public sample files',
    headers: split(
      'Name,Email,Financial Status,Paid at,Fulfillment Status,Fulfilled at,Accepts Marketing,Currency,Subtotal,Shipping,Taxes,Total,Discount Code,Discount Amount,Shipping Method,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem compare at price,Lineitem sku,Lineitem requires shipping,Lineitem taxable,Lineitem fulfillment status,Billing Name,Billing Street,Billing Address1,Billing Address2,Billing Company,Billing City,Billing Zip,Billing Province,Billing Country,Billing Phone,Shipping Name,Shipping Street,Shipping Address1,Shipping Address2,Shipping Company,Shipping City,Shipping Zip,Shipping Province,Shipping Country,Shipping Phone,Notes,Note Attributes,Cancelled at,Payment Method,Payment Reference,Refunded Amount,Vendor,Outstanding Balance,Employee,Location,Device ID,Id,Tags,Risk Level,Source,Lineitem discount,Tax 1 Name,Tax 1 Value,Tax 2 Name,Tax 2 Value,Tax 3 Name,Tax 3 Value,Tax 4 Name,Tax 4 Value,Tax 5 Name,Tax 5 Value,Phone,Receipt Number,Duties,Billing Province Name,Shipping Province Name,Payment ID,Payment Terms Name,Next Payment Due At,Payment References',
    ),
    expect: {
      'Billing Name': 'full_name',
      Email: 'email',
      'Paid at': 'event_time',
      Currency: 'currency',
      Total: 'value',
      'Lineitem sku': 'content_ids',
      'Billing City': 'city',
      'Billing Zip': 'zip',
      'Billing Province': 'state',
      'Billing Country': 'country',
      Phone: 'phone',
      Id: 'order_id',
    },
  },
  {
    name: 'Shopify customers',
    source: 'Shopify admin, Customers > Export (customers_export.csv), current column names',
    headers: split(
      'Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Default Address Company,Default Address Address1,Default Address Address2,Default Address City,Default Address Province Code,Default Address Country Code,Default Address Zip,Default Address Phone,Phone,Accepts SMS Marketing,Total Spent,Total Orders,Note,Tax Exempt,Tags',
    ),
    expect: {
      'Customer ID': 'external_id',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      Email: 'email',
      'Default Address City': 'city',
      'Default Address Province Code': 'state',
      'Default Address Country Code': 'country',
      'Default Address Zip': 'zip',
      Phone: 'phone',
    },
  },
  {
    name: 'WooCommerce orders',
    source:
      'WooCommerce, "Advanced Order Export For WooCommerce" plugin (the common way to export orders), default field labels',
    headers: split(
      'Order Number,Order Status,Order Date,Customer Note,First Name (Billing),Last Name (Billing),Company (Billing),Address 1&2 (Billing),City (Billing),State Code (Billing),Postcode (Billing),Country Code (Billing),Email (Billing),Phone (Billing),First Name (Shipping),Last Name (Shipping),Address 1&2 (Shipping),City (Shipping),State Code (Shipping),Postcode (Shipping),Country Code (Shipping),Payment Method Title,Cart Discount Amount,Order Subtotal Amount,Shipping Method Title,Order Shipping Amount,Order Refund Amount,Order Total Amount,Order Total Tax Amount,SKU,Item #,Item Name,Quantity (- Refund),Item Cost,Coupon Code',
    ),
    expect: {
      'Order Number': 'order_id',
      'Order Date': 'event_time',
      'First Name (Billing)': 'first_name',
      'Last Name (Billing)': 'last_name',
      'City (Billing)': 'city',
      'State Code (Billing)': 'state',
      'Postcode (Billing)': 'zip',
      'Country Code (Billing)': 'country',
      'Email (Billing)': 'email',
      'Phone (Billing)': 'phone',
      'Order Total Amount': 'value',
      SKU: 'content_ids',
    },
  },
  {
    name: 'WooCommerce Analytics orders',
    source: 'WooCommerce > Analytics > Orders, Download (CSV of the orders table)',
    headers: split(
      'Date,Order #,Status,Customer,Customer type,Product(s),Items sold,Coupon(s),Net Sales,Attribution',
    ),
    expect: { Date: 'event_time', 'Order #': 'order_id', 'Net Sales': 'value' },
  },
  {
    name: 'WooCommerce customers',
    source: 'WooCommerce > Customers, Download (CSV of the customers table)',
    headers: split(
      'Name,Username,Last Active,Date Registered,Email,Orders,Total Spend,AOV,Country/Region,City,Region,Postal Code',
    ),
    expect: {
      Name: 'full_name',
      'Date Registered': 'event_time',
      Email: 'email',
      'Country/Region': 'country',
      City: 'city',
      Region: 'state',
      'Postal Code': 'zip',
    },
  },
  {
    name: 'HubSpot contacts',
    source:
      'HubSpot CRM, Contacts > Export (default properties and common columns: Record ID, State/Region, Country/Region)',
    headers: split(
      'Record ID,First Name,Last Name,Email,Phone Number,Mobile Phone Number,Lifecycle Stage,Lead Status,Contact owner,Create Date,Last Activity Date,Associated Company,Job Title,Street Address,City,State/Region,Postal Code,Country/Region,Original Source,Latest Source,Marketing contact status,IP Country',
    ),
    expect: {
      'Record ID': 'external_id',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      Email: 'email',
      'Phone Number': 'phone',
      'Create Date': 'event_time',
      City: 'city',
      'State/Region': 'state',
      'Postal Code': 'zip',
      'Country/Region': 'country',
    },
  },
  {
    name: 'HubSpot deals',
    source: 'HubSpot CRM, Deals > Export (default columns)',
    headers: split(
      'Record ID,Deal Name,Deal Stage,Close Date,Deal owner,Amount,Create Date,Pipeline,Deal Type,Associated Contact IDs,Associated Company IDs',
    ),
    expect: { 'Record ID': 'order_id', 'Close Date': 'event_time', Amount: 'value' },
  },
  {
    name: 'Salesforce leads',
    source: 'Salesforce, Leads report exported as CSV (report column labels)',
    headers: split(
      'Lead ID,Salutation,First Name,Last Name,Title,Company,Email,Phone,Mobile,Street,City,State/Province,Zip/Postal Code,Country,Lead Source,Lead Status,Rating,Lead Owner,Create Date,Last Activity,Industry,Annual Revenue,No. of Employees',
    ),
    expect: {
      'Lead ID': 'external_id',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      Email: 'email',
      Phone: 'phone',
      City: 'city',
      'State/Province': 'state',
      'Zip/Postal Code': 'zip',
      Country: 'country',
      'Create Date': 'event_time',
    },
  },
  {
    name: 'Salesforce contacts',
    source: 'Salesforce, Contacts & Accounts report exported as CSV (report column labels)',
    headers: split(
      'Contact ID,Account Name,Salutation,First Name,Last Name,Title,Mailing Street,Mailing City,Mailing State/Province,Mailing Zip/Postal Code,Mailing Country,Phone,Mobile,Email,Birthdate,Lead Source,Contact Owner,Created Date',
    ),
    expect: {
      'Contact ID': 'external_id',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      'Mailing City': 'city',
      'Mailing State/Province': 'state',
      'Mailing Zip/Postal Code': 'zip',
      'Mailing Country': 'country',
      Phone: 'phone',
      Email: 'email',
      Birthdate: 'db',
      'Created Date': 'event_time',
    },
  },
  {
    name: 'Pipedrive people',
    source:
      'Pipedrive, Contacts > People > Export (representative: each column prefixed with its item, "Person - ", and multi-value fields with their label)',
    headers: split(
      'Person - ID,Person - Name,Person - First name,Person - Last name,Person - Organization,Person - Email - Work,Person - Email - Home,Person - Phone - Work,Person - Phone - Mobile,Person - Label,Person - Owner,Person - Person created,Person - Update time,Person - Open deals,Person - Won deals',
    ),
    expect: {
      'Person - ID': 'external_id',
      'Person - First name': 'first_name',
      'Person - Last name': 'last_name',
      'Person - Email - Work': 'email',
      'Person - Phone - Mobile': 'phone',
      'Person - Person created': 'event_time',
    },
  },
  {
    name: 'Pipedrive deals',
    source: 'Pipedrive, Deals > Export (representative: "Deal - " and "Person - " prefixed columns)',
    headers: split(
      'Deal - ID,Deal - Title,Deal - Creator,Deal - Owner,Deal - Value,Deal - Currency,Deal - Organization,Deal - Pipeline,Deal - Contact person,Deal - Stage,Deal - Status,Deal - Deal created,Deal - Won time,Deal - Expected close date,Person - Email - Work,Person - Phone - Work',
    ),
    expect: {
      'Deal - ID': 'order_id',
      'Deal - Value': 'value',
      'Deal - Currency': 'currency',
      'Deal - Won time': 'event_time',
      'Person - Email - Work': 'email',
      'Person - Phone - Work': 'phone',
    },
  },
  {
    name: 'Zoho CRM leads',
    source: 'Zoho CRM, Leads module export (Setup > Data Administration > Export), standard field labels',
    headers: split(
      'Record Id,Lead Owner,Company,First Name,Last Name,Title,Email,Phone,Mobile,Website,Lead Source,Lead Status,Industry,No. of Employees,Annual Revenue,Rating,Email Opt Out,Skype ID,Secondary Email,Created By,Modified By,Created Time,Modified Time,Street,City,State,Zip Code,Country,Description,Last Activity Time,Tag',
    ),
    expect: {
      'Record Id': 'external_id',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      Email: 'email',
      Phone: 'phone',
      'Created Time': 'event_time',
      City: 'city',
      State: 'state',
      'Zip Code': 'zip',
      Country: 'country',
    },
  },
  {
    name: 'Stripe payments',
    source: 'Stripe Dashboard, Payments > Export (unified_payments.csv, default columns)',
    headers: split(
      'id,Created (UTC),Amount,Amount Refunded,Currency,Captured,Converted Amount,Converted Amount Refunded,Converted Currency,Decline Reason,Description,Fee,Refunded date (UTC),Statement Descriptor,Status,Seller Message,Taxes On Fee,Card ID,Customer ID,Customer Description,Customer Email,Invoice ID,Transfer,Card Address Line1,Card Address Line2,Card Address City,Card Address State,Card Address Country,Card Address Zip,Card Brand,Card Funding,Card Last4,Card Name,Card Issue Country,Card Fingerprint,Card CVC Status,Card AVS Zip Status,Card AVS Line1 Status,Card Tokenization Method,Disputed Amount,Dispute Status,Dispute Reason,Dispute Date (UTC),Dispute Evidence Due (UTC),Invoice Number,Payment Source Type,Destination',
    ),
    expect: {
      'Card Name': 'full_name',
      id: 'order_id',
      'Created (UTC)': 'event_time',
      Amount: 'value',
      Currency: 'currency',
      'Customer ID': 'external_id',
      'Customer Email': 'email',
      'Card Address City': 'city',
      'Card Address State': 'state',
      'Card Address Country': 'country',
      'Card Address Zip': 'zip',
    },
  },
  {
    name: 'Square transactions',
    source: 'Square Dashboard, Transactions > Export Transactions CSV',
    headers: split(
      'Date,Time,Time Zone,Gross Sales,Discounts,Service Charges,Net Sales,Gift Card Sales,Tax,Tip,Partial Refunds,Total Collected,Source,Card,Card Entry Methods,Cash,Square Gift Card,Other Tender,Other Tender Type,Tender Note,Fees,Net Total,Transaction ID,Payment ID,Card Brand,PAN Suffix,Device Name,Staff Name,Staff ID,Details,Description,Event Type,Location,Dining Option,Customer ID,Customer Name,Customer Reference ID,Device Nickname,Deposit ID,Deposit Date,Deposit Details',
    ),
    expect: {
      'Customer Name': 'full_name',
      Date: 'event_time',
      'Total Collected': 'value',
      'Transaction ID': 'order_id',
      'Customer ID': 'external_id',
    },
  },
  {
    name: 'Square customers',
    source: 'Square Dashboard, Customers > Export customers (customer directory CSV)',
    headers: split(
      'Reference ID,First Name,Last Name,Email Address,Phone Number,Nickname,Company Name,Street Address 1,Street Address 2,City,State,Postal Code,Birthday,Memo,Square Customer ID,Creation Source,First Visit,Last Visit,Transaction Count,Total Spend,Email Subscription Status,Instant Profile',
    ),
    expect: {
      'First Name': 'first_name',
      'Last Name': 'last_name',
      'Email Address': 'email',
      'Phone Number': 'phone',
      City: 'city',
      State: 'state',
      'Postal Code': 'zip',
      Birthday: 'db',
      'Square Customer ID': 'external_id',
    },
  },
  {
    name: 'QuickBooks Online invoice list',
    source: 'QuickBooks Online, Sales > Invoices (Invoice List report) exported to CSV',
    headers: split('Date,Transaction Type,No.,Customer,Memo/Description,Due Date,Amount,Open Balance,Status'),
    expect: { Date: 'event_time', 'No.': 'order_id', Amount: 'value' },
  },
  {
    name: 'QuickBooks Online customer contact list',
    source: 'QuickBooks Online, Reports > Customer Contact List exported to CSV',
    headers: split('Customer,Phone Numbers,Email,Full Name,Billing Address,Shipping Address'),
    expect: {
      'Full Name': 'full_name',
      'Phone Numbers': 'phone',
      Email: 'email',
    },
  },
  {
    name: 'Meta Lead Ads download',
    source:
      'Meta Business Suite / Ads Manager, lead form "Download leads" CSV: fixed columns then the form questions by key',
    headers: split(
      'id,created_time,ad_id,ad_name,adset_id,adset_name,campaign_id,campaign_name,form_id,form_name,is_organic,platform,email,full_name,phone_number,lead_status',
    ),
    expect: {
      full_name: 'full_name',
      id: 'lead_id',
      created_time: 'event_time',
      email: 'email',
      phone_number: 'phone',
    },
  },
  {
    name: 'Meta Lead Ads download, full contact form',
    source:
      'Meta lead form download with the standard contact questions (first_name, zip_code, date_of_birth ...)',
    headers: split(
      'id,created_time,ad_id,ad_name,adset_id,adset_name,campaign_id,campaign_name,form_id,form_name,is_organic,platform,first_name,last_name,email,phone_number,street_address,city,state,zip_code,country,date_of_birth,gender,job_title,company_name',
    ),
    expect: {
      id: 'lead_id',
      created_time: 'event_time',
      first_name: 'first_name',
      last_name: 'last_name',
      email: 'email',
      phone_number: 'phone',
      city: 'city',
      state: 'state',
      zip_code: 'zip',
      country: 'country',
      date_of_birth: 'db',
      gender: 'gender',
    },
  },
  {
    name: 'Google Forms responses',
    source: 'Google Forms responses sheet downloaded as CSV (Timestamp and Email Address are added by Forms)',
    headers: split(
      'Timestamp,Email Address,Full Name,Phone Number,What service are you interested in?,How did you hear about us?,Zip Code',
    ),
    expect: {
      'Full Name': 'full_name',
      Timestamp: 'event_time',
      'Email Address': 'email',
      'Phone Number': 'phone',
      'Zip Code': 'zip',
    },
  },
  {
    name: 'Google Sheets lead list',
    source: 'representative hand-kept Google Sheets lead tracker downloaded as CSV',
    headers: split('Date,First Name,Last Name,Email,Phone,Lead Source,Status,Deal Value,Notes'),
    expect: {
      Date: 'event_time',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      Email: 'email',
      Phone: 'phone',
      'Deal Value': 'value',
    },
  },
  {
    name: 'Typeform responses',
    source:
      'Typeform, Results > Download responses (CSV): "#", the questions, Start Date (UTC), Submit Date (UTC), Network ID, Tags',
    headers: split(
      "#,First name,Last name,Email,Phone number,Company,What's your budget?,Start Date (UTC),Submit Date (UTC),Network ID,Tags",
    ),
    expect: {
      'First name': 'first_name',
      'Last name': 'last_name',
      Email: 'email',
      'Phone number': 'phone',
      'Submit Date (UTC)': 'event_time',
    },
  },
  {
    name: 'Calendly scheduled events',
    source: 'Calendly, Meetings > Export (scheduled events CSV, invitee columns)',
    headers: split(
      'Invitee Name,Invitee First Name,Invitee Last Name,Invitee Email,Text Reminder Number,Event Type Name,Start Date & Time,End Date & Time,Invitee Time Zone,Event Created Date & Time,Location,Canceled,Cancellation reason,Guest Email(s),UTM Campaign,UTM Source,UTM Medium,Question 1,Response 1',
    ),
    expect: {
      'Invitee First Name': 'first_name',
      'Invitee Last Name': 'last_name',
      'Invitee Email': 'email',
      'Text Reminder Number': 'phone',
      'Event Created Date & Time': 'event_time',
    },
  },
  {
    name: 'ServiceTitan jobs',
    source:
      'ServiceTitan, Reports > Jobs report exported to CSV (representative: documented job report columns)',
    headers: split(
      'Job #,Invoice #,Customer Name,Customer Email,Customer Phone,Location Address,Location City,Location State,Location Zip,Business Unit,Job Type,Campaign,Campaign Category,Primary Technician,Created Date,Completed Date,Jobs Subtotal,Total,Status',
    ),
    expect: {
      'Customer Name': 'full_name',
      'Job #': 'order_id',
      'Customer Email': 'email',
      'Customer Phone': 'phone',
      'Location City': 'city',
      'Location State': 'state',
      'Location Zip': 'zip',
      'Completed Date': 'event_time',
      Total: 'value',
    },
  },
  {
    name: 'Mailchimp audience',
    source: 'Mailchimp, Audience > Export audience (subscribed_members_export CSV)',
    headers: split(
      'Email Address,First Name,Last Name,Address,Phone Number,Birthday,MEMBER_RATING,OPTIN_TIME,OPTIN_IP,CONFIRM_TIME,CONFIRM_IP,LATITUDE,LONGITUDE,GMTOFF,DSTOFF,TIMEZONE,CC,REGION,LAST_CHANGED,LEID,EUID,NOTES,TAGS',
    ),
    expect: {
      'Email Address': 'email',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      'Phone Number': 'phone',
      Birthday: 'db',
      OPTIN_TIME: 'event_time',
      OPTIN_IP: 'client_ip_address',
      REGION: 'state',
    },
  },
  {
    name: 'Shopify customers, legacy columns',
    source: 'Shopify customers_export.csv before the "Default Address" columns (public importer fixtures)',
    headers: split(
      'First Name,Last Name,Email,Accepts Email Marketing,Company,Address1,Address2,City,Province,Province Code,Country,Country Code,Zip,Phone,Accepts SMS Marketing,Total Spent,Total Orders,Tags,Note,Tax Exempt',
    ),
    expect: {
      'First Name': 'first_name',
      'Last Name': 'last_name',
      Email: 'email',
      City: 'city',
      Province: 'state',
      Country: 'country',
      Zip: 'zip',
      Phone: 'phone',
    },
  },
  {
    name: 'Stripe customers',
    source: 'Stripe Dashboard, Customers > Export (representative: default customer columns)',
    headers: split(
      'id,Description,Email,Name,Created (UTC),Card ID,Plan,Status,Cancel At Period End,Delinquent,Balance,Address Line1,Address Line2,Address City,Address State,Address Country,Address Zip,Phone,Currency',
    ),
    expect: {
      Name: 'full_name',
      id: 'external_id',
      Email: 'email',
      'Created (UTC)': 'event_time',
      'Address City': 'city',
      'Address State': 'state',
      'Address Country': 'country',
      'Address Zip': 'zip',
      Phone: 'phone',
      Currency: 'currency',
    },
  },
  {
    name: 'Jotform submissions',
    source: 'Jotform, Tables > Download as CSV (Submission Date first, then the form fields by label)',
    headers: split(
      'Submission Date,Name,E-mail,Phone Number,Address,Your message,Submission ID,Submission IP',
    ),
    expect: {
      Name: 'full_name',
      'Submission Date': 'event_time',
      'E-mail': 'email',
      'Phone Number': 'phone',
      'Submission IP': 'client_ip_address',
    },
  },
];
