// A typed client of the thirtyone API with no runtime dependency: the paths, parameters,
// bodies and answers are the types openapi-typescript generated from openapi.yaml (./api.ts).
import type { components, paths } from "./api.js";

export type { components, paths };
export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];

type Method = "get" | "post" | "put" | "delete" | "patch";
type Operation<P extends keyof paths, M extends Method> = Exclude<paths[P][M & keyof paths[P]], undefined>;
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M & keyof paths[P]] extends undefined | never ? never : P }[keyof paths];
type JSONContent<R> = R extends { content: { "application/json": infer J } } ? J : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** The JSON of an operation's 2xx answers. */
export type Success<O> = JSONContent<Responses<O>[Extract<keyof Responses<O>, 200 | 201 | 202>]>;
type Parameters<O> = O extends { parameters: infer P } ? P : never;
type Body<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

export interface RequestInit<O> {
  params?: {
    path?: Parameters<O> extends { path?: infer X } ? X : never;
    query?: Parameters<O> extends { query?: infer X } ? X : never;
  };
  body?: Body<O>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** An answer: `data` when 2xx, `error` (a problem document, RFC 9457) otherwise. */
export type Result<O> =
  | { data: Success<O>; error?: undefined; response: Response }
  | { data?: undefined; error: Problem; response: Response };

export interface ClientOptions {
  /** The API's origin, such as https://thirtyone.example (no trailing slash). */
  baseUrl: string;
  /** A seat key, sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** The answers' language: en, ru or it. */
  lang?: string;
  fetch?: typeof fetch;
}

export function createClient(options: ClientOptions) {
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function request<M extends Method, P extends PathsWith<M>>(
    method: M, path: P, init: RequestInit<Operation<P, M>> = {},
  ): Promise<Result<Operation<P, M>>> {
    const pathParams = (init.params?.path ?? {}) as Record<string, unknown>;
    let url = options.baseUrl + String(path).replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(pathParams[name])));
    const query = new URLSearchParams();
    if (options.lang !== undefined) query.set("lang", options.lang);
    for (const [name, value] of Object.entries((init.params?.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) query.set(name, String(value));
    }
    if ([...query].length > 0) url += `?${query}`;
    const headers: Record<string, string> = { Accept: "application/json", ...init.headers };
    if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    const response = await send(url, {
      method: method.toUpperCase(), headers, signal: init.signal,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = response.status === 204 || response.status === 304 ? "" : await response.text();
    const json: unknown = text ? JSON.parse(text) : undefined;
    if (response.ok) return { data: json as Success<Operation<P, M>>, response };
    return { error: json as Problem, response };
  }

  return {
    GET: <P extends PathsWith<"get">>(path: P, init?: RequestInit<Operation<P, "get">>) =>
      request("get", path, init),
    POST: <P extends PathsWith<"post">>(path: P, init?: RequestInit<Operation<P, "post">>) =>
      request("post", path, init),
    request,
  };
}
