// The business-data (ERP) family of the emulator. The entity sets come from the models in
// model/erp/ (one generic store: list with OData options and paging, get, create, update,
// delete with If-Match, $batch); the behaviour is written from the spec and the notes.
import { familyOf } from '../../model/families.js';
import type { FamilyDef } from '../server/index.js';
import { withBatch } from './batch.js';
import { erpCodes, erpError } from './errors.js';
import { erpRoutes } from './routes.js';
import { checkErpState, seedErp } from './seed.js';

export function erpFamily(): FamilyDef {
  return { name: 'erp', prefix: familyOf('erp').emulator.prefix, auth: 'bearer', requestIdHeader: 'request-id', codes: erpCodes, errorBody: erpError, routes: withBatch(erpRoutes()), seed: seedErp, checkState: checkErpState };
}
