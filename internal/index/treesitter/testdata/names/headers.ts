export interface Dayjs {
  tz(zone?: string): Dayjs
}

export class AxiosHeaders {
  set(name: string): AxiosHeaders { return this }
  toJSON = () => ({})
}

declare class Params {
  append(name: string): void
}

export const merge = (a: object, b: object): object => ({ ...a, ...b })

export function create(): AxiosHeaders { return new AxiosHeaders() }
