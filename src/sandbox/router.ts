import type { ListCache, ListKind } from './listCache';
import type { OperationKind } from './rateLimiter';
import type { Api, Reply } from './responses';
import type { SandboxState } from './state';

// The route table of the service endpoints (spec part 4) and the context every handler gets. A group of
// routes that needs more (the query routes their runtime, the trigger routes the rewrites switched on)
// extends the context in its own folder: the router knows none of them.

export interface HandlerContext {
  state: SandboxState;
  baseUrl: string;
  uiUrl: string;
  now: () => Date;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (routes with a body only). */
  body: unknown;
  /** Serialised lists kept between requests (the server's; absent where no server keeps them). */
  lists?: ListCache;
}

type Handler<C extends HandlerContext = HandlerContext> = (ctx: C) => Reply;

export interface Route<C extends HandlerContext = HandlerContext> {
  method: string;
  /** Path segments; `:name` captures one segment. */
  pattern: string[];
  api: Api;
  /** True when the route takes a JSON body. */
  body: boolean;
  handler: Handler<C>;
  /**
   * A write route: the kinds of cached list (listCache.ts) that a successful write changes, for the
   * dataset of its path (`:dataset`). Left out, a write drops every cached list, which is always right.
   */
  changes?: readonly ListKind[];
}

export function operationKind(method: string): OperationKind {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

function splitPath(path: string): string[] | undefined {
  const parts = path.split('/').slice(1);
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

function matchPattern(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] ?? '';
    const s = segments[i] ?? '';
    if (p.startsWith(':')) {
      if (s === '') return undefined;
      params[p.slice(1)] = s;
    } else if (p !== s) {
      return undefined;
    }
  }
  return params;
}

export type RouteMatch<C extends HandlerContext> =
  | { kind: 'found'; route: Route<C>; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

export function matchRoute<C extends HandlerContext>(
  routes: readonly Route<C>[],
  method: string,
  path: string,
): RouteMatch<C> {
  const segments = splitPath(path);
  if (!segments) return { kind: 'none' };
  const allow: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allow.push(route.method);
  }
  return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'none' };
}

/** A path parameter the route table guarantees. */
export function param(ctx: HandlerContext, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`route has no parameter ${name}`);
  return value;
}
