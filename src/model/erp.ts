// The business-data (ERP) entity sets as data: everything the CLI (commands, --set typing,
// help, table columns) and the emulator (store, validation, paging) need to know about a set.
// Adding an entity set means adding one ErpSet object to ERP_SETS; nothing else changes.
// Pure data and pure functions only: imported by api/, cli/ and emulator/.

export type ScalarType = 'string' | 'guid' | 'decimal' | 'integer' | 'boolean' | 'date' | 'datetime' | 'time' | 'address';

/** The keys of a postal address (the complex type `postalAddressType` of API v1.0), all strings. */
export const POSTAL_ADDRESS_KEYS = ['street', 'city', 'state', 'countryLetterCode', 'postalCode'] as const;

export interface FieldDef {
  type: ScalarType;
  /** allowed values (an enum) */
  values?: readonly string[];
  readOnly?: boolean;
  required?: boolean;
  maxLength?: number;
  /** a pattern the value must match, with the human description */
  pattern?: { re: RegExp; text: string };
  /** what the service gives a record created without this field (the table's InitValue); default: empty, 0, false */
  initial?: unknown;
  description?: string;
}

export type ErpOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface NavigationDef {
  /** true: the navigation returns a collection (`value` array) */
  collection?: boolean;
  /** the entity set the target belongs to, when it is one of ERP_SETS */
  set?: string;
  /** the table columns of a collection that is not one of ERP_SETS (order lines), chosen as a set's */
  columns?: readonly TableColumn[];
  description?: string;
}

export interface ActionDef {
  /** the command name, e.g. ship-and-invoice */
  command: string;
  /** the bound action, e.g. shipAndInvoice (sent as <namespace>.<action>) */
  action: string;
  description: string;
  /** what happened, for the person at the terminal, e.g. "shipped and invoiced" */
  done: string;
}

/** A column of a set's table. */
export interface TableColumn {
  /** the field shown (a --select of this field gets this column's header) */
  field: string;
  /** the header, in words */
  header: string;
  /** computed from the record rather than read from `field` */
  get?: (r: Readonly<Record<string, unknown>>) => unknown;
  /** how the value reads: `amount` with two decimals, `time` as YYYY-MM-DD HH:MMZ */
  format?: 'amount' | 'time';
  /** an identifier the user copies: never cut */
  keep?: boolean;
  /** the column read first (a name, a description): the optional columns go before it is cut short */
  primary?: boolean;
  /** dropped first at a narrow terminal */
  optional?: boolean;
  /** shown only with `-o wide` (and in tsv/text rows): the GUID of a set whose records have a human key */
  wide?: boolean;
  /** right-aligned although the set declares no numeric field (amounts and numeric fields are anyway) */
  align?: 'right';
}

const ID_WIDE: TableColumn = { field: 'id', header: 'ID', keep: true, wide: true };
const ID_LAST: TableColumn = { field: 'id', header: 'ID', keep: true };

export interface ErpSet {
  /** the collection segment in the URL, e.g. salesOrders */
  name: string;
  /** the command noun, e.g. sales-orders */
  noun: string;
  aliases?: readonly string[];
  /** a readable singular, e.g. "sales order" */
  singular: string;
  apiVersion: 'v1.0' | 'v2.0';
  /** `root`: addressed at {prefix}/api/<v>/<name> (companies); default: under a company */
  scope?: 'company' | 'root';
  operations: readonly ErpOperation[];
  fields: Readonly<Record<string, FieldDef>>;
  /** the table columns, chosen for a person: the human key, the name, the state, the amount; a GUID last (or only with `-o wide` when the set has a human key) */
  columns: readonly TableColumn[];
  navigation?: Readonly<Record<string, NavigationDef>>;
  actions?: readonly ActionDef[];
  /** a field that identifies a record to people (for the check hint of create), e.g. code or number */
  naturalKey?: string;
  /**
   * The key people name a record by (`get S-ORD101001`, `delete EUR`): accepted wherever a GUID
   * is, and resolved with one $filter read. Also the record's name in confirmations.
   */
  humanKey?: string;
  /** the field that says what the record is, shown after its human key, e.g. customerName */
  titleField?: string;
  /** the field the examples of --help use (default: the first writable text field of the table) */
  sampleField?: string;
  /** the value the create example of --help gives the sample field (default `X`), where `X` would be refused */
  sampleValue?: string;
}

const GUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATETIME_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,7})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,7})?$/;

export function isGuid(s: string): boolean {
  return GUID_RE.test(s);
}

const id: FieldDef = { type: 'guid', readOnly: true, description: 'identifier (set by the service)' };
const modified: FieldDef = { type: 'datetime', readOnly: true, description: 'last change (set by the service)' };
const s = (maxLength?: number, extra: Partial<FieldDef> = {}): FieldDef => ({ type: 'string', ...(maxLength ? { maxLength } : {}), ...extra });
const ro = (type: ScalarType): FieldDef => ({ type, readOnly: true });
const t = (type: ScalarType): FieldDef => ({ type });

function fieldsOf(names: string, def: FieldDef): Record<string, FieldDef> {
  return Object.fromEntries(names.split(/\s+/).filter(Boolean).map((n) => [n, def]));
}

export const SALES_ORDER_STATUS = ['Draft', 'In Review', 'Open'] as const;
export const SALES_QUOTE_STATUS = ['Draft', 'Sent', 'Accepted', 'Expired'] as const;
export const JOB_QUEUE_STATUS = ['Ready', 'In Process', 'Error', 'On Hold', 'Finished', 'On Hold with Inactivity Timeout', 'Waiting'] as const;

export const ERP_SETS: readonly ErpSet[] = [
  {
    name: 'companies',
    noun: 'companies',
    singular: 'company',
    apiVersion: 'v2.0',
    scope: 'root',
    operations: ['list'],
    fields: {
      id,
      systemVersion: ro('string'),
      timestamp: ro('integer'),
      name: ro('string'),
      displayName: ro('string'),
      businessProfileId: ro('string'),
      systemCreatedAt: ro('datetime'),
      systemCreatedBy: ro('guid'),
      systemModifiedAt: ro('datetime'),
      systemModifiedBy: ro('guid'),
    },
    columns: [
      { field: 'name', header: 'Name', primary: true },
      { field: 'displayName', header: 'Display name', optional: true },
      { field: 'systemVersion', header: 'Version', optional: true },
      ID_LAST,
    ],
  },
  {
    name: 'salespeoplePurchasers',
    noun: 'salespeople',
    aliases: ['salespeoplepurchasers', 'salespeople-purchasers'],
    singular: 'salesperson/purchaser',
    apiVersion: 'v2.0',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    naturalKey: 'code',
    humanKey: 'code',
    titleField: 'displayName',
    fields: {
      id,
      code: s(20, { required: true, description: 'short code' }),
      displayName: s(50),
      email: s(80),
      email2: s(80),
      phoneNo: s(30),
      jobTitle: s(30),
      commisionPercent: { type: 'decimal', description: 'commission percentage (spelled so by the service)' },
      privacyBlocked: t('boolean'),
      blocked: t('boolean'),
      lastModifiedDateTime: modified,
    },
    columns: [
      { field: 'code', header: 'Code', keep: true },
      { field: 'displayName', header: 'Name', primary: true },
      { field: 'email', header: 'Email' },
      { field: 'jobTitle', header: 'Job title', optional: true },
      { field: 'commisionPercent', header: 'Commission %', optional: true },
      { field: 'blocked', header: 'Blocked' },
      ID_WIDE,
    ],
  },
  {
    name: 'currencies',
    noun: 'currencies',
    singular: 'currency',
    apiVersion: 'v1.0',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    naturalKey: 'code',
    humanKey: 'code',
    titleField: 'displayName',
    fields: {
      id: { type: 'string', readOnly: true, description: 'identifier (set by the service)' },
      code: s(10, { required: true, description: 'currency code' }),
      displayName: s(30),
      symbol: s(10),
      // the Currency table's InitValue ('2:2', NotBlank) and 0.01
      amountDecimalPlaces: s(5, { pattern: { re: /^\d{1,2}:\d{1,2}$/, text: '<min>:<max>, e.g. 2:2' }, initial: '2:2' }),
      amountRoundingPrecision: { type: 'decimal', initial: 0.01 },
      lastModifiedDateTime: modified,
    },
    columns: [
      { field: 'code', header: 'Code', keep: true },
      { field: 'displayName', header: 'Name', primary: true },
      { field: 'symbol', header: 'Symbol' },
      { field: 'amountDecimalPlaces', header: 'Decimals', optional: true },
      { field: 'amountRoundingPrecision', header: 'Rounding', optional: true },
      ID_WIDE,
    ],
  },
  {
    name: 'jobQueueEntries',
    noun: 'job-queue-entries',
    aliases: ['jobqueueentries'],
    singular: 'job queue entry',
    apiVersion: 'v2.0',
    operations: ['list', 'get'],
    fields: {
      id,
      ...fieldsOf('jobQueueEntryId lastReadyState objectTypeToRun objectCaptionToRun reportOutputType recordIdToProcess parameterString', ro('string')),
      userId: ro('guid'),
      ...fieldsOf('expirationDateTime earliestStartDateTime referenceStartingTime', ro('datetime')),
      ...fieldsOf('objectIdToRun maxNumberAttemptsToRun numberOfAttemptsToRun numberOfMinutesBetweenRuns userLanguageId rerunDelay jobTimeOut priorityWithinCategory', ro('integer')),
      status: { type: 'string', readOnly: true, values: JOB_QUEUE_STATUS },
      ...fieldsOf('recurringJob runOnMonday runOnTuesday runOnWednesday runOnThursday runOnFridays runOnSaturdays runOnSundays runInUserSession userSessionStarted notifyOnSuccess scheduled manualRecurrence', ro('boolean')),
      ...fieldsOf('startingTime endingTime', ro('time')),
      ...fieldsOf('nextRunDateFormula description userSessionId jobQueueCategoryCode errorMessage userServiceInstanceId printerName reportRequestPageOptions', ro('string')),
      systemTaskId: ro('guid'),
      lastModifiedDateTime: modified,
    },
    columns: [
      { field: 'description', header: 'Description', primary: true },
      { field: 'status', header: 'Status' },
      {
        field: 'objectTypeToRun',
        header: 'Object',
        get: (r) => [r.objectTypeToRun, r.objectIdToRun].filter((v) => v !== undefined && v !== null && v !== '').join(' '),
        optional: true,
      },
      { field: 'earliestStartDateTime', header: 'Earliest start', format: 'time', optional: true },
      ID_LAST,
    ],
    actions: [{ command: 'restart', action: 'restart', description: 'restart the job queue entry', done: 'restarted' }],
  },
  {
    name: 'salesOrders',
    noun: 'sales-orders',
    aliases: ['salesorders'],
    singular: 'sales order',
    apiVersion: 'v2.0',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    naturalKey: 'externalDocumentNumber',
    humanKey: 'number',
    titleField: 'customerName',
    // an order needs an existing customer ("APIV2 - Sales Orders"; the demo company's customer 10000)
    sampleField: 'customerNumber',
    sampleValue: '10000',
    fields: {
      id,
      number: { type: 'string', readOnly: true, maxLength: 20, description: 'order number (set by the service)' },
      externalDocumentNumber: s(35),
      orderDate: t('date'),
      postingDate: t('date'),
      customerId: t('guid'),
      customerNumber: s(20),
      customerName: s(100),
      billToName: s(100),
      billToCustomerId: t('guid'),
      billToCustomerNumber: s(20),
      shipToName: s(100),
      shipToContact: s(100),
      ...fieldsOf('sellToAddressLine1 sellToAddressLine2 billToAddressLine1 billToAddressLine2 shipToAddressLine1 shipToAddressLine2', s(100)),
      ...fieldsOf('sellToCity billToCity shipToCity sellToState billToState shipToState', s(30)),
      ...fieldsOf('sellToCountry billToCountry shipToCountry', s(10)),
      ...fieldsOf('sellToPostCode billToPostCode shipToPostCode', s(20)),
      ...fieldsOf('shortcutDimension1Code shortcutDimension2Code', s(20)),
      currencyId: t('guid'),
      currencyCode: s(10),
      pricesIncludeTax: ro('boolean'),
      paymentTermsId: t('guid'),
      shipmentMethodId: t('guid'),
      salesperson: s(20, { description: 'salesperson code' }),
      partialShipping: t('boolean'),
      requestedDeliveryDate: t('date'),
      discountAmount: t('decimal'),
      discountAppliedBeforeTax: t('boolean'),
      totalAmountExcludingTax: ro('decimal'),
      totalTaxAmount: ro('decimal'),
      totalAmountIncludingTax: ro('decimal'),
      fullyShipped: t('boolean'),
      status: { type: 'string', values: SALES_ORDER_STATUS },
      lastModifiedDateTime: modified,
      phoneNumber: s(30),
      email: s(80),
    },
    columns: [
      { field: 'number', header: 'Number', keep: true },
      { field: 'customerName', header: 'Customer', primary: true },
      { field: 'orderDate', header: 'Order date' },
      { field: 'status', header: 'Status' },
      { field: 'totalAmountIncludingTax', header: 'Total incl. tax', format: 'amount' },
      { field: 'currencyCode', header: 'Currency', optional: true },
      { field: 'customerNumber', header: 'Customer no.', optional: true },
      { field: 'fullyShipped', header: 'Shipped', optional: true },
      ID_WIDE,
    ],
    navigation: {
      customer: { description: 'the customer' },
      dimensionValue: { description: 'the dimension value' },
      currency: { set: 'currencies', description: 'the currency' },
      paymentTerm: { description: 'the payment term' },
      shipmentMethod: { description: 'the shipment method' },
      dimensionSetLines: { collection: true, description: 'the dimension set lines' },
      salesOrderLines: {
        collection: true,
        description: 'the order lines',
        columns: [
          { field: 'sequence', header: 'Line', keep: true },
          { field: 'lineType', header: 'Type' },
          { field: 'lineObjectNumber', header: 'No.', keep: true },
          { field: 'description', header: 'Description', primary: true },
          { field: 'quantity', header: 'Quantity', align: 'right' },
          { field: 'unitOfMeasureCode', header: 'Unit', optional: true },
          { field: 'unitPrice', header: 'Unit price', format: 'amount' },
          { field: 'amountIncludingTax', header: 'Amount incl. tax', format: 'amount' },
          ID_WIDE,
        ],
      },
      pdfDocument: { description: 'the PDF document (save its content with --out file.pdf)' },
      attachments: { collection: true, description: 'the attachments' },
      documentAttachments: { collection: true, description: 'the document attachments' },
    },
    actions: [{ command: 'ship-and-invoice', action: 'shipAndInvoice', description: 'ship and invoice the sales order', done: 'shipped and invoiced' }],
  },
  {
    name: 'salesQuotes',
    noun: 'sales-quotes',
    aliases: ['salesquotes'],
    singular: 'sales quote',
    apiVersion: 'v1.0',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    naturalKey: 'externalDocumentNumber',
    humanKey: 'number',
    titleField: 'customerName',
    // a quote needs an existing customer (the demo company's customer 10000)
    sampleField: 'customerNumber',
    sampleValue: '10000',
    // the fields of the v1.0 reference page (dynamics_salesquote_get.md) in its order; number,
    // customerName and sentDate are read-only there (and Editable = false in the API page)
    fields: {
      id,
      number: { type: 'string', readOnly: true, maxLength: 20, description: 'quote number (set by the service)' },
      externalDocumentNumber: s(35),
      documentDate: t('date'),
      dueDate: t('date'),
      customerId: t('guid'),
      contactId: s(250, { description: 'contact id of the customer (used to find the customer when customerId is absent)' }),
      customerNumber: s(20),
      customerName: { type: 'string', readOnly: true, maxLength: 100, description: "the customer's name (set from the customer)" },
      billingPostalAddress: { type: 'address', description: 'billing address' },
      currencyId: t('guid'),
      currencyCode: s(10),
      paymentTermsId: t('guid'),
      shipmentMethodId: t('guid'),
      shipmentMethod: s(10),
      salesperson: s(20),
      discountAmount: t('decimal'),
      totalAmountExcludingTax: ro('decimal'),
      totalTaxAmount: ro('decimal'),
      totalAmountIncludingTax: ro('decimal'),
      status: { type: 'string', readOnly: true, values: SALES_QUOTE_STATUS },
      sentDate: ro('datetime'),
      validUntilDate: t('date'),
      acceptedDate: t('date'),
      lastModifiedDateTime: modified,
      phoneNumber: s(30),
      email: s(80),
    },
    columns: [
      { field: 'number', header: 'Number', keep: true },
      { field: 'customerName', header: 'Customer', primary: true },
      { field: 'documentDate', header: 'Date' },
      { field: 'status', header: 'Status' },
      { field: 'totalAmountIncludingTax', header: 'Total incl. tax', format: 'amount' },
      { field: 'currencyCode', header: 'Currency', optional: true },
      { field: 'validUntilDate', header: 'Valid until', optional: true },
      { field: 'customerNumber', header: 'Customer no.', optional: true },
      ID_WIDE,
    ],
    actions: [
      { command: 'make-order', action: 'makeOrder', description: 'turn the quote into a sales order', done: 'turned into a sales order' },
      { command: 'make-invoice', action: 'makeInvoice', description: 'turn the quote into a sales invoice', done: 'turned into a sales invoice' },
      { command: 'send', action: 'send', description: 'send the quote to the customer', done: 'sent' },
    ],
  },
];

