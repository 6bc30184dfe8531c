// A family's routes: path templates compiled once, and the route a request's method and path reach.
import type { Route } from './types.js';

export interface CompiledRoute extends Route {
  re: RegExp;
}

function compile(path: string | RegExp): RegExp {
  if (path instanceof RegExp) return path;
  let src = '';
  let i = 0;
  while (i < path.length) {
    const m = /^\{(\w+)(\*?)\}/.exec(path.slice(i));
    if (m) {
      src += m[2] ? `(?<${m[1]}>.+?)` : `(?<${m[1]}>[^/()]+?)`;
      i += m[0].length;
    } else {
      src += path[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
    }
  }
  return new RegExp(`^${src}$`);
}

export function compileRoutes(routes: readonly Route[]): CompiledRoute[] {
  return routes.map((r) => ({ ...r, re: compile(r.path) }));
}

/**
 * The route that answers `method` on `path` with its parameters; else the methods the path answers
 * (for the Allow header of a 405, which RFC 9110 requires), empty when no route has the path.
 */
export function findRoute(routes: readonly CompiledRoute[], method: string, path: string): { route: CompiledRoute; params: Record<string, string> } | { allowed: Set<string> } {
  const allowed = new Set<string>();
  for (const r of routes) {
    const m = r.re.exec(path);
    if (!m) continue;
    allowed.add(r.method);
    if (r.method === 'GET') allowed.add('HEAD');
    if (r.method !== method && !(r.method === 'GET' && method === 'HEAD')) continue;
    return { route: r, params: { ...(m.groups ?? {}) } };
  }
  return { allowed };
}
