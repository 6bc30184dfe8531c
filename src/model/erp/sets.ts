// The business-data (ERP) entity sets as data: everything the CLI (commands, --set typing,
// help, table columns) and the emulator (store, validation, paging) need to know about a set.
// Adding an entity set means adding one ErpSet object to erpSets(); nothing else changes.
// Pure data and pure functions only: imported by api/, cli/ and emulator/.
import type { FieldDef, ScalarType } from './fields.js';

export type ErpOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface NavigationDef {
  /** true: the navigation returns a collection (`value` array) */
  collection?: boolean;
  /** the entity set the target belongs to, when it is one of erpSets() */
  set?: string;
  /** the table columns of a collection that is not one of erpSets() (order lines), chosen as a set's */
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
  /**
   * The record the action creates in another set, when the answer does not carry it (a quote's
   * makeOrder answers 204): found as the one record of `set` holding the source's `match` values
   * after the action that did not before.
   */
  creates?: { set: string; match: readonly string[] };
  /**
   * It cannot be undone (a posted invoice, a quote turned into an order, a sent e-mail): asked
   * first at a terminal, --yes without one, as a delete is. An action that can simply be run
   * again or stopped (a job's restart) asks only when a filter or a list chooses the records.
   */
  irreversible?: boolean;
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
  /** the field holding an amount's currency code, shown after it in the table (`1,234.50 EUR`; none: the local currency) */
  currency?: string;
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

let built: readonly ErpSet[] | undefined;

/**
 * The entity sets, built on first use: building them (a few hundred objects, the fields of each
 * set without a prototype) costs about a millisecond, which every command would pay at start
 * (the erp tree's declarations, loaded for every command line, import this module).
 */
export function erpSets(): readonly ErpSet[] {
  return (built ??= buildSets());
}

function buildSets(): readonly ErpSet[] {
  const sets: ErpSet[] = [
    {
      name: 'companies',
      noun: 'companies',
      singular: 'company',
      apiVersion: 'v2.0',
      scope: 'root',
      operations: ['list'],
      // --company and erp.company take a company's name as well as its id
      humanKey: 'name',
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
      // named by its description (`restart "Post sales orders"`); one shared by several entries is refused with their ids
      humanKey: 'description',
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
        { field: 'totalAmountIncludingTax', header: 'Total incl. tax', format: 'amount', currency: 'currencyCode' },
        { field: 'currencyCode', header: 'Currency', wide: true },
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
      actions: [{ command: 'ship-and-invoice', action: 'shipAndInvoice', description: 'ship and invoice the sales order', done: 'shipped and invoiced', irreversible: true }],
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
        { field: 'totalAmountIncludingTax', header: 'Total incl. tax', format: 'amount', currency: 'currencyCode' },
        { field: 'currencyCode', header: 'Currency', wide: true },
        { field: 'validUntilDate', header: 'Valid until', optional: true },
        { field: 'customerNumber', header: 'Customer no.', optional: true },
        ID_WIDE,
      ],
      actions: [
        {
          command: 'make-order',
          action: 'makeOrder',
          description: 'turn the quote into a sales order',
          done: 'turned into a sales order',
          irreversible: true,
          creates: { set: 'salesOrders', match: ['customerNumber', 'externalDocumentNumber', 'currencyCode', 'totalAmountIncludingTax'] },
        },
        { command: 'make-invoice', action: 'makeInvoice', description: 'turn the quote into a sales invoice', done: 'turned into a sales invoice', irreversible: true },
        { command: 'send', action: 'send', description: 'send the quote to the customer', done: 'sent', irreversible: true },
      ],
    },
  ];

  // The fields and navigation properties of every set have no prototype: a name read from a person
  // or a file (--set constructor=x, a CSV column "toString", the emulator's $select=hasOwnProperty)
  // is never taken for a field inherited from Object.prototype.
  for (const set of sets) {
    Object.setPrototypeOf(set.fields, null);
    if (set.navigation) Object.setPrototypeOf(set.navigation, null);
  }
  return sets;
}

export function findSet(name: string, sets: readonly ErpSet[] = erpSets()): ErpSet | undefined {
  return sets.find((x) => x.name === name || x.noun === name || x.aliases?.includes(name));
}