// The fields and navigation properties of every set have no prototype: a name read from a person
// or a file (--set constructor=x, a CSV column "toString", the emulator's $select=hasOwnProperty)
// is never taken for a field inherited from Object.prototype.
for (const set of ERP_SETS) {
  Object.setPrototypeOf(set.fields, null);
  if (set.navigation) Object.setPrototypeOf(set.navigation, null);
}

export function findSet(name: string, sets: readonly ErpSet[] = ERP_SETS): ErpSet | undefined {
  return sets.find((x) => x.name === name || x.noun === name || x.aliases?.includes(name));
}

/** A type as people read it in help and error messages. */
export function typeText(f: FieldDef): string {
  if (f.values) return `one of ${f.values.map((v) => `"${v}"`).join(', ')}`;
  switch (f.type) {
    case 'guid':
      return 'GUID';
    case 'decimal':
      return 'number';
    case 'integer':
      return 'whole number';
    case 'boolean':
      return 'true or false';
    case 'date':
      return 'date YYYY-MM-DD';
    case 'datetime':
      return 'date-time YYYY-MM-DDThh:mm:ssZ';
    case 'time':
      return 'time hh:mm:ss';
    case 'address':
      return `postal address JSON with ${POSTAL_ADDRESS_KEYS.join(', ')}`;
    default:
      return f.pattern ? `text ${f.pattern.text}` : f.maxLength ? `text (at most ${f.maxLength} characters)` : 'text';
  }
}

