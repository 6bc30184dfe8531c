// --query: JMESPath as az reads it, checked before anything is sent. The library loads only when a
// query is given (start-up time).
import { UsageError } from '../errors.js';

let jmes: typeof import('@jmespath-community/jmespath') | undefined;

/**
 * As az's JMESPath (jmespath.py) reads them: a backtick literal that is not JSON is a string
 * (`[?code==\`W9\`]`, deprecated in the specification, common in az queries and docs); a JSON
 * literal (\`2\`, \`"W9"\`, \`true\`) is read as before.
 */
const JMES_OPTIONS = { enable_legacy_literals: true };

/** Checks a JMESPath expression before anything is sent; a bad one is a usage error. */
export async function checkQuery(expr: string | undefined): Promise<void> {
  if (!expr) return;
  jmes ??= await import('@jmespath-community/jmespath');
  let ast: unknown;
  try {
    ast = jmes.compile(expr, JMES_OPTIONS);
  } catch (e) {
    throw new UsageError(`invalid --query expression "${expr}": ${(e as Error).message}`);
  }
  // a misspelt function is found by the library only on the result, after the request (a create, a
  // change) was made: looked for here, before anything is sent
  const wrong = badCall(ast, (name) => jmes!.isRegistered(name), signatureOf(jmes));
  if (wrong) throw new UsageError(`invalid --query expression "${expr}": ${wrong}`);
}

type Signature = { optional?: boolean; variadic?: boolean }[];

/**
 * The argument list of a built-in function, from the library's function table (not a public API:
 * without it, arity is left to the library, on the result).
 */
function signatureOf(mod: typeof import('@jmespath-community/jmespath')): (name: string) => Signature | undefined {
  const table = (mod as unknown as { TreeInterpreter?: { runtime?: { _functionTable?: Record<string, { _signature?: unknown }> } } }).TreeInterpreter?.runtime?._functionTable;
  return (name) => {
    const sig = table && Object.hasOwn(table, name) ? table[name]._signature : undefined;
    return Array.isArray(sig) ? (sig as Signature) : undefined;
  };
}

/** What is wrong with the first call in an expression's syntax tree to an unknown function or with the wrong number of arguments, if anything. */
function badCall(node: unknown, known: (name: string) => boolean, signature: (name: string) => Signature | undefined): string | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = badCall(n, known, signature);
      if (found) return found;
    }
    return undefined;
  }
  if (!node || typeof node !== 'object') return undefined;
  const n = node as Record<string, unknown>;
  if (n.type === 'Function' && typeof n.name === 'string') {
    if (!known(n.name)) return `unknown function ${n.name}()`;
    const sig = signature(n.name);
    const given = Array.isArray(n.children) ? n.children.length : undefined;
    if (sig && given !== undefined) {
      const min = sig.filter((a) => !a.optional).length;
      const max = sig.some((a) => a.variadic) ? Infinity : sig.length;
      if (given < min || given > max) {
        const takes = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
        return `${n.name}() takes ${takes} argument${min === 1 && (max === 1 || max === Infinity) ? '' : 's'}, not ${given}`;
      }
    }
  }
  for (const [k, v] of Object.entries(n)) {
    // a literal's value is data, not expression
    if (k === 'value' && n.type === 'Literal') continue;
    const found = badCall(v, known, signature);
    if (found) return found;
  }
  return undefined;
}

/** Applies a JMESPath expression; a bad expression is a usage error. */
export async function applyQuery(value: unknown, expr: string | undefined): Promise<unknown> {
  if (!expr) return value;
  await checkQuery(expr);
  try {
    return jmes!.search(value as Parameters<NonNullable<typeof jmes>['search']>[0], expr, JMES_OPTIONS);
  } catch (e) {
    // the expression is valid but does not fit the data; whatever was asked of the service was done
    throw new UsageError(`--query "${expr}" failed on the result: ${(e as Error).message} (the request itself was sent and succeeded)`);
  }
}
