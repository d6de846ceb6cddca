/** The success envelope: `{ code: 0, data }`. Every `/api` handler returns through this. */
export function ok<T>(data: T): { code: 0; data: T } {
  return { code: 0, data };
}
