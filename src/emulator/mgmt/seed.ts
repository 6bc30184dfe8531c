// Seed data of the emulated management APIs: health events over several pages (some sensitive,
// with details only through fetchEventDetails; some older than the default 3-day window), events of
// two resources (one nested), quotas of a few providers and locations with usage and a hidden
// regional cap, past quota requests, and API version sets of one API management service.
import { eventPriority } from '../../model/mgmt.js';
import { anyObject, arrayOf, number, recordOf, shape, text, type StateCheck } from '../state-check.js';
import { quotaId, scopeKey, type EventProperties, type HealthEvent, type Json, type MgmtState, type QuotaProperties, type VersionSetRecord } from './state.js';

export const EMU_SUBSCRIPTION = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
/** a second subscription with nothing in it */
export const EMU_EMPTY_SUBSCRIPTION = '0f0e0d0c-0b0a-4909-8807-060504030201';
export const EMU_RESOURCE_GROUP = 'web';
export const EMU_SERVICE = 'contoso-api';


const hoursAgo = (now: number, h: number) => new Date(now - h * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface EventSeed {
  id: string;
  title: string;
  eventType: string;
  eventLevel: string;
  status: string;
  services: [string, string[]][];
  startH: number;
  updateH: number;
  mitigatedH?: number;
  sensitive?: boolean;
  summary: string;
  description?: string;
  subType?: string;
  tags?: string[];
  source?: string;
}

const EVENT_SEEDS: EventSeed[] = [
  { id: '9VS6-0W8', title: 'Virtual Machines - East US - Connectivity issues', eventType: 'ServiceIssue', eventLevel: 'Error', status: 'Active', services: [['Virtual Machines', ['East US', 'East US 2']]], startH: 3, updateH: 1, summary: 'Customers may see intermittent connection failures to virtual machines.', tags: ['Action Recommended'] },
  { id: 'KTL1-8PQ', title: 'Storage - West Europe - Data access errors', eventType: 'ServiceIssue', eventLevel: 'Critical', status: 'Active', services: [['Storage', ['West Europe']], ['Backup', ['West Europe']]], startH: 2, updateH: 0.5, sensitive: true, summary: 'A subset of storage accounts in West Europe return errors for reads and writes.', description: '<p>Engineers identified a faulty storage scale unit (stamp <b>WE-17</b>) and are failing over the affected accounts.</p>', tags: ['Action Recommended'] },
  { id: 'PM3R-2XT', title: 'Planned maintenance: App Service - North Europe', eventType: 'PlannedMaintenance', eventLevel: 'Informational', status: 'Active', services: [['App Service', ['North Europe']]], startH: -20, updateH: 6, summary: 'Platform updates to App Service in North Europe; apps may restart once.' },
  { id: 'HA7C-11L', title: 'Retirement: classic virtual machines', eventType: 'HealthAdvisory', eventLevel: 'Warning', status: 'Active', services: [['Virtual Machines', ['Global']]], startH: 30, updateH: 24, subType: 'Retirement', summary: 'Classic virtual machines will be retired; migrate to the resource-manager model.' },
  { id: 'SQ2L-6KD', title: 'SQL Database - Central US - Login failures', eventType: 'ServiceIssue', eventLevel: 'Warning', status: 'Resolved', services: [['SQL Database', ['Central US']]], startH: 40, updateH: 30, mitigatedH: 34, summary: 'Between 08:10 and 09:55 UTC a subset of logins to SQL Database in Central US failed.', tags: ['Final PIR'] },
  { id: 'SEC1-9ZA', title: 'Security advisory: rotate shared access keys', eventType: 'SecurityAdvisory', eventLevel: 'Critical', status: 'Active', services: [['Key Vault', ['Global']]], startH: 10, updateH: 9, sensitive: true, summary: 'Rotate the shared access keys of the listed resources.', description: '<p>Keys of 3 resources in this subscription may have been exposed in a log export. Rotate them.</p>', tags: ['Action Recommended'] },
  { id: 'BIL4-3PC', title: 'Billing: price changes for Cognitive Services', eventType: 'Billing', eventLevel: 'Informational', status: 'Active', services: [['Cognitive Services', ['Global']]], startH: 48, updateH: 40, subType: 'PriceChanges', summary: 'Prices of some meters change on the first of next month.' },
  { id: 'PM8N-5QW', title: 'Planned maintenance: Virtual Network - West US 2', eventType: 'PlannedMaintenance', eventLevel: 'Warning', status: 'Resolved', services: [['Virtual Network', ['West US 2']]], startH: 60, updateH: 50, mitigatedH: 52, summary: 'Network maintenance completed.' },
  { id: 'EM5J-7VB', title: 'Emerging issue: Functions cold starts in East US', eventType: 'EmergingIssues', eventLevel: 'Warning', status: 'Active', services: [['Functions', ['East US']]], startH: 1, updateH: 0.2, summary: 'We are investigating reports of slow cold starts.' },
  { id: 'OLD1-2AB', title: 'Cosmos DB - Southeast Asia - Elevated latency', eventType: 'ServiceIssue', eventLevel: 'Error', status: 'Resolved', services: [['Cosmos DB', ['Southeast Asia']]], startH: 130, updateH: 120, mitigatedH: 124, summary: 'Elevated latency for requests to Cosmos DB accounts in Southeast Asia.', tags: ['Preliminary PIR'] },
  { id: 'OLD2-4CD', title: 'Advisory: TLS 1.0 and 1.1 end of support', eventType: 'HealthAdvisory', eventLevel: 'Informational', status: 'Resolved', services: [['App Service', ['Global']]], startH: 260, updateH: 240, mitigatedH: 240, summary: 'TLS 1.0 and 1.1 are no longer supported.' },
];

export function makeEvent(s: EventSeed, scopeId: string, now: number): HealthEvent {
  const lastUpdateTime = hoursAgo(now, s.updateH);
  const p: EventProperties = {
    eventType: s.eventType,
    eventSource: s.source ?? 'ServiceHealth',
    status: s.status,
    title: s.title,
    header: s.title,
    level: s.eventLevel === 'Critical' || s.eventLevel === 'Error' ? 'Critical' : 'Warning',
    eventLevel: s.eventLevel,
    isEventSensitive: Boolean(s.sensitive),
    priority: eventPriority({ eventType: s.eventType, eventLevel: s.eventLevel, status: s.status }),
    platformInitiated: s.eventType !== 'Billing',
    externalIncidentId: `${s.id.replace(/-/g, '')}01`,
    reason: s.eventType === 'ServiceIssue' ? 'PlatformInitiated' : undefined,
    impactStartTime: hoursAgo(now, s.startH),
    // resolved: when the impact ended; active: the expected end (the published examples carry it on active events too)
    impactMitigationTime: s.mitigatedH !== undefined ? hoursAgo(now, s.mitigatedH) : hoursAgo(now, s.startH - 24),
    lastUpdateTime,
    duration: s.mitigatedH !== undefined ? Math.round((s.startH - s.mitigatedH) * 3600) : undefined,
    eventSubType: s.subType,
    eventTags: s.tags ?? [],
    enableChatWithUs: false,
    enableMicrosoftSupport: true,
    hirStage: 'active',
    isHIR: false,
    summary: s.summary,
    description: s.description ?? `<p>${s.summary}</p>`,
    impact: s.services.map(([svc, regions]) => ({
      impactedService: svc,
      impactedServiceGuid: `0000${svc.length.toString(16).padStart(4, '0')}-0000-4000-8000-000000000000`,
      impactedRegions: regions.map((r) => ({
        impactedRegion: r,
        status: s.status,
        impactedSubscriptions: [scopeId],
        impactedTenants: [],
        lastUpdateTime,
        updates: [{ summary: s.summary, updateDateTime: lastUpdateTime, eventTags: s.tags ?? [] }],
      })),
    })),
    recommendedActions: {
      message: 'Recommended actions',
      localeCode: 'en-us',
      actions: [{ groupId: 1, actionText: 'Review the impacted resources' }],
    },
    faqs: [{ question: `Am I affected by ${s.id}?`, answer: 'The impacted subscriptions and regions are listed in the impact section.', localeCode: 'en' }],
    article: { articleContent: `<html>${s.summary}</html>` },
    links: [
      { type: 'Hyperlink', displayText: { value: 'Request RCA', localizedValue: 'Request RCA' }, extensionName: 'Vendor_Health', bladeName: 'RequestRCABlade', parameters: { trackingId: s.id, rcaRequested: 'False' } },
      { type: 'Button', displayText: { value: 'Sign up for updates', localizedValue: 'Sign up for updates' }, extensionName: 'Vendor_Health', bladeName: 'HealthBrowseBlade', parameters: { trackingId: s.id } },
    ],
    additionalInformation: { message: '' },
  };
  for (const k of Object.keys(p)) if (p[k] === undefined) delete p[k];
  // as in Events_ListBySubscriptionId.json: the id has no subscription prefix, and no systemData
  return { id: `/providers/Vendor.ResourceHealth/events/${s.id}`, name: s.id, type: '/providers/Vendor.ResourceHealth/events', properties: p };
}

const VM = `/subscriptions/${EMU_SUBSCRIPTION}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01`;
const DB = `/subscriptions/${EMU_SUBSCRIPTION}/resourceGroups/data/providers/Vendor.Sql/servers/sql-01/databases/orders`;

interface QuotaSeed {
  provider: string;
  location: string;
  name: string;
  display: string;
  limit: number;
  used: number;
  cap: number;
  unit?: string;
  period?: string;
  resourceType?: string;
}

const QUOTA_SEEDS: QuotaSeed[] = [
  { provider: 'Vendor.Compute', location: 'eastus', name: 'cores', display: 'Total Regional vCPUs', limit: 100, used: 42, cap: 500, resourceType: 'dedicated' },
  { provider: 'Vendor.Compute', location: 'eastus', name: 'standardDSv3Family', display: 'Standard DSv3 Family vCPUs', limit: 50, used: 48, cap: 200, resourceType: 'dedicated' },
  { provider: 'Vendor.Compute', location: 'eastus', name: 'standardFSv2Family', display: 'Standard FSv2 Family vCPUs', limit: 20, used: 0, cap: 100, resourceType: 'dedicated' },
  { provider: 'Vendor.Compute', location: 'eastus', name: 'lowPriorityCores', display: 'Total Regional Low-priority vCPUs', limit: 10, used: 4, cap: 100, resourceType: 'lowPriority' },
  { provider: 'Vendor.Compute', location: 'eastus', name: 'availabilitySets', display: 'Availability Sets', limit: 2500, used: 3, cap: 5000, resourceType: 'standard' },
  { provider: 'Vendor.Compute', location: 'eastus', name: 'virtualMachines', display: 'Virtual Machines', limit: 25000, used: 12, cap: 25000, resourceType: 'standard' },
  { provider: 'Vendor.Compute', location: 'westeurope', name: 'cores', display: 'Total Regional vCPUs', limit: 50, used: 10, cap: 300, resourceType: 'dedicated' },
  { provider: 'Vendor.Network', location: 'eastus', name: 'PublicIPAddresses', display: 'Public IP Addresses', limit: 100, used: 7, cap: 1000 },
  { provider: 'Vendor.CognitiveServices', location: 'eastus', name: 'TokensPerMinute', display: 'Tokens per minute', limit: 1000, used: 120, cap: 10000, period: 'PT1M', resourceType: 'serviceSpecific' },
];


const VERSION_SET_SEEDS: [string, Json][] = [
  ['orders', { displayName: 'Orders', versioningScheme: 'Segment', description: 'Order API' }],
  ['billing', { displayName: 'Billing', versioningScheme: 'Query', versionQueryName: 'api-version' }],
  ['customers', { displayName: 'Customers', versioningScheme: 'Header', versionHeaderName: 'Api-Version', description: 'Customer master data' }],
  ['inventory', { displayName: 'Inventory', versioningScheme: 'Segment' }],
  ['shipping', { displayName: 'Shipping', versioningScheme: 'Header', versionHeaderName: 'X-Version' }],
  ['payments', { displayName: 'Payments', versioningScheme: 'Query', versionQueryName: 'v', description: 'Payment providers' }],
  ['catalog', { displayName: 'Catalog', versioningScheme: 'Segment' }],
  ['pricing', { displayName: 'Pricing', versioningScheme: 'Segment', description: 'Price lists' }],
  ['returns', { displayName: 'Returns', versioningScheme: 'Header', versionHeaderName: 'Api-Version' }],
  ['invoices', { displayName: 'Invoices', versioningScheme: 'Segment' }],
  ['notifications', { displayName: 'Notifications', versioningScheme: 'Query', versionQueryName: 'api-version' }],
  ['reports', { displayName: 'Reports', versioningScheme: 'Segment', description: 'Reporting' }],
];

/** The quotas of the default subscription; `version` counts the ETags given out. */
function seedQuotas(sub: string, counter: { version: number }): MgmtState['quotas'] {
  const quotas: MgmtState['quotas'] = {};
  for (const q of QUOTA_SEEDS) {
    const key = scopeKey(sub, q.provider, q.location);
    const props: QuotaProperties = { limit: q.limit, unit: q.unit ?? 'Count', currentValue: q.used, name: { value: q.name, localizedValue: q.display } };
    if (q.period) props.quotaPeriod = q.period;
    if (q.resourceType) props.resourceType = q.resourceType;
    props.properties = {};
    (quotas[key] ??= {})[q.name.toLowerCase()] = {
      quota: { id: quotaId(sub, q.provider, q.location, q.name), name: q.name, type: 'Vendor.Capacity/ServiceLimits', properties: props },
      cap: q.cap,
      etag: counter.version++,
    };
  }
  return quotas;
}

/** [id, quota, limit, end state, message, hours ago] of the requests made before the emulator started */
const PAST_REQUESTS: [string, string, number, 'Succeeded' | 'Failed' | 'Invalid', string, number][] = [
  ['1d3f1c2a-0001-4a5b-9c8d-00000000a001', 'cores', 80, 'Succeeded', 'Request completed', 400],
  ['1d3f1c2a-0002-4a5b-9c8d-00000000a002', 'standardDSv3Family', 300, 'Failed', 'The requested limit exceeds the regional capacity of 200', 300],
  ['1d3f1c2a-0003-4a5b-9c8d-00000000a003', 'cores', 100, 'Succeeded', 'Request completed', 200],
  ['1d3f1c2a-0004-4a5b-9c8d-00000000a004', 'standardFSv2Family', 20, 'Succeeded', 'Request completed', 150],
  ['1d3f1c2a-0005-4a5b-9c8d-00000000a005', 'lowPriorityCores', 2, 'Invalid', 'The requested limit is below the current usage of 4', 100],
  ['1d3f1c2a-0006-4a5b-9c8d-00000000a006', 'availabilitySets', 2500, 'Succeeded', 'Request completed', 72],
  ['1d3f1c2a-0007-4a5b-9c8d-00000000a007', 'standardDSv3Family', 50, 'Succeeded', 'Request completed', 30],
];

/** The past quota requests of the default subscription's Vendor.Compute quotas in eastus. */
function seedRequests(sub: string, quotas: MgmtState['quotas'], now: number): MgmtState['requests'] {
  const requests: MgmtState['requests'] = {};
  const scope = scopeKey(sub, 'Vendor.Compute', 'eastus');
  for (const [id, name, limit, outcome, message, h] of PAST_REQUESTS) {
    const q = quotas[scope][name.toLowerCase()].quota;
    requests[id] = {
      scope,
      resourceName: name,
      limit,
      outcome,
      outcomeMessage: message,
      pollsLeft: 0,
      // the status shape of getQuotaRequestStatusById.json: bare id, name `<subscription>/<id>`
      body: {
        id,
        name: `${sub}/${id}`,
        type: 'Vendor.Capacity/serviceLimitsRequests',
        properties: {
          provisioningState: outcome,
          message,
          requestSubmitTime: hoursAgo(now, h),
          value: [{ name: { ...q.properties.name }, limit, unit: 'Count', provisioningState: outcome, message, subRequestId: id.replace(/a0/, 'b0') }],
        },
      },
    };
  }
  return requests;
}

/** The events of two resources: a virtual machine and a nested database. */
function seedResourceEvents(sub: string, now: number): MgmtState['resourceEvents'] {
  return {
    [VM.toLowerCase()]: [
      makeEvent({ id: 'RH01-VM1', title: 'Virtual machine vm-web-01 rebooted unexpectedly', eventType: 'ServiceIssue', eventLevel: 'Warning', status: 'Resolved', services: [['Virtual Machines', ['East US']]], startH: 5, updateH: 4, mitigatedH: 4.5, summary: 'The host of the virtual machine was restarted.', source: 'ResourceHealth' }, sub, now),
      makeEvent({ id: 'RH02-VM1', title: 'Virtual machine vm-web-01 degraded', eventType: 'ServiceIssue', eventLevel: 'Error', status: 'Active', services: [['Virtual Machines', ['East US']]], startH: 1, updateH: 0.3, summary: 'Disk latency is elevated for this virtual machine.', source: 'ResourceHealth' }, sub, now),
    ],
    [DB.toLowerCase()]: [
      makeEvent({ id: 'RH03-DB1', title: 'Database orders unavailable', eventType: 'ServiceIssue', eventLevel: 'Critical', status: 'Active', services: [['SQL Database', ['Central US']]], startH: 0.5, updateH: 0.1, summary: 'The database does not accept connections.', source: 'ResourceHealth' }, sub, now),
    ],
  };
}

export function seedMgmt(now = Date.now()): MgmtState {
  const sub = EMU_SUBSCRIPTION;
  const counter = { version: 1 };
  const quotas = seedQuotas(sub, counter);
  const versionSets: MgmtState['versionSets'] = {};
  const vs = (versionSets[scopeKey(sub, EMU_RESOURCE_GROUP, EMU_SERVICE)] = {} as Record<string, VersionSetRecord>);
  for (const [name, properties] of VERSION_SET_SEEDS) vs[name] = { name, properties: { ...properties }, etag: counter.version++ };
  return {
    defaultSubscription: sub,
    subscriptions: [sub, EMU_EMPTY_SUBSCRIPTION],
    events: EVENT_SEEDS.map((s) => makeEvent(s, sub, now)),
    resourceEvents: seedResourceEvents(sub, now),
    quotas,
    listableProviders: ['vendor.compute', 'vendor.cognitiveservices'],
    requests: seedRequests(sub, quotas, now),
    versionSets,
    retryAfter: 1,
    pollsToFinish: 2,
    pageSize: { events: 4, versionSets: 5, requests: 5 },
    version: counter.version,
    writes: [],
  };
}

const eventCheck = shape({ id: text, name: text, type: text, properties: shape({ eventType: text, status: text, impact: arrayOf(shape({ impactedService: text, impactedRegions: arrayOf(anyObject) })) }) });

/** The mgmt entry of a --state file (what seedMgmt and seedFleet make). */
export const checkMgmtState: StateCheck = shape(
  {
    defaultSubscription: text,
    subscriptions: arrayOf(text),
    events: arrayOf(eventCheck),
    resourceEvents: recordOf(arrayOf(eventCheck)),
    quotas: recordOf(recordOf(shape({ quota: shape({ name: text, properties: shape({ limit: number, currentValue: number, name: anyObject }) }), cap: number, etag: number }))),
    listableProviders: arrayOf(text),
    requests: recordOf(shape({ scope: text, resourceName: text, limit: number, outcome: text, pollsLeft: number, body: shape({ id: text, name: text, properties: shape({ provisioningState: text, value: arrayOf(anyObject) }) }) })),
    versionSets: recordOf(recordOf(shape({ name: text, properties: anyObject, etag: number }))),
    retryAfter: number,
    pollsToFinish: number,
    requestLag: number,
    pageSize: shape({ events: number, versionSets: number, requests: number }),
    version: number,
    readLimit: shape({ perSecond: number, burst: number }),
    quotaPageSize: number,
    seededAt: number,
    writes: arrayOf(anyObject),
  },
  ['readLimit', 'quotaPageSize', 'seededAt', 'requestLag'],
);
