// The one door to results on stdout: json | yaml | table | wide | tsv | csv | ndjson | text | none, with
// --query (JMESPath) applied first. Renderers are pure (value -> string) and unit-tested.
import { isTable, type Format, type RenderOptions } from './formats.js';
import { renderCsv, renderJson, renderNdjson, renderText, renderTsv } from './plain.js';
import { renderTable } from './table.js';
import { loadTextWidth } from './width.js';
import { renderYaml } from './yaml.js';

export { FORMATS, isTable, parseFormat, type Column, type Format, type RenderOptions } from './formats.js';
export { applyQuery, checkQuery } from './query.js';
export { amountText, groupedAmount, inferColumns, shortTime } from './cells.js';
export { csvUnguard, renderCsv, renderJson, renderNdjson, renderText, renderTsv } from './plain.js';
export { isBlank, renderTable } from './table.js';
export { displayWidth, loadTextWidth, truncateToWidth, wrapToWidth } from './width.js';
export { STREAMABLE, StreamRenderer } from './stream.js';
export { atomicFileSink, modeOfSources, outFile, streamSink, type ResultSink } from './sink.js';

export async function render(value: unknown, format: Format, opts: RenderOptions = {}): Promise<string> {
  if (isTable(format)) await loadTextWidth();
  switch (format) {
    case 'none':
      return '';
    case 'json':
      return renderJson(value);
    case 'ndjson':
      return renderNdjson(value);
    case 'yaml':
      return renderYaml(value);
    case 'tsv':
      return renderTsv(value, opts.columns);
    case 'csv':
      return renderCsv(value, opts.columns);
    case 'text':
      return opts.text ? opts.text(value) : renderText(value, opts.columns);
    case 'table':
      return renderTable(value, opts);
    case 'wide':
      return renderTable(value, { ...opts, wide: true });
  }
}