/**
 * Whether the YYYY-MM-DD that `v` starts with is a day of the calendar: DATE_RE lets 31 days
 * through in every month, and Date.parse takes 2026-02-30 for March 2.
 */
function calendarDay(v: string): boolean {
  const day = Number(v.slice(8, 10));
  if (day <= 28) return true;
  const month = Number(v.slice(5, 7));
  if (month !== 2) return day <= (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
  const year = Number(v.slice(0, 4));
  return day === 29 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/**
 * Checks a JSON value against a field; returns the problem (without the field name) or undefined.
 * null is accepted for every field that is not required.
 */
export function checkValue(f: FieldDef, v: unknown): string | undefined {
  if (v === null) return f.required ? 'may not be null' : undefined;
  // (the message is built only for a value that fails: this runs for every cell of an import)
  const want = () => `expected ${typeText(f)}`;
  switch (f.type) {
    case 'decimal':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : want();
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? undefined : want();
    case 'boolean':
      return typeof v === 'boolean' ? undefined : want();
    case 'address': {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return want();
      const bad = Object.entries(v).find(([k, x]) => !(POSTAL_ADDRESS_KEYS as readonly string[]).includes(k) || typeof x !== 'string');
      return bad ? `${want()} (not "${bad[0]}": ${JSON.stringify(bad[1])})` : undefined;
    }
    default:
      break;
  }
  if (typeof v !== 'string') return want();
  if (f.type === 'guid' && !GUID_RE.test(v)) return want();
  if (f.type === 'date' && !(DATE_RE.test(v) && calendarDay(v))) return want();
  if (f.type === 'datetime' && !(DATETIME_RE.test(v) && calendarDay(v) && !Number.isNaN(Date.parse(v)))) return want();
  if (f.type === 'time' && !TIME_RE.test(v)) return want();
  if (f.values && !f.values.includes(v)) return want();
  if (f.pattern && !f.pattern.re.test(v)) return want();
  // (UTF-16 units are never fewer than characters: only a long text needs counting)
  if (f.maxLength !== undefined && v.length > f.maxLength && [...v].length > f.maxLength) return `is ${[...v].length} characters long; at most ${f.maxLength} allowed`;
  return undefined;
}

/** Turns the text of `--set field=value` into the field's JSON value; throws a message on a malformed value. */
export function parseFieldText(f: FieldDef, text: string): unknown {
  let v: unknown = text;
  if (text === 'null') v = null;
  else if (f.type === 'decimal' || f.type === 'integer') v = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim()) ? Number(text) : text;
  else if (f.type === 'boolean') {
    // in any case: spreadsheets write TRUE and FALSE (Excel, LibreOffice and Google Sheets export them so)
    const b = text.trim().toLowerCase();
    v = b === 'true' ? true : b === 'false' ? false : text;
  }
  else if (f.type === 'address' && text !== 'null') {
    try {
      v = JSON.parse(text);
    } catch {
      throw new Error(`expected ${typeText(f)}`);
    }
  }
  const problem = checkValue(f, v);
  if (problem) throw new Error(problem);
  return v;
}

/** The URL segment of a key: GUIDs bare, other keys as quoted OData strings. */
export function keySegment(key: string): string {
  return GUID_RE.test(key) ? key : `'${key.replace(/'/g, "''")}'`;
}

/** The path below `{prefix}` of a set's collection: `/api/<v>/companies(<c>)/<name>`. */
export function collectionPath(set: ErpSet, company?: string): string {
  if (set.scope === 'root') return `/api/${set.apiVersion}/${set.name}`;
  return `/api/${set.apiVersion}/companies(${encodeURIComponent(company ?? '')})/${set.name}`;
}

// Limits of the business-data API (the platform's "API limits" / operational limits pages)
/** operations one `$batch` request may hold */
export const BATCH_MAX_OPERATIONS = 100;

// Database refresh (lcs)
export const LCS_VERSION_HEADER = 'x-vendor-version';
export const LCS_VERSION = '2017-09-15';
export const REFRESH_LIMIT_PER_DAY = 3;
/**
 * The OperationStatus values that end an operation (the status reference: NotStarted, InProgress,
 * Completed, Failed, SignedOff, Aborted, RollbackInProgress, RollbackFailed, RollbackCompleted).
 * A rollback that completed or failed ended the refresh unsuccessfully; RollbackInProgress (like
 * NotStarted and InProgress) is still going. `Rollback` and `Cancelled` are kept as ends too.
 */
export const OPERATION_DONE = ['Completed', 'SignedOff'] as const;
export const OPERATION_FAILED = ['Failed', 'Aborted', 'RollbackCompleted', 'RollbackFailed', 'Rollback', 'Cancelled'] as const;
/** how long `refresh --wait` follows an operation by default (--wait-timeout): a day, the throttle's window */
export const REFRESH_WAIT_TIMEOUT_S = 86_400;
