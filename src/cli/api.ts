import { Option, type Command } from 'commander';
import { act, collect, examples } from './runner.js';

export function registerApi(program: Command): void {
  program
    .command('api <method> <path>')
    .description('send a raw request to a service with its configured endpoint and credentials')
    .addOption(new Option('--service <name>', 'which service').choices(['translator', 'erp', 'lcs', 'mgmt']).makeOptionMandatory())
    .option('-d, --data <json|@file|->', 'request body: JSON text, @file, or - for stdin')
    .option('-H, --header <key:value>', 'extra request header (repeatable)', collect)
    .option('--paginate', 'follow nextLink / @odata.nextLink and print all items as one array')
    .addHelpText(
      'after',
      examples(
        "vx api GET '/api/v2.0/companies' --service erp",
        "vx api GET \"/subscriptions/$VX_SUBSCRIPTION/providers/Vendor.ResourceHealth/events?api-version=2025-05-01\" --service mgmt --paginate",
        `vx api POST '/translate?api-version=3.0&to=de' --service translator --data '[{"Text":"hello"}]'`,
      ),
    )
    .action(act(async (ctx, opts, method: string, path: string) => (await import('./api-run.js')).run(ctx, opts, method, path)));
}
